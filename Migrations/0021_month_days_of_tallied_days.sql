-- A save of a few new days (migration 0016) set their bits in exercise_month_days (migration
-- 0018) at once: one B-tree page more for every such save, about 7% of its time. A day's bit is
-- now set when the tallies count it, with its week, month and year: bit d - 1 of `days` is set
-- exactly when day d of the month has a row in `exercise_day_totals` and a row key at or under
-- `tallied_through` (the streak report reads the days that wait from their day totals). The bits
-- of the days waiting now are cleared (in rows Logbook wrote: a value of another program's is
-- left for `check` to name); the mark is read as Logbook reads it (none stored, or one that is no
-- row key: every day is counted, and none waits).
WITH mark(pk) AS (
         SELECT coalesce((SELECT CAST(value AS INTEGER) FROM logbook_settings
                          WHERE name = 'tallied_through' AND typeof(value) = 'text' AND value <> '' AND value NOT GLOB '*[^0-9]*'),
                         (SELECT coalesce(max(pk), 0) FROM exercise_days))),
     waiting(start, days) AS (
         SELECT substr(day, 1, 8) || '01', sum(1 << (CAST(substr(day, 9, 2) AS INTEGER) - 1)) FROM exercise_days
         WHERE pk > (SELECT pk FROM mark) AND typeof(day) = 'text' AND day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'
         GROUP BY 1)
DELETE FROM exercise_month_days
WHERE start IN (SELECT start FROM waiting) AND typeof(days) = 'integer'
  AND days & ~(SELECT days FROM waiting WHERE waiting.start = exercise_month_days.start) = 0;

WITH mark(pk) AS (
         SELECT coalesce((SELECT CAST(value AS INTEGER) FROM logbook_settings
                          WHERE name = 'tallied_through' AND typeof(value) = 'text' AND value <> '' AND value NOT GLOB '*[^0-9]*'),
                         (SELECT coalesce(max(pk), 0) FROM exercise_days))),
     waiting(start, days) AS (
         SELECT substr(day, 1, 8) || '01', sum(1 << (CAST(substr(day, 9, 2) AS INTEGER) - 1)) FROM exercise_days
         WHERE pk > (SELECT pk FROM mark) AND typeof(day) = 'text' AND day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]'
         GROUP BY 1)
UPDATE exercise_month_days SET days = days & ~(SELECT days FROM waiting WHERE waiting.start = exercise_month_days.start)
WHERE start IN (SELECT start FROM waiting) AND typeof(days) = 'integer';
