import SQLiteQuery

/// `exercise_period_totals` (migration 0011): each week, month and year as a whole (active days,
/// exercises, different names, the top one), recomputed from the month's or year's tallies (a
/// week's from its exercise rows) and its days whenever ``ExerciseTallies`` changes them, so that
/// a history report reads one row per period it prints.
enum PeriodTotals {
    /// Recomputes the totals of each period of `periods`, in order.
    static func refresh(_ periods: Set<PeriodStart>, in connection: Connection) throws {
        for period in periods.sorted(by: { ($0.period.rawValue, $0.start) < ($1.period.rawValue, $1.start) }) {
            try refresh(period.period, startingOn: period.start, in: connection)
        }
    }

    /// Recomputes the totals of the `period` that starts on `start` from its names and its days
    /// with an exercise row (from the rows themselves, as the tallies are: a day another program
    /// inserted has no day totals yet); removes them when the period has no exercise left. The top
    /// exercise is ``ExerciseTallies/mostDone(_:)``, as in the day totals and in ``totals(_:names:days:)``.
    private static func refresh(_ period: ReportPeriod, startingOn start: CalendarDay, in connection: Connection) throws {
        let tallies = try connection.cachedStatement(namesDone(in: period))
        defer { tallies.reset() }
        try tallies.bind(start, at: 1)
        try tallies.bind(period.end(ofPeriodStartingOn: start), at: 2)
        var names: [ExerciseTallies.DistinctName] = []
        while try tallies.step() { names.append((try tallies.column(0), try tallies.column(1), try tallies.column(2))) }
        tallies.reset()
        guard let top = ExerciseTallies.mostDone(names) else {
            try connection.run("DELETE FROM exercise_period_totals WHERE period = ? AND start = ?",
                               [.text(period.rawValue), start.databaseValue])
            return
        }
        let insert = try connection.cachedStatement("""
            INSERT OR REPLACE INTO exercise_period_totals (period, start, active_days, exercises, distinct_exercises, top_exercise)
            VALUES (?1, ?2, (SELECT count(*) FROM exercise_days AS d
                             WHERE d.day BETWEEN ?2 AND ?3 AND EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk)),
                    ?4, ?5, ?6)
            """)
        try insert.bind(period.rawValue, at: 1)
        try insert.bind(start, at: 2)
        try insert.bind(period.end(ofPeriodStartingOn: start), at: 3)
        try insert.bind(names.reduce(0) { $0 + $1.count }, at: 4)
        try insert.bind(names.count, at: 5)
        try insert.bind(top.name, at: 6)
        try insert.execute()
    }

    /// Each name key done in the `period` from `?1` to `?2` (its first and last day), its smallest
    /// spelling and how often it was done: a month's or year's few tally rows, read by their primary
    /// key, or a week's exercise rows (at most seven days' worth, through the day index) grouped.
    private static func namesDone(in period: ReportPeriod) -> String {
        guard period != .week else {
            return """
                SELECT e.name_key, min(e.name), count(*) FROM exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
                WHERE d.day BETWEEN ?1 AND ?2 GROUP BY e.name_key
                """
        }
        return """
            SELECT name_key, name, exercises FROM \(period.tallyTable)
            WHERE \(period.tallyColumn) BETWEEN \(period.tallyKey(ofStart: "?1")) AND \(period.tallyKey(ofStart: "?2"))
            """
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
