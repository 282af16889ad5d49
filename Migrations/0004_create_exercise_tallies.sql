-- Exercise totals per week and per month, so that reports on a long history read a few rows
-- per period instead of every exercise row. Derived data: the exercises table is the truth.
--
-- Logbook keeps them current in the same transaction as each change: a new day's exercises
-- are added to its week and month; any other change (a day updated, moved, deleted, or given
-- more exercises) marks its day stale, and the stale days' weeks and months are recounted from
-- the exercises table before the transaction commits. The triggers below mark days stale for
-- every writer, Logbook or not; only exercise rows inserted by another program go unnoticed.

CREATE TABLE exercise_weeks (
    week TEXT NOT NULL,              -- the Monday that starts the ISO 8601 week (YYYY-MM-DD)
    name_key TEXT NOT NULL,          -- NFC of the exercise name
    name TEXT NOT NULL,              -- the smallest (by UTF-8 bytes) of the spellings done
    exercises INTEGER NOT NULL CHECK (exercises > 0),  -- times done in the week
    PRIMARY KEY (week, name_key)
) WITHOUT ROWID;

CREATE TABLE exercise_months (
    month TEXT NOT NULL,             -- YYYY-MM
    name_key TEXT NOT NULL,
    name TEXT NOT NULL,
    exercises INTEGER NOT NULL CHECK (exercises > 0),  -- times done in the month
    days INTEGER NOT NULL CHECK (days > 0),            -- days of the month it was done on
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,
    PRIMARY KEY (month, name_key)
) WITHOUT ROWID;

-- Days whose weeks and months must be recounted before the writing transaction commits.
CREATE TABLE exercise_tallies_stale (day TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;

-- (Duplicates are skipped by NOT IN, not by OR IGNORE: an upsert's conflict clause overrides
-- the one of a statement inside its triggers.)
CREATE TRIGGER exercise_days_updated_tallies_stale AFTER UPDATE ON exercise_days BEGIN
    INSERT INTO exercise_tallies_stale (day)
        SELECT changed FROM (SELECT OLD.day AS changed UNION SELECT NEW.day)
        WHERE changed NOT IN (SELECT day FROM exercise_tallies_stale);
END;

CREATE TRIGGER exercise_days_deleted_tallies_stale AFTER DELETE ON exercise_days BEGIN
    INSERT INTO exercise_tallies_stale (day)
        SELECT OLD.day WHERE OLD.day NOT IN (SELECT day FROM exercise_tallies_stale);
END;

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

-- The history written before this migration.
INSERT INTO exercise_weeks (week, name_key, name, exercises)
    SELECT date(d.day, '-6 days', 'weekday 1'), e.name_key, min(e.name), count(*)
    FROM exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
    GROUP BY 1, 2;

INSERT INTO exercise_months (month, name_key, name, exercises, days, first_day, last_day)
    SELECT substr(d.day, 1, 7), e.name_key, min(e.name), count(*), count(DISTINCT d.pk), min(d.day), max(d.day)
    FROM exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
    GROUP BY 1, 2;
