-- A save of a few new days (an app logging today, `logbook history add`) counted them into the
-- month and year tallies and the period totals at once: ten tally rows, three totals rows and a
-- week of exercise rows read back for one day of five exercises, three times the cost of the day
-- itself. Such days are now counted in their day's totals at once and in the other tallies later,
-- by the next write that is not such a save (or once 256 of them wait): the tallies count the
-- exercise rows of the days with a row key up to `tallied_through`, and reports count the days
-- above it from their rows (see the file's documentation, "Tallies").
--
-- Every day of a file written before this was counted at once.
INSERT OR REPLACE INTO logbook_settings (name, value)
    VALUES ('tallied_through', (SELECT coalesce(max(pk), 0) FROM exercise_days));
