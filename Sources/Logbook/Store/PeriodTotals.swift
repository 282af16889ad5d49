import SQLiteQuery

/// `exercise_period_totals` (migration 0011): each week, month and year as a whole (active days,
/// exercises, different names, the top one), recomputed from the month's or year's tallies (a
/// week's from its exercise rows) and its days whenever ``ExerciseTallies`` changes them, so that
/// a history report reads one row per period it prints.
enum PeriodTotals {
    /// Recomputes the totals of each period of `periods`, in order.
    static func refresh(_ periods: Set<PeriodStart>, in connection: Connection) throws {
        for period in periods.sorted() {
            try refresh(period, in: connection)
        }
    }

    /// The active days that the stored totals of each of `periods` count, for those that have
    /// totals, read a batch of periods per statement.
    static func storedActiveDays(of periods: [PeriodStart], in connection: Connection) throws -> [PeriodStart: Int] {
        var result: [PeriodStart: Int] = [:]
        for kind in ReportPeriod.totalled {
            let ofKind = periods.filter { $0.period == kind }
            // (The last start is worth reading only where it may spare a statement.)
            let candidates = ofKind.count > RowBatch.rowsPerStatement ? try possiblyStored(ofKind, of: kind, in: connection) : ofKind
            try storedTotalsLookup(kind).run(candidates, in: connection) { period, statement, parameter in
                try statement.bind(period.start, at: parameter)
            } use: { statement in
                while try statement.step() {
                    result[PeriodStart(period: kind, start: try statement.column(0))] = try statement.column(1)
                }
            }
        }
        return result
    }

    /// Of `periods` (all of `kind`), those that may have stored totals: none that starts after the
    /// last start stored, in SQLite's text order (as `start IN (…)` compares), so that a bulk
    /// import in order, whose periods come after every stored one, looks none of them up (the
    /// look-ups cost an import of 200,000 days 210 million instructions).
    private static func possiblyStored(_ periods: [PeriodStart], of kind: ReportPeriod, in connection: Connection) throws -> [PeriodStart] {
        switch try connection.scalar(lastStartSQL, [.text(kind.rawValue)], as: DatabaseValue.self) ?? .null {
        case .null: return []
        case .text(let last): return periods.filter { !last.precedesInUTF8($0.start.description) }
        case .integer, .real, .blob: return periods
        }
    }

    private static let lastStartSQL = "SELECT max(start) FROM exercise_period_totals WHERE period = ?"

    private static func storedTotalsLookup(_ period: ReportPeriod) -> RowBatch {
        switch period {
        case .week: weekTotalsLookup
        case .month: monthTotalsLookup
        case .year: yearTotalsLookup
        case .day: preconditionFailure("days have their totals in exercise_day_totals")
        }
    }

    private static let weekTotalsLookup = totalsLookup(.week)
    private static let monthTotalsLookup = totalsLookup(.month)
    private static let yearTotalsLookup = totalsLookup(.year)

    private static func totalsLookup(_ period: ReportPeriod) -> RowBatch {
        RowBatch("SELECT start, active_days FROM exercise_period_totals WHERE period = '\(period.rawValue)' AND start IN (",
                 row: "?", parametersPerRow: 1, ")")
    }

    /// Recomputes the totals of a month or year that had totals counting `stored` active days and
    /// gained `added` days with an exercise in this transaction (days that did not exist before it,
    /// or waited for it to be tallied, counted in memory by ``ExerciseTallies``): names from the
    /// tallies, active days the sum, which reads the period's tally rows instead of every day of it.
    ///
    /// That sum is exact while the derived data accounts for every exercise row (a day another
    /// program inserted is the exception: ``ExerciseTallies/areCurrent(in:)`` then says so, reports
    /// count the rows, and `repair` recounts). A counted day that had exercises before (a record
    /// replaced or moved) is marked stale by the triggers, and its periods are recounted from the
    /// rows when the transaction's tallies are applied, after this. The same terms make the totals
    /// of a period without stored totals exactly what ``ExerciseTallies`` counted in memory.
    static func refresh(_ period: PeriodStart, adding added: Int, to stored: Int, in connection: Connection) throws {
        let end = period.period.end(ofPeriodStartingOn: period.start)
        let names = try talliedNames(period.period, from: period.start, to: end, in: connection)
        try write(period, names: names, activeDays: stored + added, in: connection)
    }

    /// A row of `exercise_period_totals`.
    struct Row {
        let period: PeriodStart
        let activeDays: Int
        let exercises: Int
        let distinctExercises: Int
        let topExercise: String

        /// The totals of `period`, done `names` on `activeDays` days; nil when no name was done.
        /// The top exercise is ``ExerciseTallies/mostDone(_:)``, as in the day totals and in
        /// ``PeriodTotals/totals(_:names:days:)``.
        init?(_ period: PeriodStart, names: [ExerciseTallies.DistinctName], activeDays: Int) {
            guard let top = ExerciseTallies.mostDone(names) else { return nil }
            self.init(period: period, activeDays: activeDays, exercises: names.reduce(0) { $0 + $1.count },
                      distinctExercises: names.count, topExercise: top.name)
        }

        init(period: PeriodStart, activeDays: Int, exercises: Int, distinctExercises: Int, topExercise: String) {
            self.period = period
            self.activeDays = activeDays
            self.exercises = exercises
            self.distinctExercises = distinctExercises
            self.topExercise = topExercise
        }
    }

    private static let rowsInsert = ReplacingRowBatch(into: "exercise_period_totals",
                                                      columns: ["period", "start", "active_days", "exercises", "distinct_exercises", "top_exercise"])

    /// Writes `rows`, replacing the totals of their periods.
    static func insert(_ rows: [Row], in connection: Connection) throws {
        try rowsInsert.run(rows, in: connection) { row, statement, first in
            try statement.bind(row.period.period.rawValue, at: first)
            try statement.bind(row.period.start, at: first + 1)
            try statement.bind(row.activeDays, at: first + 2)
            try statement.bind(row.exercises, at: first + 3)
            try statement.bind(row.distinctExercises, at: first + 4)
            try statement.bind(row.topExercise, at: first + 5)
        }
    }

    /// Recomputes the totals of the `period` that starts on `start` from its names and its days
    /// with an exercise row (from the rows themselves, as the tallies are: a day another program
    /// inserted has no day totals yet), the days with a row key up to `lastDay`: all of them
    /// where the tallies count every day, ``TalliedThrough``'s mark where days wait.
    static func refresh(_ period: PeriodStart, countingDaysThrough lastDay: Int64 = .max, in connection: Connection) throws {
        let end = period.period.end(ofPeriodStartingOn: period.start)
        let (names, activeDays) = period.period == .week
            ? try weekNamesAndActiveDays(from: period.start, to: end, through: lastDay, in: connection)
            : (try talliedNames(period.period, from: period.start, to: end, in: connection),
               try activeDaysCount(from: period.start, to: end, through: lastDay, in: connection))
        try write(period, names: names, activeDays: activeDays, in: connection)
    }

    /// Writes the totals of `period`, done `names` on `activeDays` days;
    /// removes them when the period has no exercise left.
    private static func write(_ period: PeriodStart, names: [ExerciseTallies.DistinctName],
                              activeDays: Int, in connection: Connection) throws {
        guard let row = Row(period, names: names, activeDays: activeDays) else {
            try connection.run("DELETE FROM exercise_period_totals WHERE period = ? AND start = ?",
                               [.text(period.period.rawValue), period.start.databaseValue])
            return
        }
        try insert([row], in: connection)
    }

    /// Each name key done in the week from `start` to `end`, its smallest spelling and how often it
    /// was done, and the days with an exercise row among them: read from the exercise rows of those
    /// days (at most seven, through the day index), in one statement, where a month or year has tallies.
    /// A text between the week's ends that is no calendar day (another program's `2025-02-30`) is
    /// left out, as every tally leaves it (it was counted, and the week kept it after the day was
    /// deleted, the weekly report wrong with exit 0: helper-91).
    private static func weekNamesAndActiveDays(from start: CalendarDay, to end: CalendarDay, through lastDay: Int64,
                                               in connection: Connection) throws -> ([ExerciseTallies.DistinctName], Int) {
        let rows = try connection.cachedStatement(weekRowsSQL)
        defer { rows.reset() }
        try rows.bind(start, at: 1)
        try rows.bind(end, at: 2)
        try rows.bind(lastDay, at: 3)
        var names = DistinctNames()
        var days = Set<Int64>()
        while try rows.step() {
            days.insert(try rows.column(0))
            names.add((try rows.column(1), try rows.column(2), 1))
        }
        return (names.entries, days.count)
    }

    /// The statement of ``weekNamesAndActiveDays(from:to:through:in:)``, made once: a save runs
    /// it, and the calendar-day test is long text to build and hash for each lookup in the cache.
    private static let weekRowsSQL = """
        SELECT e.day_pk, e.name_key, e.name FROM exercise_days AS d CROSS JOIN exercises AS e ON e.day_pk = d.pk
        WHERE d.day BETWEEN ?1 AND ?2 AND d.pk <= ?3 AND \(StoredValueAudit.isCalendarDay("d.day"))
        """

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

    /// The days from `start` to `end`, with a row key up to `lastDay`, with an exercise row; not a
    /// text between them that is no calendar day.
    private static func activeDaysCount(from start: CalendarDay, to end: CalendarDay, through lastDay: Int64,
                                        in connection: Connection) throws -> Int {
        try connection.scalar("""
            SELECT count(*) FROM exercise_days AS d
            WHERE d.day BETWEEN ? AND ? AND d.pk <= ? AND \(StoredValueAudit.isCalendarDay("d.day"))
              AND EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk)
            """, [start.databaseValue, end.databaseValue, .integer(lastDay)], as: Int.self) ?? 0
    }

    /// Rows of `exercise_period_totals` for the `period` from `names`, a relation of counts per
    /// period and name (`start`, `name_key`, `name`, `exercises`; one row per period and name key),
    /// and `days`, a relation of the active days (`day`). The top exercise is the most done, the
    /// smallest name key among equals (UTF-8 byte order), shown in its smallest spelling.
    ///
    /// The names' totals and the active days (one row per period each) are put together by
    /// grouping the two by period, not by joining them: SQLite joined the two subqueries by
    /// reading one whole for each row of the other when it chose no automatic index (a weekly
    /// report counted from the rows of 200,000 days, and `check`, took over a minute).
    static func totals(_ period: ReportPeriod, names: String, days: String) -> String {
        """
        SELECT '\(period.rawValue)' AS period, start, max(active_days) AS active_days, max(exercises) AS exercises,
               max(distinct_exercises) AS distinct_exercises, max(top_exercise) AS top_exercise
        FROM (SELECT start, NULL AS active_days, exercises, distinct_exercises, name AS top_exercise
              FROM (SELECT start, name, row_number() OVER (PARTITION BY start ORDER BY exercises DESC, name_key) AS rank,
                           sum(exercises) OVER (PARTITION BY start) AS exercises, count(*) OVER (PARTITION BY start) AS distinct_exercises
                    FROM \(names))
              WHERE rank = 1
              UNION ALL
              SELECT \(period.startSQL(of: "day")), count(*), NULL, NULL, NULL FROM \(days) GROUP BY 1)
        GROUP BY start HAVING count(*) = 2
        """
    }
}

/// A week, month or year, by its first day; ordered by kind, then start.
struct PeriodStart: Hashable, Comparable {
    let period: ReportPeriod
    let start: CalendarDay

    static func < (left: PeriodStart, right: PeriodStart) -> Bool {
        (left.period.rawValue, left.start) < (right.period.rawValue, right.start)
    }

    func hash(into hasher: inout Hasher) {
        // One word instead of four: a bulk import looks up a period for every name it closes.
        hasher.combine(packed)
    }

    /// The period and its start in one word, below bit 32: distinct for distinct periods.
    var packed: Int {
        let kind = switch period {
        case .day: 0
        case .week: 1
        case .month: 2
        case .year: 3
        }
        return start.year << 12 | start.month << 8 | start.day << 3 | kind
    }
}
