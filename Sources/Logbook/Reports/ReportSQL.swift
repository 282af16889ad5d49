/// The SQL of each report. Parameters: `?1` first day or NULL, `?2` last day or NULL, then any
/// report-specific ones.
enum ReportSQL {
    /// The label of the period `day` falls in, as SQL over the day text column `day`.
    static func periodLabel(_ period: ReportPeriod) -> String {
        switch period {
        case .day: return "day"
        case .month: return "substr(day, 1, 7)"
        case .year: return "substr(day, 1, 4)"
        case .week:
            // ISO 8601: a week belongs to the year of its Thursday and is numbered by that
            // Thursday's day of the year.
            let thursday = "date(day, '-' || ((CAST(strftime('%w', day) AS INTEGER) + 6) % 7) || ' days', '+3 days')"
            return "strftime('%Y', \(thursday)) || '-W' || printf('%02d', (CAST(strftime('%j', \(thursday)) AS INTEGER) - 1) / 7 + 1)"
        }
    }

    static func history(_ period: ReportPeriod) -> String {
        """
        WITH RECURSIVE
        bounds(first, last) AS (
            SELECT coalesce(?1, (SELECT min(day) FROM exercise_days)), coalesce(?2, (SELECT max(day) FROM exercise_days))),
        calendar(day) AS (
            SELECT first FROM bounds WHERE first IS NOT NULL AND last IS NOT NULL AND first <= last
            UNION ALL
            SELECT date(day, '+1 day') FROM calendar, bounds WHERE day < last),
        periods(day, period) AS (SELECT day, \(periodLabel(period)) FROM calendar),
        done(day, name, name_key) AS (
            SELECT d.day, e.name, e.name_key FROM exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk, bounds
            WHERE d.day BETWEEN bounds.first AND bounds.last),
        totals(period, active_days, exercises, distinct_exercises) AS (
            SELECT p.period, count(DISTINCT done.day), count(done.name_key), count(DISTINCT done.name_key)
            FROM periods AS p LEFT JOIN done ON done.day = p.day GROUP BY p.period),
        ranked(period, name, rank) AS (
            SELECT p.period, min(done.name), row_number() OVER (PARTITION BY p.period ORDER BY count(*) DESC, done.name_key)
            FROM periods AS p JOIN done ON done.day = p.day GROUP BY p.period, done.name_key)
        SELECT totals.period, totals.active_days, totals.exercises, totals.distinct_exercises, ranked.name
        FROM totals LEFT JOIN ranked ON ranked.period = totals.period AND ranked.rank = 1
        ORDER BY totals.period
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
