-- A save of a few new days (migration 0016) set their bits in exercise_month_days (migration
-- 0018) at once: one B-tree page more than the dozen or so such a save writes. A day's bit is
-- now set when the tallies count it, with its week, month and year: bit d - 1 of `days` is set
-- exactly when day d of the month has a row in `exercise_day_totals` and a row key at or under
-- `tallied_through` (the streak report reads the days that wait from their day totals). The bits
-- of the calendar days waiting now are cleared (in rows Logbook wrote: a value of another
-- program's is left for `check` to name); the mark is read as Logbook reads it (none stored, or
-- one that is no row key: every day is counted, and none waits).
CREATE TEMP TABLE waiting_month_days AS
    SELECT substr(day, 1, 8) || '01' AS start, sum(1 << (CAST(substr(day, 9, 2) AS INTEGER) - 1)) AS days
    FROM exercise_days
    WHERE pk > coalesce((SELECT CAST(value AS INTEGER) FROM logbook_settings
                         WHERE name = 'tallied_through' AND typeof(value) = 'text' AND value <> '' AND value NOT GLOB '*[^0-9]*'),
                        (SELECT coalesce(max(pk), 0) FROM exercise_days))
      AND typeof(day) = 'text' AND length(CAST(day AS BLOB)) = 10
      AND day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]' AND day >= '0001-01-01'
      AND substr(day, 6, 2) BETWEEN '01' AND '12' AND substr(day, 9, 2) >= '01'
      AND substr(day, 9, 2) <= CASE substr(day, 6, 2)
          WHEN '02' THEN CASE WHEN CAST(substr(day, 1, 4) AS INTEGER) % 4 = 0
                                   AND (CAST(substr(day, 1, 4) AS INTEGER) % 100 <> 0 OR CAST(substr(day, 1, 4) AS INTEGER) % 400 = 0)
                              THEN '29' ELSE '28' END
          WHEN '04' THEN '30' WHEN '06' THEN '30' WHEN '09' THEN '30' WHEN '11' THEN '30' ELSE '31' END
    GROUP BY 1;

DELETE FROM exercise_month_days
WHERE start IN (SELECT start FROM waiting_month_days) AND typeof(days) = 'integer'
  AND days & ~(SELECT w.days FROM waiting_month_days AS w WHERE w.start = exercise_month_days.start) = 0;

UPDATE exercise_month_days SET days = days & ~(SELECT w.days FROM waiting_month_days AS w WHERE w.start = exercise_month_days.start)
WHERE start IN (SELECT start FROM waiting_month_days) AND typeof(days) = 'integer';

DROP TABLE temp.waiting_month_days;
