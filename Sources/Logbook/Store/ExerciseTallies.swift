import Foundation
import SQLiteQuery

/// Keeps `exercise_months` (migration 0004), `exercise_day_totals` (0005), `exercise_years` and
/// `exercise_period_totals` (0011) equal to what the exercises table says, within the writing
/// transaction: every history write ends with ``apply(in:)``.
///
/// A new day's totals are written at once, and its exercises are counted here in memory
/// (``addNewDay(_:in:)``) and added to the month and year tallies in one pass at the end, then
/// the totals of each week, month and year they touched are recomputed (``PeriodTotals``), which
/// keeps bulk imports cheap. Every other change marks its day in
/// `exercise_tallies_stale` (the migration's triggers, and ``markStale(dayKey:in:)`` for appended
/// exercises); ``apply(in:)`` then recounts those days' months and years from the exercises
/// table, after the additions, so a day both added and changed ends up counted once.
///
/// Every total agrees with the report SQL over the exercise rows: the top exercise is the most
/// done, the smallest name key (in UTF-8 byte order) among equals, shown in its smallest spelling.
struct ExerciseTallies {
    private struct Key: Hashable {
        let period: ReportPeriod
        /// The period's first day.
        let start: CalendarDay
        /// The name key's index in `nameKeys`: one string hash per name and day, not one per period.
        let name: Int

        func hash(into hasher: inout Hasher) {
            // One word instead of five: a bulk import looks a key up for every name of every day.
            let day = start.year << 9 | start.month << 5 | start.day
            hasher.combine(name << 32 | day << 1 | (period == .month ? 1 : 0))
        }
    }

    private struct Tally {
        var name: String
        var exercises = 0
        var days = 0
        var firstDay: CalendarDay
        var lastDay: CalendarDay

        mutating func add(name: String, count: Int, on day: CalendarDay) {
            // SQLite's min() on text: UTF-8 byte order, not Swift's canonical-equivalence order.
            if name.precedesInUTF8(self.name) { self.name = name }
            exercises += count
            days += 1
            firstDay = min(firstDay, day)
            lastDay = max(lastDay, day)
        }
    }

    /// The new days of one week counted in memory: how many, and their names.
    struct WeekTally {
        var days = 0
        var names: [DistinctName] = []
        /// The position in `names` of each name key, by its index in the tallies' `nameKeys`.
        private var positions: [Int: Int] = [:]

        /// Counts one more day, on which `names` were done; `indexes` are their name keys' indexes.
        mutating func add(_ names: [DistinctName], indexes: [Int]) {
            days += 1
            for (name, index) in zip(names, indexes) {
                if let position = positions[index] {
                    ExerciseTallies.merge(name, into: &self.names[position])
                } else {
                    positions[index] = self.names.count
                    self.names.append(name)
                }
            }
        }
    }

    private var pending: [Key: Tally] = [:]
    /// The weeks of the days counted in `pending`, by their Monday.
    private var pendingWeeks: [CalendarDay: WeekTally] = [:]
    /// How many days with an exercise each month and year of `pending` gained.
    private var pendingActiveDays: [PeriodStart: Int] = [:]
    /// The name keys of `pending`, each once.
    private var nameKeys: [String] = []
    private var nameIndexes: [String: Int] = [:]

    /// Counts in memory at most this many weeks and month and year rows before writing them, so that
    /// the memory of a bulk import stays flat however long the history.
    private static let pendingLimit = 2_000

    /// Counts the exercises of a day record that did not exist before this transaction.
    mutating func addNewDay(_ record: ExerciseDay, in connection: Connection) throws {
        let names = Self.distinctNames(record.exercises)
        try Self.writeTotals(of: record.day, names, in: connection)
        count(names, on: record.day)
        if pending.count + pendingWeeks.count > Self.pendingLimit { try writeAdditions(in: connection) }
    }

    /// Writes the day's row of `exercise_day_totals`. (A day replaced in this transaction has a
    /// row already: it is overwritten here, then recounted by ``apply(in:)`` as a stale day.)
    private static func writeTotals(of day: CalendarDay, _ names: [DistinctName], in connection: Connection) throws {
        guard let mostDone = mostDone(names) else { return }
        let statement = try connection.cachedStatement("""
            INSERT OR REPLACE INTO exercise_day_totals (day, exercises, distinct_exercises, top_exercise)
            VALUES (?, ?, ?, ?)
            """)
        try statement.bind(day, at: 1)
        try statement.bind(names.reduce(0) { $0 + $1.count }, at: 2)
        try statement.bind(names.count, at: 3)
        try statement.bind(mostDone.name, at: 4)
        try statement.execute()
    }

    private mutating func count(_ names: [DistinctName], on day: CalendarDay) {
        guard !names.isEmpty else { return }
        let indexes = names.map { name in
            if let index = nameIndexes[name.key] { return index }
            nameKeys.append(name.key)
            nameIndexes[name.key] = nameKeys.count - 1
            return nameKeys.count - 1
        }
        pendingWeeks[ReportPeriod.week.start(of: day), default: WeekTally()].add(names, indexes: indexes)
        for period in ReportPeriod.tallied {
            let start = period.start(of: day)
            pendingActiveDays[PeriodStart(period: period, start: start), default: 0] += 1
            for (index, (_, name, count)) in zip(indexes, names) {
                let key = Key(period: period, start: start, name: index)
                if let position = pending.index(forKey: key) {
                    pending.values[position].add(name: name, count: count, on: day)
                } else {
                    pending[key] = Tally(name: name, exercises: count, days: 1, firstDay: day, lastDay: day)
                }
            }
        }
    }

    /// Writes the counted additions, then recounts the months and years of the stale days.
    mutating func apply(in connection: Connection) throws {
        try writeAdditions(in: connection)
        try Self.recountStaleDays(in: connection)
    }

    /// Adds the counted tallies to their tables, period by period so that each B-tree is written
    /// front to back, then recomputes the totals of every week, month and year they touched.
    private mutating func writeAdditions(in connection: Connection) throws {
        guard !pending.isEmpty || !pendingWeeks.isEmpty else { return }
        let ordered = pending.sorted { $0.key.start < $1.key.start }
        for period in ReportPeriod.tallied {
            let statement = try connection.cachedStatement(Self.addition(to: period))
            for (key, tally) in ordered where key.period == period {
                try statement.bind(key.start, at: 1)
                try statement.bind(nameKeys[key.name], at: 2)
                try statement.bind(tally.name, at: 3)
                try statement.bind(tally.exercises, at: 4)
                try statement.bind(tally.days, at: 5)
                try statement.bind(tally.firstDay, at: 6)
                try statement.bind(tally.lastDay, at: 7)
                try statement.execute()
            }
        }
        try PeriodTotals.refresh(adding: pendingActiveDays, in: connection)
        for (week, tally) in pendingWeeks.sorted(by: { $0.key < $1.key }) {
            try PeriodTotals.refresh(weekStartingOn: week, counted: tally, in: connection)
        }
        pending.removeAll(keepingCapacity: true)
        pendingWeeks.removeAll(keepingCapacity: true)
        pendingActiveDays.removeAll(keepingCapacity: true)
        nameKeys.removeAll(keepingCapacity: true)
        nameIndexes.removeAll(keepingCapacity: true)
    }

    /// Marks the day with row key `dayKey` stale, for a change the triggers do not see.
    static func markStale(dayKey: Int64, in connection: Connection) throws {
        try connection.run("INSERT OR IGNORE INTO exercise_tallies_stale (day) SELECT day FROM exercise_days WHERE pk = ?",
                           [.integer(dayKey)])
    }

    /// Recounts every day, month and year (and the weeks' totals) from the exercises table, as after exercise rows that
    /// another program inserted (which no trigger sees): `Logbook.repair(dryRun:)`. Logs the days
    /// those rows changed first (``UnloggedDayChanges``).
    static func rebuild(in connection: Connection) throws {
        try UnloggedDayChanges.logMiscountedDays(in: connection)
        try connection.execute("""
            DELETE FROM exercise_months;
            DELETE FROM exercise_years;
            DELETE FROM exercise_period_totals;
            DELETE FROM exercise_day_totals;
            INSERT OR IGNORE INTO exercise_tallies_stale (day) SELECT day FROM exercise_days;
            """)
        try recountMarkedDays(in: connection)
    }

    /// For each derived table, how many of its rows differ from a recount of the exercises table
    /// (rows missing, extra or with other values); every count 0 when they agree.
    static func mismatches(in connection: Connection) throws -> [(table: String, rows: Int)] {
        let recounts = ReportPeriod.totalled.map { period in
            "\(period.rawValue)s AS (\(tallyCounts(period, days: "exercise_days")))"
        }
        let periodTotals = ReportPeriod.totalled.map { period in
            PeriodTotals.totals(period, names: "(SELECT \(period.start(ofTallyKey: "key")) AS start, name_key, name, exercises FROM \(period.rawValue)s)",
                                days: "(SELECT day FROM days)")
        }.joined(separator: " UNION ALL ")
        let differences = [("exercise_months", "months"), ("exercise_years", "years"), ("exercise_day_totals", "days"),
                           ("exercise_period_totals", "period_totals")].map { table, recount in
            """
            (SELECT count(*) FROM (SELECT * FROM \(recount) EXCEPT SELECT * FROM \(table)))
            + (SELECT count(*) FROM (SELECT * FROM \(table) EXCEPT SELECT * FROM \(recount)))
            """
        }
        let statement = try connection.cachedStatement("""
            WITH \(recounts.joined(separator: ", ")), days AS (\(dayTotals(days: "exercise_days"))),
                 period_totals AS (\(periodTotals))
            SELECT \(differences.joined(separator: ", "))
            """)
        defer { statement.reset() }
        _ = try statement.step()
        return try ["exercise_months", "exercise_years", "exercise_day_totals", "exercise_period_totals"]
            .enumerated().map { ($1, try statement.column($0)) }
    }

    // MARK: SQL

    /// The tally rows of `period` (a week, month or year) that the days in the `days` relation
    /// (columns `pk`, `day`) make, counted from their exercise rows: rows of the period's tally
    /// table (weeks, which have none, by the week's Monday).
    private static func tallyCounts(_ period: ReportPeriod, days: String) -> String {
        """
        SELECT \(period.tallyKey(ofStart: period.startSQL(of: "d.day"))) AS key, e.name_key, min(e.name) AS name, count(*) AS exercises,
               count(DISTINCT d.pk) AS days, min(d.day) AS first_day, max(d.day) AS last_day
        FROM \(days) AS d JOIN exercises AS e ON e.day_pk = d.pk GROUP BY 1, 2
        """
    }

    /// Totals of the days in the `days` relation, as rows of `exercise_day_totals`.
    private static func dayTotals(days: String) -> String {
        """
        SELECT day, sum(done), count(*), min(CASE WHEN rank = 1 THEN name END)
        FROM (SELECT day, name, done, row_number() OVER (PARTITION BY day ORDER BY done DESC, name_key) AS rank
              FROM (SELECT d.day, e.name_key, min(e.name) AS name, count(*) AS done
                    FROM \(days) AS d JOIN exercises AS e ON e.day_pk = d.pk GROUP BY d.day, e.name_key))
        GROUP BY day
        """
    }

    /// Whether the tallies and day totals account for every exercise row: no day is marked stale
    /// (every update and delete, by any program, marks its day), and the totals add up to the
    /// rows (an exercise row another program inserted is the one change no trigger sees: an insert
    /// trigger would cost every import its own rows, measured at 60% more CPU). Costs two counts,
    /// once per connection until the file changes (``Connection/valueWhileUnchanged(_:_:)``).
    static func areCurrent(in connection: Connection) throws -> Bool {
        try connection.valueWhileUnchanged("ExerciseTallies.areCurrent") {
            let statement = try connection.cachedStatement("""
                SELECT NOT EXISTS (SELECT 1 FROM exercise_tallies_stale)
                   AND (SELECT count(*) FROM exercises) = (SELECT coalesce(sum(exercises), 0) FROM exercise_day_totals)
                """)
            defer { statement.reset() }
            guard try statement.step() else { return false }
            return try statement.column(0, as: Bool.self)
        }
    }

    /// Recounts the days, months and years (and the weeks', months' and years' totals) of the days marked stale, and
    /// clears the marks, after logging those days (a recount would hide exercise rows another
    /// program added to them from the change feed, ``UnloggedDayChanges``).
    static func recountStaleDays(in connection: Connection) throws {
        let anyStale = try connection.cachedStatement("SELECT EXISTS (SELECT 1 FROM exercise_tallies_stale)")
        defer { anyStale.reset() }
        guard try anyStale.step(), try anyStale.column(0, as: Bool.self) else { return }
        anyStale.reset()
        try UnloggedDayChanges.logStaleDays(in: connection)
        try recountMarkedDays(in: connection)
    }

    /// Recounts the days marked stale, as ``recountStaleDays(in:)`` without logging them. The
    /// exercise rows of those days get their keys recomputed first, so a name another program
    /// changed without its `name_key` is counted under its own name.
    private static func recountMarkedDays(in connection: Connection) throws {
        try connection.execute("""
            UPDATE exercises SET name_key = swift_key(name)
            WHERE day_pk IN (SELECT d.pk FROM exercise_tallies_stale AS s JOIN exercise_days AS d ON d.day = s.day)
              AND name_key IS NOT swift_key(name)
            """)
        // Every day of every stale month and year, found through the day index.
        for period in ReportPeriod.tallied {
            let columns = "\(period.tallyColumn), name_key, name, exercises, days, first_day, last_day"
            let start = period.startSQL(of: "day")
            try connection.execute("""
                DELETE FROM \(period.tallyTable)
                WHERE \(period.tallyColumn) IN (SELECT \(period.tallyKey(ofStart: start)) FROM exercise_tallies_stale);
                INSERT INTO \(period.tallyTable) (\(columns)) \(tallyCounts(period, days: """
                    (SELECT d.pk, d.day FROM (SELECT DISTINCT \(start) AS start FROM exercise_tallies_stale) AS s
                     JOIN exercise_days AS d ON d.day BETWEEN s.start AND \(period.endSQL(ofStart: "s.start")))
                    """));
                """)
        }
        try connection.execute("""
            DELETE FROM exercise_day_totals WHERE day IN (SELECT day FROM exercise_tallies_stale);
            INSERT INTO exercise_day_totals (day, exercises, distinct_exercises, top_exercise) \(dayTotals(days: """
                (SELECT d.pk, d.day FROM exercise_tallies_stale AS s JOIN exercise_days AS d ON d.day = s.day)
                """));
            """)
        var stalePeriods = Set<PeriodStart>()
        let staleDays = try connection.cachedStatement("SELECT day FROM exercise_tallies_stale")
        defer { staleDays.reset() }
        while try staleDays.step() {
            let day: CalendarDay = try staleDays.column(0)
            for period in ReportPeriod.totalled { stalePeriods.insert(PeriodStart(period: period, start: period.start(of: day))) }
        }
        staleDays.reset()
        try PeriodTotals.refresh(stalePeriods, in: connection)
        try connection.execute("DELETE FROM exercise_tallies_stale")
    }

    /// The upsert that adds a count of one name to a month's or year's tally row: `?1` the period's
    /// first day, `?2` the name key, `?3` the spelling, `?4` the count, `?5` the days, `?6` and `?7`
    /// the first and last of them.
    private static func addition(to period: ReportPeriod) -> String {
        let key = period.tallyKey(ofStart: "?1")
        return """
            INSERT INTO \(period.tallyTable) (\(period.tallyColumn), name_key, name, exercises, days, first_day, last_day)
            VALUES (\(key), ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (\(period.tallyColumn), name_key) DO UPDATE SET name = min(name, excluded.name),
                exercises = exercises + excluded.exercises, days = days + excluded.days,
                first_day = min(first_day, excluded.first_day), last_day = max(last_day, excluded.last_day)
            """
    }

    /// A name key of a day's exercises, its smallest spelling, and how often it occurs that day.
    typealias DistinctName = (key: String, name: String, count: Int)

    /// The top exercise of a day or period: the most done, the smallest name key (in UTF-8 byte
    /// order, as SQLite compares text) among equals; nil for none.
    static func mostDone(_ names: [DistinctName]) -> DistinctName? {
        names.min { $0.count != $1.count ? $0.count > $1.count : $0.key.precedesInUTF8($1.key) }
    }

    /// Each distinct name key of `names` with its smallest spelling and how often it occurs.
    private static func distinctNames(_ names: [String]) -> [DistinctName] {
        var result: [DistinctName] = []
        for name in names { add((name.comparisonKey, name, 1), to: &result) }
        return result
    }

    /// Adds `name`'s count to the entry of its key in `names` (one entry per key, by UTF-8 bytes as
    /// SQLite groups text, with the smallest spelling in UTF-8 byte order, as SQLite's min()).
    static func add(_ name: DistinctName, to names: inout [DistinctName]) {
        if let index = names.firstIndex(where: { $0.key.hasSameUTF8(as: name.key) }) {
            merge(name, into: &names[index])
        } else {
            names.append(name)
        }
    }

    /// Adds `name`'s count to `entry`, of the same key, keeping the smaller spelling in UTF-8 byte order.
    static func merge(_ name: DistinctName, into entry: inout DistinctName) {
        entry.count += name.count
        if name.name.precedesInUTF8(entry.name) { entry.name = name.name }
    }
}
