-- Totals per recorded day, so that the daily history report reads one row per day instead of
-- grouping every exercise row. Derived data, kept like the tallies of migration 0004: a new day's
-- row is written with the day, and the days that 0004's triggers mark stale are recounted from
-- the exercises table before the writing transaction commits.

CREATE TABLE exercise_day_totals (
    day TEXT PRIMARY KEY NOT NULL,   -- a day of exercise_days
    exercises INTEGER NOT NULL CHECK (exercises > 0),                    -- exercises done that day
    distinct_exercises INTEGER NOT NULL CHECK (distinct_exercises > 0),  -- different name keys among them
    top_exercise TEXT NOT NULL       -- the most done (the smallest name key among equals), its smallest spelling
) WITHOUT ROWID;

-- The history written before this migration.
INSERT INTO exercise_day_totals (day, exercises, distinct_exercises, top_exercise)
    SELECT day, sum(done), count(*), min(CASE WHEN rank = 1 THEN name END)
    FROM (SELECT day, name, done, row_number() OVER (PARTITION BY day ORDER BY done DESC, name_key) AS rank
          FROM (SELECT d.day, e.name_key, min(e.name) AS name, count(*) AS done
                FROM exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
                GROUP BY d.day, e.name_key))
    GROUP BY day;
