-- Migration 0018, and Logbook's recounts until this migration, took a day of the day totals for a
-- calendar day when SQLite's date(julianday(day)) gave its text back unchanged. SQLite 3.40.1 reads
-- 0300-03-01 as 0300-02-29 (and misreads no other day from 0001 to 9999), so that day set no bit in
-- its month's row of exercise_month_days, and the streak report broke a run there; and a text
-- another program stored as '0300-02-29', no day at all, set the 29th of February 300. Logbook now
-- checks a day field by field (StoredValueAudit.isCalendarDay, whose SQL is repeated here); this
-- recounts, from the day totals, each month holding a text the two checks disagree on (on SQLite
-- 3.40.1, March 300 when the history has its 1st, February 300 when it has that text; no month
-- otherwise), found by one scan of the day totals. Every other row stays as it is.
CREATE TEMP TABLE misread_months AS
    SELECT DISTINCT substr(day, 1, 8) || '01' AS start FROM exercise_day_totals
    WHERE (typeof(day) = 'text' AND date(julianday(day)) IS day AND day >= '0001-01-01')
          IS NOT (typeof(day) = 'text' AND length(CAST(day AS BLOB)) = 10
             AND day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]' AND day >= '0001-01-01'
             AND substr(day, 6, 2) BETWEEN '01' AND '12' AND substr(day, 9, 2) >= '01'
             AND substr(day, 9, 2) <= CASE substr(day, 6, 2)
                 WHEN '02' THEN CASE WHEN CAST(substr(day, 1, 4) AS INTEGER) % 4 = 0
                                          AND (CAST(substr(day, 1, 4) AS INTEGER) % 100 <> 0 OR CAST(substr(day, 1, 4) AS INTEGER) % 400 = 0)
                                     THEN '29' ELSE '28' END
                 WHEN '04' THEN '30' WHEN '06' THEN '30' WHEN '09' THEN '30' WHEN '11' THEN '30' ELSE '31' END);

DELETE FROM exercise_month_days WHERE start IN (SELECT start FROM temp.misread_months);

INSERT INTO exercise_month_days (start, days)
    SELECT m.start, sum(1 << (CAST(substr(t.day, 9, 2) AS INTEGER) - 1))
    FROM temp.misread_months AS m JOIN exercise_day_totals AS t ON t.day BETWEEN m.start AND substr(m.start, 1, 8) || '31'
    WHERE typeof(t.day) = 'text' AND length(CAST(t.day AS BLOB)) = 10
             AND t.day GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]' AND t.day >= '0001-01-01'
             AND substr(t.day, 6, 2) BETWEEN '01' AND '12' AND substr(t.day, 9, 2) >= '01'
             AND substr(t.day, 9, 2) <= CASE substr(t.day, 6, 2)
                 WHEN '02' THEN CASE WHEN CAST(substr(t.day, 1, 4) AS INTEGER) % 4 = 0
                                          AND (CAST(substr(t.day, 1, 4) AS INTEGER) % 100 <> 0 OR CAST(substr(t.day, 1, 4) AS INTEGER) % 400 = 0)
                                     THEN '29' ELSE '28' END
                 WHEN '04' THEN '30' WHEN '06' THEN '30' WHEN '09' THEN '30' WHEN '11' THEN '30' ELSE '31' END
    GROUP BY m.start;

DROP TABLE temp.misread_months;
