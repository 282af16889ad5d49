/// The SQL of each report. Parameters: `?1` first day or NULL, `?2` last day or NULL, then any
/// report-specific ones.
enum ReportSQL {
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
        case .week: ("date(first, '-' || ((CAST(strftime('%w', first) AS INTEGER) + 6) % 7) || ' days')", "'+7 days'")
        case .month: ("date(first, 'start of month')", "'+1 month'")
        case .year: ("date(first, 'start of year')", "'+1 year'")
        }
        return """
            calendar(day) AS (
                SELECT \(start) FROM bounds WHERE first IS NOT NULL AND last IS NOT NULL AND first <= last
                UNION ALL
                SELECT date(day, \(step)) FROM calendar, bounds WHERE date(day, \(step)) <= last)
            """
    }

    /// Totals per period, aggregated per day first (one period label per day, not per exercise),
    /// then per (period, exercise) for the top exercise; every period of the calendar is listed.
    static func history(_ period: ReportPeriod) -> String {
        """
        WITH RECURSIVE
        bounds(first, last) AS (
            SELECT coalesce(?1, (SELECT min(day) FROM exercise_days)), coalesce(?2, (SELECT max(day) FROM exercise_days))),
        \(periodStarts(period)),
        periods(period) AS (SELECT \(periodLabel(period, of: "day")) FROM calendar),
        days(pk, period) AS (
            SELECT d.pk, \(periodLabel(period, of: "d.day"))
            FROM exercise_days AS d, bounds WHERE d.day BETWEEN bounds.first AND bounds.last),
        names(period, name_key, name, done) AS (
            SELECT days.period, e.name_key, min(e.name), count(*)
            FROM days JOIN exercises AS e ON e.day_pk = days.pk GROUP BY days.period, e.name_key),
        totals(period, exercises, distinct_exercises) AS (
            SELECT period, sum(done), count(*) FROM names GROUP BY period),
        ranked(period, name, rank) AS (
            SELECT period, name, row_number() OVER (PARTITION BY period ORDER BY done DESC, name_key) FROM names),
        active(period, active_days) AS (SELECT period, count(*) FROM days GROUP BY period)
        SELECT periods.period, coalesce(active.active_days, 0), coalesce(totals.exercises, 0),
               coalesce(totals.distinct_exercises, 0), ranked.name
        FROM periods
        LEFT JOIN active ON active.period = periods.period
        LEFT JOIN totals ON totals.period = periods.period
        LEFT JOIN ranked ON ranked.period = periods.period AND ranked.rank = 1
        ORDER BY periods.period
        """
    }

    static let exercises = """
        SELECT min(e.name), count(*), count(DISTINCT d.pk), min(d.day), max(d.day)
        FROM exercises AS e JOIN exercise_days AS d ON d.pk = e.day_pk
        WHERE (?1 IS NULL OR d.day >= ?1) AND (?2 IS NULL OR d.day <= ?2)
        GROUP BY e.name_key
        ORDER BY count(*) DESC, e.name_key
        """

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
