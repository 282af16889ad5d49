-- Exercise-day history: at most one record per calendar day, with the ordered exercise names.
--
-- `day` is the calendar day (YYYY-MM-DD) in the time zone in force when the record was written;
-- it is stored, never recomputed, so a later change of time zone does not move history.
-- `date` is the instant of the day's first exercise: REAL seconds since 2001-01-01T00:00:00Z.

CREATE TABLE exercise_days (
    pk INTEGER PRIMARY KEY,                       -- internal row key that exercise rows refer to
    id TEXT NOT NULL UNIQUE CHECK (length(id) = 36),
    day TEXT NOT NULL UNIQUE
        CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'),
    date REAL NOT NULL
);

CREATE INDEX exercise_days_by_date ON exercise_days (date);

CREATE TABLE exercises (
    day_pk INTEGER NOT NULL REFERENCES exercise_days (pk) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 1),  -- 1-based order within the day
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,                           -- NFC of name
    PRIMARY KEY (day_pk, position)
) WITHOUT ROWID;

CREATE INDEX exercises_by_name ON exercises (name_key, day_pk);
