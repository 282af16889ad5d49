-- Totals per year and name, and per week, month and year as a whole, so that a report on a long
-- history reads one row per period it prints (and one per year and name for the exercise totals)
-- instead of every week's or month's rows per name. Derived data, kept like the tallies of
-- migration 0004: a new day's exercises are added to its year, and the totals of every week, month
-- and year that changed are recomputed from the tallies before the writing transaction commits;
-- the days that 0004's triggers mark stale have their years and period totals recounted too.

CREATE TABLE exercise_years (
    year TEXT NOT NULL,              -- YYYY
    name_key TEXT NOT NULL,          -- NFC of the exercise name
    name TEXT NOT NULL,              -- the smallest (by UTF-8 bytes) of the spellings done
    exercises INTEGER NOT NULL CHECK (exercises > 0),  -- times done in the year
    days INTEGER NOT NULL CHECK (days > 0),            -- days of the year it was done on
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,
    PRIMARY KEY (year, name_key)
) WITHOUT ROWID;

CREATE TABLE exercise_period_totals (
    period TEXT NOT NULL CHECK (period IN ('week', 'month', 'year')),
    start TEXT NOT NULL,             -- the period's first day: a Monday (ISO 8601), the 1st, January 1st
    active_days INTEGER NOT NULL CHECK (active_days > 0),                -- days with an exercise
    exercises INTEGER NOT NULL CHECK (exercises > 0),                    -- exercises done
    distinct_exercises INTEGER NOT NULL CHECK (distinct_exercises > 0),  -- different name keys among them
    top_exercise TEXT NOT NULL,      -- the most done (the smallest name key among equals), its smallest spelling
    PRIMARY KEY (period, start)
) WITHOUT ROWID;

-- The history written before this migration, from the month tallies and the day totals.
INSERT INTO exercise_years (year, name_key, name, exercises, days, first_day, last_day)
    SELECT substr(month, 1, 4), name_key, min(name), sum(exercises), sum(days), min(first_day), max(last_day)
    FROM exercise_months GROUP BY 1, 2;

INSERT INTO exercise_period_totals (period, start, active_days, exercises, distinct_exercises, top_exercise)
    SELECT 'week', g.start, a.days, g.exercises, g.distinct_exercises,
           (SELECT t.name FROM exercise_weeks AS t WHERE t.week = g.start AND t.exercises = g.most ORDER BY t.name_key LIMIT 1)
    FROM (SELECT week AS start, sum(exercises) AS exercises, count(*) AS distinct_exercises, max(exercises) AS most
          FROM exercise_weeks GROUP BY week) AS g
    JOIN (SELECT date(day, '-6 days', 'weekday 1') AS start, count(*) AS days FROM exercise_day_totals GROUP BY 1) AS a
        ON a.start = g.start;

INSERT INTO exercise_period_totals (period, start, active_days, exercises, distinct_exercises, top_exercise)
    SELECT 'month', g.month || '-01', a.days, g.exercises, g.distinct_exercises,
           (SELECT t.name FROM exercise_months AS t WHERE t.month = g.month AND t.exercises = g.most ORDER BY t.name_key LIMIT 1)
    FROM (SELECT month, sum(exercises) AS exercises, count(*) AS distinct_exercises, max(exercises) AS most
          FROM exercise_months GROUP BY month) AS g
    JOIN (SELECT substr(day, 1, 7) AS month, count(*) AS days FROM exercise_day_totals GROUP BY 1) AS a
        ON a.month = g.month;

INSERT INTO exercise_period_totals (period, start, active_days, exercises, distinct_exercises, top_exercise)
    SELECT 'year', g.year || '-01-01', a.days, g.exercises, g.distinct_exercises,
           (SELECT t.name FROM exercise_years AS t WHERE t.year = g.year AND t.exercises = g.most ORDER BY t.name_key LIMIT 1)
    FROM (SELECT year, sum(exercises) AS exercises, count(*) AS distinct_exercises, max(exercises) AS most
          FROM exercise_years GROUP BY year) AS g
    JOIN (SELECT substr(day, 1, 4) AS year, count(*) AS days FROM exercise_day_totals GROUP BY 1) AS a
        ON a.year = g.year;
