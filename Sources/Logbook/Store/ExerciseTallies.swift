import Foundation
import SQLiteQuery

/// Keeps `exercise_weeks`, `exercise_months` (migration 0004) and `exercise_day_totals` (0005)
/// equal to what the exercises table says, within the writing transaction: every history write
/// ends with ``apply(in:)``.
///
/// A new day's totals are written at once, and its exercises are counted here in memory
/// (``addNewDay(_:in:)``) and added to the week and month tables in one pass at the end, which
/// keeps bulk imports cheap. Every other change marks its day in
/// `exercise_tallies_stale` (the migration's triggers, and ``markStale(dayKey:in:)`` for appended
/// exercises); ``apply(in:)`` then recounts those days' weeks and months from the exercises
/// table, after the additions, so a day both added and changed ends up counted once.
///
/// Every total agrees with the report SQL over the exercise rows: the top exercise is the most
/// done, the smallest name key (in UTF-8 byte order) among equals, shown in its smallest spelling.
struct ExerciseTallies {
    private struct Key: Hashable {
        /// The week's Monday or the month's first day, as a day number.
        let period: Int
        let nameKey: String
    }

    private struct Tally {
        var name: String
        var exercises = 0
        var days = 0
        var firstDay: CalendarDay
        var lastDay: CalendarDay

        mutating func add(name: String, count: Int, on day: CalendarDay) {
            // SQLite's min() on text: UTF-8 byte order, not Swift's canonical-equivalence order.
            if name.utf8.lexicographicallyPrecedes(self.name.utf8) { self.name = name }
            exercises += count
            days += 1
            firstDay = min(firstDay, day)
            lastDay = max(lastDay, day)
        }
    }

    private var weeks: [Key: Tally] = [:]
    private var months: [Key: Tally] = [:]

    /// Counts in memory at most this many week and month rows before writing them, so that the
    /// memory of a bulk import stays flat however long the history.
    private static let pendingLimit = 2_000

    /// Counts the exercises of a day record that did not exist before this transaction.
    mutating func addNewDay(_ record: ExerciseDay, in connection: Connection) throws {
        let names = Self.distinctNames(record.exercises)
        try Self.writeTotals(of: record.day, names, in: connection)
        count(names, on: record.day)
        if weeks.count + months.count > Self.pendingLimit { try writeAdditions(in: connection) }
    }

    /// Writes the day's row of `exercise_day_totals`. (A day replaced in this transaction has a
    /// row already: it is overwritten here, then recounted by ``apply(in:)`` as a stale day.)
    private static func writeTotals(of day: CalendarDay, _ names: [DistinctName], in connection: Connection) throws {
        let mostDone = names.min { $0.count != $1.count ? $0.count > $1.count
                                                        : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        guard let mostDone else { return }
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
        let week = day.dayNumber - day.daysSinceMonday
        let month = day.dayNumber - (day.day - 1)
        for (nameKey, name, count) in names {
            weeks[Key(period: week, nameKey: nameKey), default: Tally(name: name, firstDay: day, lastDay: day)]
                .add(name: name, count: count, on: day)
            months[Key(period: month, nameKey: nameKey), default: Tally(name: name, firstDay: day, lastDay: day)]
                .add(name: name, count: count, on: day)
        }
    }

    /// Writes the counted additions, then recounts the weeks and months of the stale days.
    mutating func apply(in connection: Connection) throws {
        try writeAdditions(in: connection)
        try Self.recountStaleDays(in: connection)
    }

    private mutating func writeAdditions(in connection: Connection) throws {
        try upsert(weeks, Self.addToWeek, withDays: false, in: connection)
        try upsert(months, Self.addToMonth, withDays: true, in: connection)
        weeks = [:]
        months = [:]
    }

    /// Marks the day with row key `dayKey` stale, for a change the triggers do not see.
    static func markStale(dayKey: Int64, in connection: Connection) throws {
        try connection.run("INSERT OR IGNORE INTO exercise_tallies_stale (day) SELECT day FROM exercise_days WHERE pk = ?",
                           [.integer(dayKey)])
    }

    /// Recounts every day, week and month from the exercises table, as after exercise rows that
    /// another program inserted (which no trigger sees): `Logbook.repair(dryRun:)`. Logs the days
    /// those rows changed first (``UnloggedDayChanges``).
    static func rebuild(in connection: Connection) throws {
        try UnloggedDayChanges.logMiscountedDays(in: connection)
        try connection.execute("""
            DELETE FROM exercise_weeks;
            DELETE FROM exercise_months;
            DELETE FROM exercise_day_totals;
            INSERT OR IGNORE INTO exercise_tallies_stale (day) SELECT day FROM exercise_days;
            """)
        try recountMarkedDays(in: connection)
    }

    /// For each derived table, how many of its rows differ from a recount of the exercises table
    /// (rows missing, extra or with other values); every count 0 when they agree.
    static func mismatches(in connection: Connection) throws -> [(table: String, rows: Int)] {
        let statement = try connection.cachedStatement("""
            WITH weeks AS (\(weekCounts(days: "exercise_days"))), months AS (\(monthCounts(days: "exercise_days"))),
                 days AS (\(dayTotals(days: "exercise_days")))
            SELECT (SELECT count(*) FROM (SELECT * FROM weeks EXCEPT SELECT week, name_key, name, exercises FROM exercise_weeks))
                 + (SELECT count(*) FROM (SELECT week, name_key, name, exercises FROM exercise_weeks EXCEPT SELECT * FROM weeks)),
                   (SELECT count(*) FROM (SELECT * FROM months EXCEPT SELECT * FROM exercise_months))
                 + (SELECT count(*) FROM (SELECT * FROM exercise_months EXCEPT SELECT * FROM months)),
                   (SELECT count(*) FROM (SELECT * FROM days EXCEPT SELECT * FROM exercise_day_totals))
                 + (SELECT count(*) FROM (SELECT * FROM exercise_day_totals EXCEPT SELECT * FROM days))
            """)
        defer { statement.reset() }
        _ = try statement.step()
        return [("exercise_weeks", try statement.column(0)), ("exercise_months", try statement.column(1)),
                ("exercise_day_totals", try statement.column(2))]
    }

    // MARK: SQL

    /// The Monday on or before the day in the text column `day`, as SQL.
    static func weekStart(of day: String) -> String { "date(\(day), '-6 days', 'weekday 1')" }

    /// Week counts of the days in the `days` relation (columns `pk`, `day`), as rows of `exercise_weeks`.
    private static func weekCounts(days: String) -> String {
        """
        SELECT \(weekStart(of: "d.day")), e.name_key, min(e.name), count(*)
        FROM \(days) AS d JOIN exercises AS e ON e.day_pk = d.pk GROUP BY 1, 2
        """
    }

    /// Month counts of the days in the `days` relation, as rows of `exercise_months`.
    private static func monthCounts(days: String) -> String {
        """
        SELECT substr(d.day, 1, 7), e.name_key, min(e.name), count(*), count(DISTINCT d.pk), min(d.day), max(d.day)
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
    /// trigger would cost every import its own rows, measured at 60% more CPU). Costs two counts.
    static func areCurrent(in connection: Connection) throws -> Bool {
        let statement = try connection.cachedStatement("""
            SELECT NOT EXISTS (SELECT 1 FROM exercise_tallies_stale)
               AND (SELECT count(*) FROM exercises) = (SELECT coalesce(sum(exercises), 0) FROM exercise_day_totals)
            """)
        defer { statement.reset() }
        guard try statement.step() else { return false }
        return try statement.column(0, as: Bool.self)
    }

    /// Recounts the days, weeks and months of the days marked stale, and clears the marks, after
    /// logging those days (a recount would hide exercise rows another program added to them from
    /// the change feed, ``UnloggedDayChanges``).
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
        // Every day of every stale week and month, found through the day index.
        try connection.execute("""
            DELETE FROM exercise_weeks WHERE week IN (SELECT \(weekStart(of: "day")) FROM exercise_tallies_stale);
            INSERT INTO exercise_weeks (week, name_key, name, exercises) \(weekCounts(days: """
                (SELECT d.pk, d.day FROM (SELECT DISTINCT \(weekStart(of: "day")) AS week FROM exercise_tallies_stale) AS s
                 JOIN exercise_days AS d ON d.day BETWEEN s.week AND date(s.week, '+6 days'))
                """));
            DELETE FROM exercise_months WHERE month IN (SELECT substr(day, 1, 7) FROM exercise_tallies_stale);
            INSERT INTO exercise_months (month, name_key, name, exercises, days, first_day, last_day) \(monthCounts(days: """
                (SELECT d.pk, d.day FROM (SELECT DISTINCT substr(day, 1, 7) AS month FROM exercise_tallies_stale) AS s
                 JOIN exercise_days AS d ON d.day BETWEEN s.month || '-01' AND s.month || '-31')
                """));
            DELETE FROM exercise_day_totals WHERE day IN (SELECT day FROM exercise_tallies_stale);
            INSERT INTO exercise_day_totals (day, exercises, distinct_exercises, top_exercise) \(dayTotals(days: """
                (SELECT d.pk, d.day FROM exercise_tallies_stale AS s JOIN exercise_days AS d ON d.day = s.day)
                """));
            DELETE FROM exercise_tallies_stale;
            """)
    }

    private static let addToWeek = """
        INSERT INTO exercise_weeks (week, name_key, name, exercises) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (week, name_key) DO UPDATE SET name = min(name, excluded.name), exercises = exercises + excluded.exercises
        """

    private static let addToMonth = """
        INSERT INTO exercise_months (month, name_key, name, exercises, days, first_day, last_day)
        VALUES (substr(?1, 1, 7), ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (month, name_key) DO UPDATE SET name = min(name, excluded.name),
            exercises = exercises + excluded.exercises, days = days + excluded.days,
            first_day = min(first_day, excluded.first_day), last_day = max(last_day, excluded.last_day)
        """

    /// Upserts period by period, so the B-tree is written front to back. `withDays`: the statement
    /// also takes the days and the first and last day (months).
    private func upsert(_ tallies: [Key: Tally], _ sql: String, withDays: Bool, in connection: Connection) throws {
        guard !tallies.isEmpty else { return }
        let statement = try connection.cachedStatement(sql)
        var period: Int?, periodText: String?
        for (key, tally) in tallies.sorted(by: { $0.key.period < $1.key.period }) {
            if key.period != period {
                period = key.period
                periodText = CalendarDay(dayNumber: key.period)?.description
            }
            try statement.bind(periodText, at: 1)
            try statement.bind(key.nameKey, at: 2)
            try statement.bind(tally.name, at: 3)
            try statement.bind(tally.exercises, at: 4)
            if withDays {
                try statement.bind(tally.days, at: 5)
                try statement.bind(tally.firstDay, at: 6)
                try statement.bind(tally.lastDay, at: 7)
            }
            try statement.execute()
        }
    }

    /// A name key of a day's exercises, its smallest spelling, and how often it occurs that day.
    private typealias DistinctName = (key: String, name: String, count: Int)

    /// Each distinct name key of `names` with its smallest spelling and how often it occurs.
    private static func distinctNames(_ names: [String]) -> [DistinctName] {
        var result: [DistinctName] = []
        for name in names {
            let key = name.comparisonKey
            if let index = result.firstIndex(where: { $0.key == key }) {
                result[index].count += 1
                if name.utf8.lexicographicallyPrecedes(result[index].name.utf8) { result[index].name = name }
            } else {
                result.append((key, name, 1))
            }
        }
        return result
    }
}
