-- The week tallies of migration 0004 (one row per week and exercise name) without a table.
--
-- No report reads them: the history report by week reads exercise_period_totals (migration 0011),
-- and the exercise totals read the month and year tallies. They served only to recompute a week's
-- row of exercise_period_totals, and keeping them cost every insert more than anything else
-- Logbook derives: a million exercises through the repository took 11.6 s with them and 8.1 s
-- without (the raw C API on this schema 5.1 to 5.6 s), since a varied history has a row per week
-- and name (477,000 for 200,000 days of 20 names). Logbook now recomputes a changed week's totals
-- from the exercise rows of its seven days, read through the day index.
DROP TABLE IF EXISTS exercise_weeks;
