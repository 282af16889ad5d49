-- Logbook before migration 0011 (schema version 10 and older, the first release among them)
-- dropped the last week it can store, 9999-W52 (Monday 9999-12-27 to Friday 9999-12-31), from
-- exercise_weeks whenever it recounted that week (a second write to one of its days): the week
-- after it starts on 10000-01-03, past the dates SQLite computes. Migration 0011 built that
-- week's row of exercise_period_totals from exercise_weeks, and nothing compares a week's row
-- with its days, so the weekly report showed the week empty (helper-30). Its days are marked
-- stale here when the week's row does not count them and their exercises, so that reports count
-- them from the rows and the next write recounts them. No other week was affected (helper-30
-- tried the ends of the range, the calendar's reform and weeks 53); only that week's days are read.
INSERT OR IGNORE INTO exercise_tallies_stale (day)
    SELECT day FROM exercise_day_totals
    WHERE day BETWEEN '9999-12-27' AND '9999-12-31'
      AND NOT EXISTS (
          SELECT 1 FROM exercise_period_totals AS p
          WHERE p.period = 'week' AND p.start = '9999-12-27'
            AND p.active_days = (SELECT count(*) FROM exercise_day_totals WHERE day BETWEEN '9999-12-27' AND '9999-12-31')
            AND p.exercises = (SELECT sum(exercises) FROM exercise_day_totals WHERE day BETWEEN '9999-12-27' AND '9999-12-31'));
