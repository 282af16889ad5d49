-- The change log of migration 0009 without a trigger on inserted day and exercise rows.
--
-- Firing a trigger per inserted row doubled the time of every bulk insert, for every writer (a
-- million exercises through the repository: 12.1 s before 0009, 27.8 s after; the raw C API on
-- this schema 7.2 s and 20.2 s), though it logs only one entry per day. Inserts are now found
-- without one when the feed is read:
--
-- * A new day, by its row key. SQLite gives a new row the highest row key in the table plus one,
--   so a day stored after a feed was read has a row key above the highest one that feed saw (its
--   token's day mark), unless days were deleted since: the delete trigger below logs, in
--   `day_mark`, the highest row key left after the deletion, and a new day is above the smallest
--   of those marks too.
-- * Exercise rows added to a day Logbook stores: Logbook's own appends update the day row, which
--   the update trigger logs. Another program's leave the day's exercise count above its row of
--   exercise_day_totals (or the day marked stale in exercise_tallies_stale) until Logbook
--   recounts the day, and Logbook logs a day before it recounts it.
DROP TRIGGER exercise_days_inserted;
DROP TRIGGER exercises_inserted_change_log;
DROP TRIGGER exercise_days_updated_change_log;
DROP TRIGGER exercise_days_deleted_change_log;

ALTER TABLE change_log ADD COLUMN day_mark INTEGER;

-- A token from before this migration has no day mark: every day stored until now was logged, and
-- every later one is above this entry's mark. (Row key 0 names no record; the feed skips it.)
INSERT INTO change_log (kind, pk, day_mark) VALUES ('day', 0, (SELECT coalesce(max(pk), 0) FROM exercise_days));

-- A change of a day's row key (only another program would) may lower the highest one: logged too.
CREATE TRIGGER exercise_days_updated_change_log AFTER UPDATE ON exercise_days BEGIN
    INSERT INTO change_log (kind, pk, id) SELECT 'day', OLD.pk, OLD.id WHERE OLD.id IS NOT NEW.id;
    INSERT INTO change_log (kind, pk, id, day_mark)
        VALUES ('day', NEW.pk, NEW.id, CASE WHEN OLD.pk IS NOT NEW.pk THEN (SELECT coalesce(max(pk), 0) FROM exercise_days) END);
END;

-- The deleted day's exercise rows and aliases go with it also when another program deleted it
-- with foreign keys off (the sqlite3 shell's default), so a new day given the same row key never
-- adopts them (0009 removed them when the new day was inserted).
CREATE TRIGGER exercise_days_deleted_change_log AFTER DELETE ON exercise_days BEGIN
    INSERT INTO change_log (kind, pk, id, day_mark) VALUES ('day', OLD.pk, OLD.id, (SELECT coalesce(max(pk), 0) FROM exercise_days));
    DELETE FROM exercises WHERE day_pk = OLD.pk;
    DELETE FROM exercise_day_aliases WHERE day_pk = OLD.pk;
END;

-- Rows such a delete left before this migration, which a new day would adopt.
DELETE FROM exercises WHERE day_pk NOT IN (SELECT pk FROM exercise_days);
DELETE FROM exercise_day_aliases WHERE day_pk NOT IN (SELECT pk FROM exercise_days);
