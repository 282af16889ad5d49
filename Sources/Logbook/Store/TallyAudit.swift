import SQLiteQuery

/// ``ExerciseTallies/mismatches(in:)`` in one pass over the exercise rows: read once in day order,
/// the rows of the derived tables they make recounted in memory a day, week, month and year at a
/// time, each looked up by its key among the stored rows. The reference recount in SQL
/// (``ExerciseTallies/mismatchesBySQLRecount(in:)``) groups every exercise row four times over,
/// and SQLite sorts to group: 12.9 s at a million exercises where this pass takes 1.6 s.
///
/// Its counts are the SQL's when every day with an exercise row is a calendar day (then each
/// week, month and year ends for good when a later one begins, in day order) and every name and
/// name key is UTF-8 text (then Swift's `String` holds its exact bytes, compared as SQLite
/// compares text: ``Swift/String/precedesInUTF8(_:)``). For any other value, which only another
/// program writes and `check` names, ``mismatches(in:)`` returns nil, for the SQL to count.
///
/// A derived row differs when its stored row is missing or holds another value in any column (an
/// INTEGER column equal as SQLite compares numbers, a TEXT column by its bytes); the stored rows
/// that no recounted row has the key of are counted from the number of stored rows, so each
/// differing key counts once. The periods of the days waiting for a recount are left out on both
/// sides, as in the SQL.
struct TallyAudit {
    /// The derived tables in the order ``ExerciseTallies/mismatches(in:)`` reports them.
    private enum Table: Int, CaseIterable {
        case months, years, dayTotals, periodTotals, monthDays
    }

    /// Per table: the recounted rows whose stored row is missing or differs, and the recounted
    /// rows whose key a stored row has.
    private var differing = [Int](repeating: 0, count: Table.allCases.count)
    private var matched = [Int](repeating: 0, count: Table.allCases.count)
    private let connection: Connection
    /// The starts of the days, weeks, months and years that wait for a recount.
    private let pending: [ReportPeriod: Set<CalendarDay>]
    /// ``TalliedThrough``'s mark: days with a larger row key have their day totals only.
    private let talliedThrough: Int64
    /// The week, month and year being recounted, by period.
    private var open: [ReportPeriod: OpenPeriod] = [:]

    /// For each derived table, how many of its rows differ from a recount of the exercises table;
    /// nil when a day, name or name key holds a value this pass does not count (see the type).
    static func mismatches(in connection: Connection) throws -> [(table: String, rows: Int)]? {
        guard var audit = try TallyAudit(in: connection) else { return nil }
        do {
            guard try audit.recountDays() else { return nil }
        } catch is ColumnConversionError {
            return nil
        }
        let stored = try ExerciseTallies.storedRowCounts(in: connection)
        return ExerciseTallies.derivedTables.indices.map { index in
            (ExerciseTallies.derivedTables[index].table, audit.differing[index] + stored[index] - audit.matched[index])
        }
    }

    private init?(in connection: Connection) throws {
        self.connection = connection
        // A day that is no calendar day ends the pass where it comes in day order: one sorting
        // after every calendar day (a blob, '9999-12-32', 'x') only at the end, a whole pass spent
        // before the SQL counts (helper-35: 1.14 to 1.18 times the SQL alone). The day index's
        // two ends tell those at once.
        guard try connection.scalar("""
            SELECT last IS NULL OR (typeof(last) = 'text' AND last <= '9999-12-31' AND (SELECT min(day) FROM exercise_days) >= '0001-01-01')
            FROM (SELECT max(day) AS last FROM exercise_days)
            """, as: Bool.self) == true else { return nil }
        var pending: [ReportPeriod: Set<CalendarDay>] = [:]
        let periods = try connection.prepare("WITH pending AS (\(ExerciseTallies.pendingPeriodsSQL)) SELECT period, start FROM pending")
        while try periods.step() {
            guard let period = ReportPeriod(rawValue: try periods.column(0)), let start = CalendarDay(try periods.column(1, as: String.self)) else {
                return nil
            }
            pending[period, default: []].insert(start)
        }
        self.pending = pending
        talliedThrough = try connection.scalar("SELECT \(TalliedThrough.sql)", as: Int64.self) ?? 0
    }

    // MARK: The pass

    /// Reads every exercise row in day order (the day index, then each day's rows by its key: no
    /// sort), recounting each day as its rows end; false at a day that is not a calendar day.
    private mutating func recountDays() throws -> Bool {
        let rows = try connection.prepare("""
            SELECT d.pk, d.day, e.name_key, e.name FROM exercise_days AS d CROSS JOIN exercises AS e ON e.day_pk = d.pk
            ORDER BY d.day
            """)
        var day: (key: Int64, day: CalendarDay)?
        var names = DistinctNames()
        var exercises = 0
        while try rows.step() {
            let key: Int64 = try rows.column(0)
            if key != day?.key {
                if let day { try recount(day.day, isTallied: day.key <= talliedThrough, names: names.entries, exercises: exercises) }
                guard let calendarDay = CalendarDay(try rows.column(1, as: String.self)) else { return false }
                day = (key, calendarDay)
                names.removeAll()
                exercises = 0
            }
            names.add((try rows.column(2), try rows.column(3), 1))
            exercises += 1
        }
        if let day { try recount(day.day, isTallied: day.key <= talliedThrough, names: names.entries, exercises: exercises) }
        for period in ReportPeriod.totalled {
            if let period = open.removeValue(forKey: period) { try close(period) }
        }
        return true
    }

    /// Compares the day's totals, closes each period that ended before it, and counts the day into
    /// its week, month and year (not when the tallies wait for it).
    private mutating func recount(_ day: CalendarDay, isTallied: Bool, names: [ExerciseTallies.DistinctName], exercises: Int) throws {
        if !isPending(.day, day), let top = ExerciseTallies.mostDone(names) {
            try compare(.dayTotals, key: [.text(day.description)],
                        with: [.integer(exercises), .integer(names.count), .text(top.name)])
        }
        for period in ReportPeriod.totalled {
            let start = period.start(of: day)
            if let current = open[period], current.start != start {
                try close(current)
                open[period] = nil
            }
            open[period, default: OpenPeriod(period: period, start: start)].count(day, names: names, isTallied: isTallied)
        }
    }

    /// Compares the rows a week, month or year that ended makes: its tallies (months and years),
    /// its totals, and its days with an exercise (months).
    private mutating func close(_ period: OpenPeriod) throws {
        guard !isPending(period.period, period.start) else { return }
        if let table = Self.tallyTables[period.period] {
            let periodKey = period.period.tallyKey(of: period.start)
            for (key, tally) in period.tallies {
                try compare(table, key: [.text(periodKey), .text(key.text)],
                            with: [.text(tally.name), .integer(tally.exercises), .integer(tally.days),
                                   .text(tally.firstDay.description), .text(tally.lastDay.description)])
            }
        }
        let tallies = period.tallies.map { (key: $0.key.text, tally: $0.value) }
        if period.activeDays > 0, let top = ExerciseTallies.mostDone(tallies, count: \.tally.exercises, key: \.key) {
            try compare(.periodTotals, key: [.text(period.period.rawValue), .text(period.start.description)],
                        with: [.integer(period.activeDays), .integer(tallies.reduce(0) { $0 + $1.tally.exercises }),
                               .integer(tallies.count), .text(top.tally.name)])
        }
        if period.period == .month, period.monthDays != 0 {
            try compare(.monthDays, key: [.text(period.start.description)], with: [.integer(period.monthDays)])
        }
    }

    private static let tallyTables: [ReportPeriod: Table] = [.month: .months, .year: .years]

    private func isPending(_ period: ReportPeriod, _ start: CalendarDay) -> Bool {
        pending[period]?.contains(start) ?? false
    }

    // MARK: Stored rows

    /// A recounted column's value.
    private enum Value {
        case text(String)
        case integer(Int)
    }

    /// Looks up the stored row of `key` in `table` and counts it matched, and differing when it is
    /// missing or any of its columns is not `values`.
    private mutating func compare(_ table: Table, key: [Value], with values: [Value]) throws {
        let lookup = try connection.cachedStatement(Self.lookups[table.rawValue])
        defer { lookup.reset() }
        for (index, value) in key.enumerated() {
            switch value {
            case .text(let text): try lookup.bind(text, at: index + 1)
            case .integer(let number): try lookup.bind(number, at: index + 1)
            }
        }
        guard try lookup.step() else {
            differing[table.rawValue] += 1
            return
        }
        matched[table.rawValue] += 1
        for (index, value) in values.enumerated() where try !Self.column(index, of: lookup, is: value) {
            differing[table.rawValue] += 1
            return
        }
    }

    /// Whether column `index` of the row `statement` is on holds `value`: text with the same
    /// bytes; a number equal to it (SQLite compares an INTEGER and a REAL by value).
    private static func column(_ index: Int, of statement: Statement, is value: Value) throws -> Bool {
        switch value {
        case .text(var text):
            return try withColumnTextBytes(of: statement.handle, at: Int32(index)) { stored in
                guard let stored else { return false }
                return text.withUTF8 { $0.elementsEqual(stored) }
            }
        case .integer(let number):
            switch try statement.column(index, as: DatabaseValue.self) {
            case .integer(let stored): return stored == Int64(number)
            case .real(let stored): return stored == Double(number)
            default: return false
            }
        }
    }

    /// Each table's row by its key, in ``Table`` order: the key bound as parameters, the other
    /// columns in the order ``close(_:)`` and ``recount(_:isTallied:names:exercises:)`` give them.
    private static let lookups = [
        "SELECT name, exercises, days, first_day, last_day FROM exercise_months WHERE month = ?1 AND name_key = ?2",
        "SELECT name, exercises, days, first_day, last_day FROM exercise_years WHERE year = ?1 AND name_key = ?2",
        "SELECT exercises, distinct_exercises, top_exercise FROM exercise_day_totals WHERE day = ?1",
        "SELECT active_days, exercises, distinct_exercises, top_exercise FROM exercise_period_totals WHERE period = ?1 AND start = ?2",
        "SELECT days FROM exercise_month_days WHERE start = ?1",
    ]
}

/// A week, month or year being recounted in ``TallyAudit``: what its days so far make.
private struct OpenPeriod {
    let period: ReportPeriod
    let start: CalendarDay
    /// Each name key done on its tallied days: the smallest spelling, the count, the days, the
    /// first and last of them.
    var tallies: [ExactText: Tally] = [:]
    /// Its tallied days (each has an exercise row).
    var activeDays = 0
    /// The bits of its tallied days (each has an exercise row; months, see ``MonthDays``).
    var monthDays = 0

    struct Tally {
        var name: String
        var exercises: Int
        var days: Int
        let firstDay: CalendarDay
        var lastDay: CalendarDay

        /// Counts a later day's `name` of this key.
        mutating func add(_ name: ExerciseTallies.DistinctName, on day: CalendarDay) {
            if name.name.precedesInUTF8(self.name) { self.name = name.name }
            exercises += name.count
            days += 1
            lastDay = day
        }
    }

    /// Counts a day with exercise rows (days come in order) when tallied: into the tallies, the
    /// active days and the month's days.
    mutating func count(_ day: CalendarDay, names: [ExerciseTallies.DistinctName], isTallied: Bool) {
        guard isTallied else { return }
        if period == .month { monthDays |= MonthDays.bit(of: day) }
        activeDays += 1
        for name in names {
            let key = ExactText(name.key)
            if let index = tallies.index(forKey: key) {
                tallies.values[index].add(name, on: day)
            } else {
                tallies[key] = Tally(name: name.name, exercises: name.count, days: 1, firstDay: day, lastDay: day)
            }
        }
    }
}
