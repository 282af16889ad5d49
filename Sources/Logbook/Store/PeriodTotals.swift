import SQLiteQuery

/// `exercise_period_totals` (migration 0011): each week, month and year as a whole (active days,
/// exercises, different names, the top one), recomputed from the tally table of the period and
/// the day totals whenever ``ExerciseTallies`` changes them, so that a history report reads one
/// row per period it prints.
enum PeriodTotals {
    /// Recomputes the totals of each period of `periods`, in order.
    static func refresh(_ periods: Set<PeriodStart>, in connection: Connection) throws {
        for period in periods.sorted(by: { ($0.period.rawValue, $0.start) < ($1.period.rawValue, $1.start) }) {
            try refresh(period.period, startingOn: period.start, in: connection)
        }
    }

    /// Recomputes the totals of the `period` that starts on `start` from its tally rows and the
    /// day totals; removes them when the period has no exercise left.
    static func refresh(_ period: ReportPeriod, startingOn start: CalendarDay, in connection: Connection) throws {
        let remove = try connection.cachedStatement("DELETE FROM exercise_period_totals WHERE period = ? AND start = ?")
        try remove.bind(period.rawValue, at: 1)
        try remove.bind(start, at: 2)
        try remove.execute()
        let insert = try connection.cachedStatement("""
            INSERT INTO exercise_period_totals (period, start, active_days, exercises, distinct_exercises, top_exercise)
            \(totals(period, names: """
                (SELECT ?1 AS start, name_key, name, exercises FROM \(period.tallyTable)
                 WHERE \(period.tallyColumn) = \(period.tallyKey(ofStart: "?1")))
                """, days: "(SELECT day FROM exercise_day_totals WHERE day BETWEEN ?1 AND ?2)"))
            """)
        try insert.bind(start, at: 1)
        try insert.bind(period.end(ofPeriodStartingOn: start), at: 2)
        try insert.execute()
    }

    /// Rows of `exercise_period_totals` for the `period` from `names`, a relation of counts per
    /// period and name (`start`, `name_key`, `name`, `exercises`; one row per period and name key),
    /// and `days`, a relation of the active days (`day`). The top exercise is the most done, the
    /// smallest name key among equals (UTF-8 byte order), shown in its smallest spelling.
    static func totals(_ period: ReportPeriod, names: String, days: String) -> String {
        """
        SELECT '\(period.rawValue)' AS period, n.start AS start, a.days AS active_days, n.exercises AS exercises,
               n.distinct_exercises AS distinct_exercises, n.name AS top_exercise
        FROM (SELECT start, name, row_number() OVER (PARTITION BY start ORDER BY exercises DESC, name_key) AS rank,
                     sum(exercises) OVER (PARTITION BY start) AS exercises, count(*) OVER (PARTITION BY start) AS distinct_exercises
              FROM \(names)) AS n
        JOIN (SELECT \(period.startSQL(of: "day")) AS start, count(*) AS days FROM \(days) GROUP BY 1) AS a ON a.start = n.start
        WHERE n.rank = 1
        """
    }
}

/// A week, month or year, by its first day.
struct PeriodStart: Hashable {
    let period: ReportPeriod
    let start: CalendarDay
}
