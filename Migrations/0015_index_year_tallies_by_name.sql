-- The exercise report adds up each name's tallies of the whole years in its range. Grouped by
-- name over the year tallies' primary key (year, name_key), SQLite sorted every row first: on a
-- file of 10 million exercises over 5,500 years, 110,000 rows and most of the report's 0.34 s.
-- Through this index, which holds every column the report reads, the rows come name by name and
-- each name is added up as they stream (0.09 s). Year tallies are few (one per name and year), so
-- the index costs writes next to nothing.
CREATE INDEX exercise_years_by_name ON exercise_years (name_key, year, name, exercises, days, first_day, last_day);
