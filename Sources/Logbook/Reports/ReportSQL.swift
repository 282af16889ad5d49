/// The SQL of each report. Parameters: `?1` first day or NULL, `?2` last day or NULL, then any
/// report-specific ones.
///
/// The history and exercise reports come in two forms: `tallied`, reading the week and month
/// tallies and the day totals (fast), and counted from the exercise rows with keys computed from
/// the names (exact whatever wrote the file), for when ``ExerciseTallies/areCurrent(in:)`` finds
/// the derived data behind the rows (another program wrote them, and Logbook has not recounted).
enum ReportSQL {
    /// The comparison key of the exercise row `e`: the stored key, or computed from the name when
    /// the stored keys may be another program's.
    private static func key(tallied: Bool) -> String { tallied ? "e.name_key" : "swift_key(e.name)" }

    /// The label of the period that the day in the text column `day` falls in.
    static func periodLabel(_ period: ReportPeriod, of day: String) -> String {
        switch period {
        case .day: return day
        case .month: return "substr(\(day), 1, 7)"
        case .year: return "substr(\(day), 1, 4)"
        case .week:
            // ISO 8601: a week belongs to the year of its Thursday and is numbered by that
            // Thursday's day of the year.
            let thursday = "date(\(day), '-' || ((CAST(strftime('%w', \(day)) AS INTEGER) + 6) % 7) || ' days', '+3 days')"
            return "strftime('%Y', \(thursday)) || '-W' || printf('%02d', (CAST(strftime('%j', \(thursday)) AS INTEGER) - 1) / 7 + 1)"
        }
    }

    /// The first day of every period that meets `first...last`, in order: `calendar(start)`.
    static func periodStarts(_ period: ReportPeriod) -> String {
        let (start, step): (String, String) = switch period {
        case .day: ("first", "'+1 day'")
        case .week: (ExerciseTallies.weekStart(of: "first"), "'+7 days'")
        case .month: ("date(first, 'start of month')", "'+1 month'")
        case .year: ("date(first, 'start of year')", "'+1 year'")
        }
        return """
            calendar(start) AS (
                SELECT \(start) FROM bounds WHERE first IS NOT NULL AND last IS NOT NULL AND first <= last
                UNION ALL
                SELECT date(start, \(step)) FROM calendar, bounds WHERE date(start, \(step)) <= last)
            """
    }

    /// The last day of the period that starts on the day in the text column `start`.
    static func periodEnd(_ period: ReportPeriod, of start: String) -> String {
        switch period {
        case .day: start
        case .week: "date(\(start), '+6 days')"
        case .month: "date(\(start), '+1 month', '-1 day')"
        case .year: "date(\(start), '+1 year', '-1 day')"
        }
    }

    /// Totals of the periods that lie wholly inside the range, read from the week and month
    /// tallies (migration 0004) rather than from every exercise row:
    /// `tallied(start, exercises, distinct_exercises, top)`. Days have no tallies.
    static func talliedTotals(_ period: ReportPeriod) -> String {
        let range = "(SELECT min(start) FROM periods WHERE tallied) AND (SELECT max(start) FROM periods WHERE tallied)"
        switch period {
        case .day:
            preconditionFailure("days are read from their totals: see dailyHistory")
        case .week:
            return """
                \(totals(of: "exercise_weeks", period: "week", start: "week", where: "week BETWEEN \(range)"))
                """
        case .month:
            return """
                \(totals(of: "exercise_months", period: "month", start: "month || '-01'", where: "month || '-01' BETWEEN \(range)"))
                """
        case .year:
            return """
                year_names(start, name_key, name, exercises) AS (
                    SELECT substr(month, 1, 4) || '-01-01', name_key, min(name), sum(exercises)
                    FROM exercise_months WHERE substr(month, 1, 4) || '-01-01' BETWEEN \(range) GROUP BY 1, 2),
                \(totals(of: "year_names", period: "start", start: "start", where: "1"))
                """
        }
    }

    /// `name(start, exercises, distinct_exercises, top)` from a relation of per-period, per-name
    /// counts (`period`, `name_key`, `name`, `exercises`; one row per period and name): the top
    /// exercise is the most done, the smallest name key among equals, found by a seek per period.
    static func totals(of names: String, period: String, start: String, where condition: String,
                       named name: String = "tallied") -> String {
        """
        \(name)(start, exercises, distinct_exercises, top) AS (
            SELECT g.start, g.exercises, g.distinct_exercises,
                   (SELECT t.name FROM \(names) AS t WHERE t.\(period) = g.period AND t.exercises = g.most ORDER BY t.name_key LIMIT 1)
            FROM (SELECT \(period) AS period, \(start) AS start, sum(exercises) AS exercises, count(*) AS distinct_exercises,
                         max(exercises) AS most
                  FROM \(names) WHERE \(condition) GROUP BY \(period)) AS g)
        """
    }

    /// Totals of the periods not in the tallies, counted from the exercise rows of their days in
    /// the range: `counted(start, exercises, distinct_exercises, top)`; these are at most the
    /// first and the last period, which the range cuts.
    static let countedTotals = """
            counted_names(start, name_key, name, exercises) AS (
                SELECT p.start, e.name_key, min(e.name), count(*)
                FROM periods AS p JOIN exercise_days AS d ON d.day BETWEEN p.first AND p.last JOIN exercises AS e ON e.day_pk = d.pk
                WHERE NOT p.tallied GROUP BY p.start, e.name_key),
            \(totals(of: "counted_names", period: "start", start: "start", where: "1", named: "counted"))
            """

    /// The first day of the period that the day in the text column `day` falls in.
    private static func periodStart(_ period: ReportPeriod, of day: String) -> String {
        switch period {
        case .day: day
        case .week: ExerciseTallies.weekStart(of: day)
        case .month: "date(\(day), 'start of month')"
        case .year: "date(\(day), 'start of year')"
        }
    }

    /// Activity per period counted from the exercise rows alone, keys computed from the names: one
    /// pass over the rows in the range, grouped by period and name, the top name by a window, and
    /// every period of the calendar.
    private static func countedHistory(_ period: ReportPeriod) -> String {
        """
        WITH RECURSIVE
        \(historyBounds),
        \(periodStarts(period)),
        names(start, name_key, name, done) AS (
            SELECT \(periodStart(period, of: "d.day")), \(key(tallied: false)), min(e.name), count(*)
            FROM bounds AS b, exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
            WHERE d.day BETWEEN b.first AND b.last GROUP BY 1, 2),
        ranked(start, name, rank, exercises, distinct_exercises) AS (
            SELECT start, name, row_number() OVER (PARTITION BY start ORDER BY done DESC, name_key),
                   sum(done) OVER (PARTITION BY start), count(*) OVER (PARTITION BY start)
            FROM names),
        active(start, days) AS (
            SELECT \(periodStart(period, of: "d.day")), count(*)
            FROM bounds AS b, exercise_days AS d
            WHERE d.day BETWEEN b.first AND b.last AND EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk)
            GROUP BY 1)
        -- One sort of the three row sets by period instead of joins, which would scan the window's
        -- rows once per period.
        SELECT \(periodLabel(period, of: "start")), sum(days), sum(exercises), sum(distinct_exercises), max(top)
        FROM (SELECT start, 0 AS days, 0 AS exercises, 0 AS distinct_exercises, NULL AS top FROM calendar
              UNION ALL SELECT start, 0, exercises, distinct_exercises, name FROM ranked WHERE rank = 1
              UNION ALL SELECT start, days, 0, 0, NULL FROM active)
        GROUP BY start ORDER BY start
        """
    }

    /// The range of a history report: `--from`/`--to`, else the first and last recorded day.
    static let historyBounds = """
        bounds(first, last) AS (
            SELECT coalesce(?1, (SELECT min(day) FROM exercise_days)), coalesce(?2, (SELECT max(day) FROM exercise_days)))
        """

    /// Activity per day, one row of `exercise_day_totals` (migration 0005) per recorded day.
    private static var dailyHistory: String {
        """
        WITH RECURSIVE
        \(historyBounds),
        \(periodStarts(.day))
        SELECT c.start, t.day IS NOT NULL, coalesce(t.exercises, 0), coalesce(t.distinct_exercises, 0), t.top_exercise
        FROM calendar AS c LEFT JOIN exercise_day_totals AS t ON t.day = c.start
        ORDER BY c.start
        """
    }

    /// Activity per period. Tallied: days come from the day totals; weeks, months and years wholly
    /// inside the range from the tallies, and a first or last one that the range cuts is counted
    /// from the exercise rows of its days in the range. Not tallied: ``countedHistory(_:)``. Every
    /// period of the calendar is listed; a day is active when it has an exercise.
    static func history(_ period: ReportPeriod, tallied: Bool) -> String {
        guard tallied else { return countedHistory(period) }
        if period == .day { return dailyHistory }
        return """
        WITH RECURSIVE
        \(historyBounds),
        \(periodStarts(period)),
        periods(start, label, first, last, tallied) AS (
            SELECT start, \(periodLabel(period, of: "start")), max(start, bounds.first), min(end, bounds.last),
                   start >= bounds.first AND end <= bounds.last
            FROM (SELECT start, \(periodEnd(period, of: "start")) AS end FROM calendar), bounds),
        \(talliedTotals(period)),
        \(countedTotals),
        totals(start, exercises, distinct_exercises, top) AS (SELECT * FROM tallied UNION ALL SELECT * FROM counted)
        SELECT p.label, (SELECT count(*) FROM exercise_day_totals AS t WHERE t.day BETWEEN p.first AND p.last),
               coalesce(t.exercises, 0), coalesce(t.distinct_exercises, 0), t.top
        FROM periods AS p LEFT JOIN totals AS t ON t.start = p.start
        ORDER BY p.start
        """
    }

    /// Totals per exercise. Tallied: whole months inside the range from the month tallies, the days
    /// of the months that the range cuts from the exercise rows. Not tallied: all from the rows.
    static func exercises(tallied: Bool) -> String {
        """
        WITH bounds(first, last) AS (SELECT coalesce(?1, '0000-01-01'), coalesce(?2, '9999-12-31')),
        whole_months(first, last) AS (
            SELECT CASE WHEN substr(first, 9) = '01' THEN substr(first, 1, 7)
                        ELSE substr(date(first, 'start of month', '+1 month'), 1, 7) END,
                   CASE WHEN last = date(last, 'start of month', '+1 month', '-1 day') THEN substr(last, 1, 7)
                        ELSE substr(date(last, 'start of month', '-1 month'), 1, 7) END
            FROM bounds),
        names(name_key, name, done, days, first_day, last_day) AS (
            SELECT m.name_key, m.name, m.exercises, m.days, m.first_day, m.last_day
            FROM exercise_months AS m, whole_months AS w WHERE \(tallied ? "m.month BETWEEN w.first AND w.last" : "0")
            UNION ALL
            SELECT \(key(tallied: tallied)), min(e.name), count(*), count(DISTINCT d.pk), min(d.day), max(d.day)
            FROM bounds AS b, whole_months AS w, exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
            WHERE d.day BETWEEN b.first AND b.last
              AND \(tallied ? "NOT (d.day BETWEEN w.first || '-01' AND w.last || '-31')" : "1")
            GROUP BY 1)
        SELECT min(name), sum(done), sum(days), min(first_day), max(last_day)
        FROM names GROUP BY name_key
        ORDER BY sum(done) DESC, name_key
        """
    }

    /// `?3` is the as-of day. Runs of consecutive days are "islands": consecutive days share
    /// `julianday(day) - row_number()`.
    static let streaks = """
        WITH active(day, island) AS (
            SELECT day, julianday(day) - row_number() OVER (ORDER BY day) FROM exercise_days
            WHERE day <= ?3 AND (?1 IS NULL OR day >= ?1) AND (?2 IS NULL OR day <= ?2)),
        runs(first, last, length) AS (SELECT min(day), max(day), count(*) FROM active GROUP BY island),
        longest(first, last, length) AS (SELECT first, last, length FROM runs ORDER BY length DESC, first DESC LIMIT 1)
        SELECT
            coalesce((SELECT length FROM runs WHERE last IN (?3, date(?3, '-1 day')) ORDER BY last DESC LIMIT 1), 0),
            coalesce((SELECT length FROM longest), 0),
            (SELECT first FROM longest),
            (SELECT last FROM longest)
        """

    /// `?1`/`?2` are the creation-time bounds (seconds since 2001) or NULL.
    static let drafts = """
        SELECT d.id, d.version, d.submitted_at IS NOT NULL, d.submitted_at,
               (SELECT count(*) FROM checklist_items AS c WHERE c.draft_pk = d.pk AND c.is_done = 1),
               (SELECT count(*) FROM checklist_items AS c WHERE c.draft_pk = d.pk)
        FROM drafts AS d
        WHERE (?1 IS NULL OR d.created_at >= ?1) AND (?2 IS NULL OR d.created_at < ?2)
        ORDER BY d.pk
        """
}
