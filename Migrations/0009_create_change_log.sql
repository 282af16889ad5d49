-- The change log behind `logbook changes`: which drafts and days changed, in commit order, for
-- every writer (Logbook or any other SQLite client), written by the triggers below.
--
-- An entry names a record: kind 'draft' or 'day', the row key `pk` of its row, and its `id`
-- (UUID) when the trigger has it at hand (a draft's or a day's own row; for checklist and
-- exercise rows the id is looked up by `pk` when the feed is read). The feed reads the current
-- state of every record named since a token: present, it is an upsert; gone, a delete.
--
-- Rows of one record written one after the other (a new day's exercises, a draft's checklist)
-- log one entry: a checklist or exercise row is logged only when the newest entry is not
-- already its record. A change skipped that way is never lost, because a token includes the
-- entry it stops at: the feed that starts at it reads that record again.
--
-- `seq` only grows (SQLite's one writer at a time makes it commit order; pruning never removes
-- the newest entry, so a row key is never reused). `at` is the time of the change, in seconds
-- since 2001-01-01T00:00:00Z like every date in the file; entries older than the retention
-- ('change_log_retention_days' in logbook_settings, 90 when unset) are pruned when Logbook opens
-- the file to write, and 'change_log_start' records the oldest token still answered.

CREATE TABLE change_log (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('draft', 'day')),
    pk INTEGER NOT NULL,
    id TEXT,
    at REAL NOT NULL DEFAULT ((julianday('now') - 2451910.5) * 86400)
);

-- Every record stored before this migration, so that the feed from the start gives everything.
INSERT INTO change_log (kind, pk, id) SELECT 'draft', pk, id FROM drafts ORDER BY pk;
INSERT INTO change_log (kind, pk, id) SELECT 'day', pk, id FROM exercise_days ORDER BY pk;
INSERT INTO logbook_settings (name, value) VALUES ('change_log_start', '1');

-- A new row may reuse the row key of one another program deleted with foreign keys off (the
-- sqlite3 shell's default), whose checklist or exercise rows were left behind: those orphans are
-- removed first, so the new record never adopts them (nor collides with their positions).
CREATE TRIGGER drafts_inserted AFTER INSERT ON drafts BEGIN
    DELETE FROM checklist_items WHERE draft_pk = NEW.pk;
    INSERT INTO change_log (kind, pk, id) VALUES ('draft', NEW.pk, NEW.id);
END;

CREATE TRIGGER drafts_updated_change_log AFTER UPDATE ON drafts BEGIN
    INSERT INTO change_log (kind, pk, id) SELECT 'draft', OLD.pk, OLD.id WHERE OLD.id IS NOT NEW.id;
    INSERT INTO change_log (kind, pk, id) VALUES ('draft', NEW.pk, NEW.id);
END;

CREATE TRIGGER drafts_deleted_change_log AFTER DELETE ON drafts BEGIN
    INSERT INTO change_log (kind, pk, id) VALUES ('draft', OLD.pk, OLD.id);
END;

CREATE TRIGGER exercise_days_inserted AFTER INSERT ON exercise_days BEGIN
    DELETE FROM exercises WHERE day_pk = NEW.pk;
    INSERT INTO change_log (kind, pk, id) VALUES ('day', NEW.pk, NEW.id);
END;

CREATE TRIGGER exercise_days_updated_change_log AFTER UPDATE ON exercise_days BEGIN
    INSERT INTO change_log (kind, pk, id) SELECT 'day', OLD.pk, OLD.id WHERE OLD.id IS NOT NEW.id;
    INSERT INTO change_log (kind, pk, id) VALUES ('day', NEW.pk, NEW.id);
END;

CREATE TRIGGER exercise_days_deleted_change_log AFTER DELETE ON exercise_days BEGIN
    INSERT INTO change_log (kind, pk, id) VALUES ('day', OLD.pk, OLD.id);
END;

CREATE TRIGGER checklist_items_inserted_change_log AFTER INSERT ON checklist_items
WHEN NOT EXISTS (SELECT 1 FROM (SELECT kind, pk FROM change_log ORDER BY seq DESC LIMIT 1)
                 WHERE kind = 'draft' AND pk = NEW.draft_pk)
BEGIN
    INSERT INTO change_log (kind, pk) VALUES ('draft', NEW.draft_pk);
END;

CREATE TRIGGER checklist_items_updated_change_log AFTER UPDATE ON checklist_items BEGIN
    INSERT INTO change_log (kind, pk) SELECT 'draft', changed FROM (SELECT OLD.draft_pk AS changed UNION SELECT NEW.draft_pk)
        WHERE NOT EXISTS (SELECT 1 FROM (SELECT kind, pk FROM change_log ORDER BY seq DESC LIMIT 1)
                          WHERE kind = 'draft' AND pk = changed);
END;

CREATE TRIGGER checklist_items_deleted_change_log AFTER DELETE ON checklist_items
WHEN NOT EXISTS (SELECT 1 FROM (SELECT kind, pk FROM change_log ORDER BY seq DESC LIMIT 1)
                 WHERE kind = 'draft' AND pk = OLD.draft_pk)
BEGIN
    INSERT INTO change_log (kind, pk) VALUES ('draft', OLD.draft_pk);
END;

CREATE TRIGGER exercises_inserted_change_log AFTER INSERT ON exercises
WHEN NOT EXISTS (SELECT 1 FROM (SELECT kind, pk FROM change_log ORDER BY seq DESC LIMIT 1)
                 WHERE kind = 'day' AND pk = NEW.day_pk)
BEGIN
    INSERT INTO change_log (kind, pk) VALUES ('day', NEW.day_pk);
END;

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
