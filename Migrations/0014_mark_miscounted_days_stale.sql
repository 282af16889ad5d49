-- From this version on, whether the derived tables account for every exercise row is told by
-- comparing the rows with the years' totals instead of the days' (one row per year read instead
-- of one per day), which holds because Logbook now marks stale the days of a year whose totals
-- miss rows before it recounts that year. A file written before may hold a year that a recount
-- gave rows another program had inserted while their days' totals did not count them: those days
-- are marked stale here, so that reports count them from the rows and the next write recounts
-- them (logging them to the change feed first). Only when the check before this version would
-- have failed (a day marked stale, or the days' totals not adding up to the rows, which days
-- marked stale can hide): nothing is read per day otherwise.
INSERT OR IGNORE INTO exercise_tallies_stale (day)
    SELECT d.day FROM exercise_days AS d
    WHERE (EXISTS (SELECT 1 FROM exercise_tallies_stale)
           OR (SELECT count(*) FROM exercises) IS NOT (SELECT coalesce(sum(exercises), 0) FROM exercise_day_totals))
      AND (SELECT count(*) FROM exercises WHERE day_pk = d.pk)
          IS NOT coalesce((SELECT exercises FROM exercise_day_totals WHERE day = d.day), 0);
