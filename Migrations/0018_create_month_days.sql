-- The days of each month that have an exercise, as the bits of one integer, so that the streak
-- report reads one row per month instead of one per day: on a history with a day missing in every
-- month (which no month's totals can add as one run) it read all 2,000,000 days of a file of 10
-- million exercises. Derived data, kept with the day totals of migration 0005: bit d - 1 of `days`
-- is set exactly when day d of the month has a row in `exercise_day_totals`. Written by Logbook
-- with every row of the day totals it writes, and recomputed for the months of the days it
-- recounts (see the file's documentation, "Tallies").
CREATE TABLE exercise_month_days (
    start TEXT PRIMARY KEY,                 -- the month's first day, YYYY-MM-01
    days INTEGER NOT NULL CHECK (days > 0)  -- bit d - 1 set: day d has an exercise
) WITHOUT ROWID;

-- The history written before this migration, from its day totals (days whose text is no calendar
-- day, which only another program stores, have no month here).
INSERT INTO exercise_month_days (start, days)
    SELECT substr(day, 1, 8) || '01', sum(1 << (CAST(substr(day, 9, 2) AS INTEGER) - 1))
    FROM exercise_day_totals
    WHERE typeof(day) = 'text' AND date(julianday(day)) IS day AND day >= '0001-01-01'
    GROUP BY 1;
