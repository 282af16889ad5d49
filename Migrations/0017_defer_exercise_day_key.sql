-- migration: foreign keys off
-- The exercises table again, its reference to the day checked when the transaction commits
-- (DEFERRABLE INITIALLY DEFERRED) rather than after each statement; nothing else changes.
--
-- A statement that writes several rows of a table whose foreign key is checked per statement
-- makes SQLite keep a statement journal, so that a failure can undo that statement alone, and a
-- bulk write soon spills it to a temporary file, a page write for every page it changes. With the
-- check deferred, Logbook writes a day's exercises in one multi-row INSERT OR FAIL (its own
-- transactions roll back whole on any error) without one. The key is checked as before, and a
-- transaction that leaves an exercise row without its day still fails, at COMMIT. `ON DELETE
-- CASCADE` acts at once, as before.
--
-- SQLite's procedure for a change ALTER TABLE cannot make: a new table, the rows copied in key
-- order, the old table dropped (its index and triggers with it), the new one renamed, then the
-- index and the triggers made again with the text they had. The trigger of exercise_days that
-- deletes a day's exercise rows names the table, so it is dropped first and made again after.
-- Every row is copied, also one whose day is gone (another program's, with foreign keys off),
-- which `logbook check` names and `logbook repair` removes as before. Copying takes about 3
-- seconds a million exercises.

DROP TRIGGER exercise_days_deleted_change_log;

CREATE TABLE exercises_deferred (
    day_pk INTEGER NOT NULL REFERENCES exercise_days (pk) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    position INTEGER NOT NULL CHECK (position >= 1),  -- 1-based order within the day
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,                           -- NFC of name
    PRIMARY KEY (day_pk, position)
) WITHOUT ROWID;

INSERT INTO exercises_deferred (day_pk, position, name, name_key)
    SELECT day_pk, position, name, name_key FROM exercises ORDER BY day_pk, position;

DROP TABLE exercises;
ALTER TABLE exercises_deferred RENAME TO exercises;

CREATE INDEX exercises_by_name ON exercises (name_key, day_pk);

-- 0004
CREATE TRIGGER exercises_deleted_tallies_stale AFTER DELETE ON exercises BEGIN
    INSERT INTO exercise_tallies_stale (day)
        SELECT day FROM exercise_days
        WHERE pk = OLD.day_pk AND day NOT IN (SELECT day FROM exercise_tallies_stale);
END;

CREATE TRIGGER exercises_updated_tallies_stale AFTER UPDATE ON exercises BEGIN
    INSERT INTO exercise_tallies_stale (day)
        SELECT day FROM exercise_days
        WHERE pk IN (OLD.day_pk, NEW.day_pk) AND day NOT IN (SELECT day FROM exercise_tallies_stale);
END;

-- 0007
CREATE TRIGGER exercises_renamed_ascii_key AFTER UPDATE OF name ON exercises
WHEN NEW.name_key IS OLD.name_key AND NEW.name IS NOT OLD.name
     AND length(CAST(NEW.name AS BLOB)) = length(NEW.name)
BEGIN
    UPDATE exercises SET name_key = NEW.name WHERE day_pk = NEW.day_pk AND position = NEW.position;
END;

-- 0009
CREATE TRIGGER exercises_updated_change_log AFTER UPDATE ON exercises BEGIN
    INSERT INTO change_log (kind, pk) SELECT 'day', changed FROM (SELECT OLD.day_pk AS changed UNION SELECT NEW.day_pk)
        WHERE NOT EXISTS (SELECT 1 FROM (SELECT kind, pk FROM change_log ORDER BY seq DESC LIMIT 1)
                          WHERE kind = 'day' AND pk = changed);
END;

CREATE TRIGGER exercises_deleted_change_log AFTER DELETE ON exercises
WHEN NOT EXISTS (SELECT 1 FROM (SELECT kind, pk FROM change_log ORDER BY seq DESC LIMIT 1)
                 WHERE kind = 'day' AND pk = OLD.day_pk)
BEGIN
    INSERT INTO change_log (kind, pk) VALUES ('day', OLD.day_pk);
END;

-- 0010
CREATE TRIGGER exercise_days_deleted_change_log AFTER DELETE ON exercise_days BEGIN
    INSERT INTO change_log (kind, pk, id, day_mark) VALUES ('day', OLD.pk, OLD.id, (SELECT coalesce(max(pk), 0) FROM exercise_days));
    DELETE FROM exercises WHERE day_pk = OLD.pk;
    DELETE FROM exercise_day_aliases WHERE day_pk = OLD.pk;
END;
