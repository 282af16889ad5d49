/// The SQL of each report.
///
/// The history and exercise reports come in two forms: `tallied`, reading the day totals, the
/// period totals and the week, month and year tallies (fast), and counted from the exercise rows
/// with keys computed from the names (exact whatever wrote the file), for when
/// ``ExerciseTallies/areCurrent(in:)`` finds the derived data behind the rows (another program
/// wrote them, and Logbook has not recounted).
enum ReportSQL {
    /// The comparison key of the exercise row `e`: the stored key, or computed from the name when
    /// the stored keys may be another program's.
    private static func key(tallied: Bool) -> String { tallied ? "e.name_key" : "swift_key(e.name)" }

    /// The range of a history report: `?1` (from) and `?2` (to), each else the first or the last
    /// recorded day.
    static let historyBounds = """
        SELECT coalesce(?1, (SELECT min(day) FROM exercise_days)), coalesce(?2, (SELECT max(day) FROM exercise_days))
        """

    /// A row when a day record lies between `?1` and `?2` (an index seek).
    static let recordedDayBetween = "SELECT 1 FROM exercise_days WHERE day BETWEEN ?1 AND ?2 LIMIT 1"

    /// The periods with an exercise among the days from `?1` to `?2`, counted from the exercise
    /// rows: `start, active_days, exercises, distinct_exercises, top` in order of `start`, the
    /// period's first day (which may lie before `?1`).
    static func countedHistory(_ period: ReportPeriod, tallied: Bool) -> String {
        let totals = PeriodTotals.totals(period, names: """
            (SELECT \(period.startSQL(of: "d.day")) AS start, \(key(tallied: tallied)) AS name_key, min(e.name) AS name,
                    count(*) AS exercises
             FROM exercise_days AS d CROSS JOIN exercises AS e ON e.day_pk = d.pk WHERE d.day BETWEEN ?1 AND ?2 GROUP BY 1, 2)
            """, days: """
            (SELECT day FROM exercise_days AS d
             WHERE d.day BETWEEN ?1 AND ?2 AND EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk))
            """)
        return "SELECT start, active_days, exercises, distinct_exercises, top_exercise FROM (\(totals)) ORDER BY start"
    }

    /// The first recorded day with an exercise from `?1` to `?2` whose text is no calendar day
    /// (another program's, which SQLite's `CHECK` lets through: `2026-02-30`, `2026-03-00`): a
    /// report counted from the rows would put it in a period SQL makes up for it (`date()` rolls
    /// `2026-02-30` over to March 2nd, `substr` puts it in February) or in none. Not
    /// `boundedBelow`, with no lower bound (`?1` unused), and not `boundedAbove`, no upper bound
    /// (`?2` unused): a range that reaches the calendar's first or last day holds every text before
    /// or after it too (`0000-01-01`, `9999-12-32`), which a report over the whole calendar would
    /// otherwise leave out.
    static func firstDayThatIsNoCalendarDay(boundedBelow: Bool, boundedAbove: Bool) -> String {
        let bounds = [boundedBelow ? "d.day >= ?1" : nil, boundedAbove ? "d.day <= ?2" : nil].compactMap { $0 }
        return """
            SELECT day FROM exercise_days AS d
            WHERE \((bounds + ["NOT (\(StoredValueAudit.isCalendarDay("d.day")))"]).joined(separator: " AND "))
              AND EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk)
            LIMIT 1
            """
    }

    /// The first exercise row of the days from `?1` to `?2` whose name Logbook cannot read (not
    /// TEXT, or not UTF-8: another program's): its day, its position and its first 16 bytes as
    /// SQL shows them.
    static let firstUnreadableName = """
        SELECT d.day, e.position, quote(substr(CAST(e.name AS BLOB), 1, 16))
        FROM exercise_days AS d CROSS JOIN exercises AS e ON e.day_pk = d.pk
        WHERE d.day BETWEEN ?1 AND ?2 AND NOT \(StoredValueAudit.isUTF8Text("e.name"))
        LIMIT 1
        """

    /// The totals of the periods that start from `?1` on, in order, read from the day totals (days)
    /// or the period totals: the columns of ``countedHistory(_:tallied:)``. No upper bound: the
    /// reader stops after its last period (``CalendarDay/read(from:at:notAfter:)``).
    static func talliedHistory(_ period: ReportPeriod) -> String {
        if period == .day {
            return """
                SELECT day, 1, exercises, distinct_exercises, top_exercise FROM exercise_day_totals
                WHERE day >= ?1 ORDER BY day
                """
        }
        return """
            SELECT start, active_days, exercises, distinct_exercises, top_exercise FROM exercise_period_totals
            WHERE period = '\(period.rawValue)' AND start >= ?1 ORDER BY start
            """
    }

    /// Totals per exercise: the whole years `?9` to `?10` from the year tallies, the whole months
    /// `?5` to `?6` and `?7` to `?8` from the month tallies, the days `?1` to `?2` and `?3` to `?4`
    /// from the exercise rows (each pair a range of days, both NULL for none). Each part is added
    /// up per name before the parts are. The year tallies are read whole through their index by
    /// name (migration 0015; `+year` keeps SQLite from choosing the primary key's year range,
    /// which sorts its rows by name), so that they stream name by name: a year tally is one per
    /// name and year, 110,000 rows over 5,500 years of 20 names, and a range of a few years
    /// reads them all in a few milliseconds more where the whole history saves the sort; a range
    /// that holds no whole year reads none (`?9 IS NOT NULL`, tested once before the scan). The
    /// months and the days left are at most 22 months and 60 days, read through their ranges (the
    /// days first, `CROSS JOIN`: without statistics SQLite read every exercise row through the
    /// name index instead, 1.5 s on a million exercises). The
    /// days of those months and years that wait to be tallied (``TalliedThrough``) are counted
    /// from their rows, found by row key (`CROSS JOIN` and `+d.day` keep SQLite from reading
    /// every day of those months and years through the day index, or every name through the
    /// exercises' name index, instead).
    static func exercises(tallied: Bool) -> String {
        """
        WITH names(name_key, name, done, days, first_day, last_day) AS (
            SELECT name_key, min(name), sum(exercises), sum(days), min(first_day), max(last_day) FROM exercise_years
            WHERE ?9 IS NOT NULL AND +year BETWEEN substr(?9, 1, 4) AND substr(?10, 1, 4)
            GROUP BY name_key
            UNION ALL
            SELECT name_key, min(name), sum(exercises), sum(days), min(first_day), max(last_day) FROM exercise_months
            WHERE month BETWEEN substr(?5, 1, 7) AND substr(?6, 1, 7) OR month BETWEEN substr(?7, 1, 7) AND substr(?8, 1, 7)
            GROUP BY name_key
            UNION ALL
            SELECT \(key(tallied: tallied)), min(e.name), count(*), count(DISTINCT d.pk), min(d.day), max(d.day)
            FROM exercise_days AS d CROSS JOIN exercises AS e ON e.day_pk = d.pk
            WHERE d.day BETWEEN ?1 AND ?2 OR d.day BETWEEN ?3 AND ?4
            GROUP BY 1
            UNION ALL
            SELECT e.name_key, min(e.name), count(*), count(DISTINCT d.pk), min(d.day), max(d.day)
            FROM exercise_days AS d CROSS JOIN exercises AS e ON e.day_pk = d.pk
            WHERE d.pk > \(TalliedThrough.sql)
              AND (+d.day BETWEEN ?5 AND ?6 OR +d.day BETWEEN ?7 AND ?8 OR +d.day BETWEEN ?9 AND ?10)
            GROUP BY 1)
        SELECT min(name), sum(done), sum(days), min(first_day), max(last_day)
        FROM names GROUP BY name_key
        ORDER BY sum(done) DESC, name_key
        """
    }

    /// The recorded days from `?1` to `?2` that wait to be tallied (``TalliedThrough``), found by
    /// row key (`+day` keeps SQLite from reading the range's days through the day index instead:
    /// 0.02 s of every report over 200,000 days when none waits).
    static let waitingDays = "SELECT day FROM exercise_days WHERE pk > \(TalliedThrough.sql) AND +day BETWEEN ?1 AND ?2"

    /// The recorded days from `?1` to `?2` with a row in the day totals that wait to be tallied
    /// (``TalliedThrough``), found by row key as ``waitingDays`` finds them: ``MonthDays`` sets
    /// their bits once the tallies count them.
    static let waitingDaysWithTotals = """
        SELECT d.day FROM exercise_days AS d CROSS JOIN exercise_day_totals AS t ON t.day = d.day
        WHERE d.pk > \(TalliedThrough.sql) AND +d.day BETWEEN ?1 AND ?2
        """

    /// The months from the one starting `?1` to the one holding `?2` with a tallied day with an
    /// exercise: their first day and the bits of those days (``MonthDays``), in order.
    static let monthDays = "SELECT start, days FROM exercise_month_days WHERE start BETWEEN ?1 AND ?2 ORDER BY start"

    /// The recorded days with an exercise whose text is from `?1` to `?2`, in order: a range of
    /// the day index (a day record another program emptied of exercises is no active day, as the
    /// history report counts it).
    static let streakDays = """
        SELECT day FROM exercise_days AS d WHERE day BETWEEN ?1 AND ?2 AND EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk)
        ORDER BY day
        """

    /// `?1`/`?2` are the creation-time bounds (seconds since 2001) or NULL.
    static let drafts = """
        SELECT d.id, d.version, d.submitted_at IS NOT NULL, d.submitted_at,
               (SELECT count(*) FROM checklist_items AS c WHERE c.draft_pk = d.pk AND c.is_done = 1),
               (SELECT count(*) FROM checklist_items AS c WHERE c.draft_pk = d.pk), d.created_at
        FROM drafts AS d
        WHERE (?1 IS NULL OR d.created_at >= ?1) AND (?2 IS NULL OR d.created_at < ?2)
        ORDER BY d.pk
        """
}
