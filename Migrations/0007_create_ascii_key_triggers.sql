-- Keys that stay true when another program edits a name without its key.
--
-- Every *_key column holds the NFC form of its text, which other programs are asked to write
-- too (README, The database file). One that changes a name but not its key leaves the key of the
-- old name, and lookups by name would miss the row. When the new text is ASCII its NFC form is
-- the text itself, so these triggers, plain SQL that every SQLite client runs, set the key. (The
-- byte length equals the character length only for ASCII text without U+0000.) Other text keeps
-- the old key until Logbook recomputes it: the update marks the exercise's day stale (migration
-- 0004), and Logbook's next write, or `logbook repair`, recomputes the keys of stale days.

CREATE TRIGGER exercises_renamed_ascii_key AFTER UPDATE OF name ON exercises
WHEN NEW.name_key IS OLD.name_key AND NEW.name IS NOT OLD.name
     AND length(CAST(NEW.name AS BLOB)) = length(NEW.name)
BEGIN
    UPDATE exercises SET name_key = NEW.name WHERE day_pk = NEW.day_pk AND position = NEW.position;
END;

CREATE TRIGGER drafts_renamed_ascii_key AFTER UPDATE OF version ON drafts
WHEN NEW.version_key IS OLD.version_key AND NEW.version IS NOT OLD.version
     AND length(CAST(NEW.version AS BLOB)) = length(NEW.version)
BEGIN
    UPDATE drafts SET version_key = NEW.version WHERE pk = NEW.pk;
END;

-- A draft another program inserts with an ASCII version and a key that is not it.
CREATE TRIGGER drafts_inserted_ascii_key AFTER INSERT ON drafts
WHEN NEW.version_key IS NOT NEW.version AND length(CAST(NEW.version AS BLOB)) = length(NEW.version)
BEGIN
    UPDATE drafts SET version_key = NEW.version WHERE pk = NEW.pk;
END;
