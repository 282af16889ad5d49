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

    /// Recomputes the totals of each month and year of `newDays`, which gained that many days with
    /// an exercise in this transaction (days that did not exist before it, counted in memory by
    /// ``ExerciseTallies``): names from the tallies, active days the ones the totals held before
    /// plus the new ones, which reads one row per period instead of every day of it.
    ///
    /// That sum is exact while the derived data accounts for every exercise row (a day another
    /// program inserted is the exception: ``ExerciseTallies/areCurrent(in:)`` then says so, reports
    /// count the rows, and `repair` recounts). A counted day that had exercises before (a record
    /// replaced or moved) is marked stale by the triggers, and its periods are recounted from the
    /// rows when the transaction's tallies are applied, after this.
    static func refresh(adding newDays: [PeriodStart: Int], in connection: Connection) throws {
        for (period, added) in newDays.sorted(by: { ($0.key.period.rawValue, $0.key.start) < ($1.key.period.rawValue, $1.key.start) }) {
            let end = period.period.end(ofPeriodStartingOn: period.start)
            let names = try talliedNames(period.period, from: period.start, to: end, in: connection)
            let activeDays = try storedActiveDays(period.period, startingOn: period.start, in: connection) + added
            try write(period.period, startingOn: period.start, names: names, activeDays: activeDays, in: connection)
        }
    }

    /// Recomputes the totals of the week that starts on `start`, whose new days this transaction
    /// `counted` in memory: from those counts when the week had no totals before (the bulk
    /// import's case, which then reads no exercise row back; exact on the terms of
    /// ``refresh(adding:in:)``), else from its rows.
    static func refresh(weekStartingOn start: CalendarDay, counted: ExerciseTallies.WeekTally, in connection: Connection) throws {
        guard try storedActiveDays(.week, startingOn: start, in: connection) == 0 else {
            return try refresh(.week, startingOn: start, in: connection)
        }
        try write(.week, startingOn: start, names: counted.names, activeDays: counted.days, in: connection)
    }

    /// The active days the stored totals of the `period` that starts on `start` count; 0 when it has none.
    private static func storedActiveDays(_ period: ReportPeriod, startingOn start: CalendarDay, in connection: Connection) throws -> Int {
        let statement = try connection.cachedStatement("SELECT active_days FROM exercise_period_totals WHERE period = ? AND start = ?")
        defer { statement.reset() }
        try statement.bind(period.rawValue, at: 1)
        try statement.bind(start, at: 2)
        return try statement.step() ? try statement.column(0) : 0
    }

    /// Recomputes the totals of the `period` that starts on `start` from its names and its days
    /// with an exercise row (from the rows themselves, as the tallies are: a day another program
    /// inserted has no day totals yet).
    private static func refresh(_ period: ReportPeriod, startingOn start: CalendarDay, in connection: Connection) throws {
        let end = period.end(ofPeriodStartingOn: start)
        let (names, activeDays) = period == .week
            ? try weekNamesAndActiveDays(from: start, to: end, in: connection)
            : (try talliedNames(period, from: start, to: end, in: connection), try activeDaysCount(from: start, to: end, in: connection))
        try write(period, startingOn: start, names: names, activeDays: activeDays, in: connection)
    }

    /// Writes the totals of the `period` that starts on `start`, done `names` on `activeDays` days;
    /// removes them when the period has no exercise left. The top exercise is
    /// ``ExerciseTallies/mostDone(_:)``, as in the day totals and in ``totals(_:names:days:)``.
    private static func write(_ period: ReportPeriod, startingOn start: CalendarDay, names: [ExerciseTallies.DistinctName],
                              activeDays: Int, in connection: Connection) throws {
        guard let top = ExerciseTallies.mostDone(names) else {
            try connection.run("DELETE FROM exercise_period_totals WHERE period = ? AND start = ?",
                               [.text(period.rawValue), start.databaseValue])
            return
        }
        let insert = try connection.cachedStatement("""
            INSERT OR REPLACE INTO exercise_period_totals (period, start, active_days, exercises, distinct_exercises, top_exercise)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        try insert.bind(period.rawValue, at: 1)
        try insert.bind(start, at: 2)
        try insert.bind(activeDays, at: 3)
        try insert.bind(names.reduce(0) { $0 + $1.count }, at: 4)
        try insert.bind(names.count, at: 5)
        try insert.bind(top.name, at: 6)
        try insert.execute()
    }

    /// Each name key done in the week from `start` to `end`, its smallest spelling and how often it
    /// was done, and the days with an exercise row among them: read from the exercise rows of those
    /// days (at most seven, through the day index), in one statement, where a month or year has tallies.
    private static func weekNamesAndActiveDays(from start: CalendarDay, to end: CalendarDay,
                                               in connection: Connection) throws -> ([ExerciseTallies.DistinctName], Int) {
        let rows = try connection.cachedStatement("""
            SELECT e.day_pk, e.name_key, e.name FROM exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
            WHERE d.day BETWEEN ?1 AND ?2
            """)
        defer { rows.reset() }
        try rows.bind(start, at: 1)
        try rows.bind(end, at: 2)
        var names: [ExerciseTallies.DistinctName] = []
        var days = Set<Int64>()
        while try rows.step() {
            days.insert(try rows.column(0))
            ExerciseTallies.add((try rows.column(1), try rows.column(2), 1), to: &names)
        }
        return (names, days.count)
    }

    /// The month's or year's tally rows from `start` to `end`, read by their primary key.
    private static func talliedNames(_ period: ReportPeriod, from start: CalendarDay, to end: CalendarDay,
                                     in connection: Connection) throws -> [ExerciseTallies.DistinctName] {
        let tallies = try connection.cachedStatement("""
            SELECT name_key, name, exercises FROM \(period.tallyTable)
            WHERE \(period.tallyColumn) BETWEEN \(period.tallyKey(ofStart: "?1")) AND \(period.tallyKey(ofStart: "?2"))
            """)
        defer { tallies.reset() }
        try tallies.bind(start, at: 1)
        try tallies.bind(end, at: 2)
        var names: [ExerciseTallies.DistinctName] = []
        while try tallies.step() { names.append((try tallies.column(0), try tallies.column(1), try tallies.column(2))) }
        return names
    }

    /// The days from `start` to `end` with an exercise row.
    private static func activeDaysCount(from start: CalendarDay, to end: CalendarDay, in connection: Connection) throws -> Int {
        try connection.scalar("""
            SELECT count(*) FROM exercise_days AS d
            WHERE d.day BETWEEN ? AND ? AND EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk)
            """, [start.databaseValue, end.databaseValue], as: Int.self) ?? 0
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

    func hash(into hasher: inout Hasher) {
        // One word instead of four: a bulk import looks up a month's and a year's for every day.
        let kind = switch period {
        case .day: 0
        case .week: 1
        case .month: 2
        case .year: 3
        }
        hasher.combine(start.year << 12 | start.month << 8 | start.day << 3 | kind)
    }
}
