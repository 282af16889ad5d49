import Foundation
import SQLiteQuery

/// Keeps `exercise_months` (migration 0004), `exercise_day_totals` (0005), `exercise_years`,
/// `exercise_period_totals` (0011) and `exercise_month_days` (0018, ``MonthDays``) equal to what
/// the exercises table says, within the writing transaction: every history write ends with
/// ``apply(in:)``.
///
/// A new day's exercises are counted in memory (``addNewDay(_:in:)``; a bulk write's on a thread
/// of its own, ``CountingThread``), its totals written as their counting ends, and the counts
/// added to the month and year tallies in one pass at the end, then
/// the totals of each week, month and year they touched are recomputed (``PeriodTotals``), which
/// keeps bulk imports cheap. A write of a few new days and nothing else leaves them *waiting*
/// instead (``TalliedThrough``): counted in their day's totals only, and in their week's, month's
/// and year's (and their month's days, ``MonthDays``) by the next write that is not such a save,
/// so that saving one day costs about what the day's own rows cost. Exercises appended to a stored
/// day one call at a time are counted in place where its derived rows allow
/// (``AppendedExercisesCount``). Every other change marks its day in `exercise_tallies_stale` (the
/// migration's triggers, and ``markStale(dayKey:in:)`` for other appends); ``apply(in:)`` then (unless it leaves its new days waiting) counts the waiting
/// days and recounts those days' months and years from the exercises table, after the additions,
/// so a day both added and changed ends up counted once.
///
/// Every total agrees with the report SQL over the exercise rows: the top exercise is the most
/// done, the smallest name key (in UTF-8 byte order) among equals, shown in its smallest spelling.
struct ExerciseTallies {
    /// The new days counted in memory, not yet written (while ``counting`` counts, held there).
    private var counts = NewDayCounts()
    /// A bulk write's counting of its new days on a thread of its own, from its first new day
    /// past the ``smallSaveLimit`` on, until the counts are needed here (``finishCounting()``).
    private var counting: CountingThread?
    /// The day totals of the new days, written once there are ``RowBatch/rowsPerStatement`` of them
    /// or more (a bulk write's come back from ``counting`` a batch at a time).
    private var pendingDayTotals: [NewDayCounts.DayTotals] = []
    /// ``TalliedThrough``'s mark when the transaction began, and the last day row then: the days
    /// between them waited for this write; the transaction's new days come after.
    private let talliedThrough: Int64
    private let lastDayBefore: Int64
    /// The days given to ``addNewDay(_:in:)``.
    private var newDays = 0
    /// Whether this transaction began writing its counts to the tallies: its new days can no
    /// longer wait.
    private var isWritingTallies = false
    /// Whether ``TalliedThrough``'s mark was stored: without it no day may be left waiting.
    private let isMarkStored: Bool
    /// Whether the days that waited for this transaction are counted (``countWaitingDays(in:)``).
    private var hasCountedWaitingDays = false
    /// The first new days, their totals written but not yet counted in ``counts``: counted once
    /// the transaction is more than a save that may leave them waiting.
    private var uncountedDays: [(exercises: [String], day: CalendarDay)] = []

    /// Writes the counts once they hold more than this many tallies (a name in a month or year) and
    /// weeks, so that the memory of a bulk import stays flat however long the history. (The counting
    /// thread tells their number as of a batch or two before: ``CountingThread/pendingCount``.)
    static let pendingLimit = 20_000

    /// The most new days a save may leave waiting (a save of more counts them at once).
    static let smallSaveLimit = 16

    /// Begins counting a writing transaction's history changes; to be made before it inserts its
    /// first day row (a recount with no new day may make it at any point).
    init(in connection: Connection) throws {
        let (mark, lastDay) = try TalliedThrough.read(in: connection)
        (talliedThrough, lastDayBefore, isMarkStored) = (mark ?? lastDay, lastDay, mark != nil)
    }

    /// Counts the exercises of a day record that did not exist before this transaction.
    mutating func addNewDay(_ record: ExerciseDay, in connection: Connection) throws {
        newDays += 1
        if newDays <= Self.smallSaveLimit && !isWritingTallies {
            // Maybe left waiting: only the day's totals now (the counts cost a small save a tenth).
            if let totals = NewDayCounts.DayTotals(day: record.day, names: DistinctNames(record.exercises).entries) {
                pendingDayTotals.append(totals)
            }
            uncountedDays.append((record.exercises, record.day))
            return
        }
        countUncountedDays()
        let counting = countingThread()
        pendingDayTotals += counting.add(record.exercises, on: record.day)
        if pendingDayTotals.count >= RowBatch.rowsPerStatement { try writeDayTotals(tallied: true, in: connection) }
        if counting.pendingCount > Self.pendingLimit { try writeAdditions(in: connection) }
    }

    /// ``counting``, begun with the counts so far if it has not begun.
    private mutating func countingThread() -> CountingThread {
        if let counting { return counting }
        let counting = CountingThread(counting: counts)
        (self.counting, counts) = (counting, NewDayCounts())
        return counting
    }

    /// Takes the counts back from ``counting``, if it counts, with the totals of the days it
    /// counted that were not written yet: what every use of ``counts`` begins with.
    private mutating func finishCounting() {
        guard let counting else { return }
        self.counting = nil
        let (counted, totals) = counting.finish()
        counts = counted
        pendingDayTotals += totals
    }

    private static let dayTotalsInsert = ReplacingRowBatch(into: "exercise_day_totals",
                                                           columns: ["day", "exercises", "distinct_exercises", "top_exercise"])

    /// Writes the pending rows of `exercise_day_totals`, and their days to ``MonthDays`` when
    /// `tallied` (counted in the tallies, not left waiting). (A day replaced in this transaction
    /// has a row already: it is overwritten here, then recounted by ``apply(in:)`` as a stale day.)
    private mutating func writeDayTotals(tallied: Bool, in connection: Connection) throws {
        try Self.write(pendingDayTotals, tallied: tallied, in: connection)
        pendingDayTotals.removeAll(keepingCapacity: true)
    }

    /// Writes `rows` to `exercise_day_totals`, replacing the totals their days had, and, when
    /// `tallied`, their days to ``MonthDays``: a day that waits (``TalliedThrough``) gets its bit
    /// once it is counted (``countWaitingDays(in:)``), which spares a small save a page.
    static func write(_ rows: some Collection<NewDayCounts.DayTotals>, tallied: Bool, in connection: Connection) throws {
        try dayTotalsInsert.run(rows, in: connection) { totals, statement, first in
            try statement.bind(totals.day, at: first)
            try statement.bind(totals.exercises, at: first + 1)
            try statement.bind(totals.distinctExercises, at: first + 2)
            try statement.bind(totals.topExercise, at: first + 3)
        }
        if tallied { try MonthDays.add(rows.lazy.map(\.day), in: connection) }
    }

    /// Writes the day totals of the new days and leaves them waiting, when the transaction saved a
    /// few new days and nothing else (``leavesNewDaysWaiting(in:)``); else counts the waiting days
    /// and the new ones into the tallies, recounts the months and years of the stale days, and moves
    /// ``TalliedThrough``'s mark to the last day row. When the file had days but no mark (another
    /// program removed it, or stored a value that is no row key), nothing tells which of them the
    /// tallies count: every tally is recounted from the rows, as `repair` does (``rebuild(in:)``),
    /// and the mark stored again. (Taken as the last day row, the mark had a day left waiting never
    /// counted, and a later recount of its year made the tallies pass for current with its month
    /// still missing it: helper-36.)
    mutating func apply(in connection: Connection) throws {
        finishCounting()
        let (lastDay, isAnyDayStale) = try Self.lastDayAndStaleMarks(in: connection)
        // SQLite numbers a new row on from the last, but after the largest key it draws one at
        // random, which the tallies and the change feed (both find new days above a mark) miss.
        if newDays > 0, lastDay == StoredValueAudit.largestRowKey {
            // (A save that only replaces stored days is refused too: telling it from one that adds a
            // day would take a count of the rows on every write.)
            throw LogbookError.unreadableValue(path: connection.path, detail: "a day row's key is \(StoredValueAudit.largestRowKey), the "
                                               + "largest SQLite has: a day saved now may get a random key, which the change feed and "
                                               + "the tallies cannot follow")
        }
        if leavesNewDaysWaiting(lastDay: lastDay, isAnyDayStale: isAnyDayStale) { return try writeDayTotals(tallied: false, in: connection) }
        if !isMarkStored && lastDayBefore > 0 {
            // The new days' totals first, so that the recount logs no new day as changed.
            try writeDayTotals(tallied: true, in: connection)
            return try Self.rebuild(in: connection)
        }
        try writeAdditions(in: connection)
        try Self.recountMarkedStaleDays(in: connection)
        try TalliedThrough.advance(in: connection)
    }

    /// Whether this transaction's new days may wait: at most ``smallSaveLimit`` of them, no day
    /// marked stale (nothing else changed), each new day a row after the last one before the
    /// transaction (so none is counted in the tallies; SQLite numbers new rows on from the last,
    /// so the new days are the rows that follow it exactly when the last row, `lastDay` now, is
    /// that many after it), and no more than ``TalliedThrough/waitingRowKeyLimit`` row keys above
    /// the mark (an upper bound of the days that would wait).
    private func leavesNewDaysWaiting(lastDay: Int64, isAnyDayStale: Bool) -> Bool {
        // (Writing the tallies counts the waiting days first.)
        isMarkStored && !hasCountedWaitingDays && newDays <= Self.smallSaveLimit && lastDayBefore >= talliedThrough
            && !isAnyDayStale && lastDay - lastDayBefore == newDays && lastDay - talliedThrough <= TalliedThrough.waitingRowKeyLimit
    }

    /// The last day row's key (0 for none) and whether any day is marked stale, as this
    /// transaction's writes left them: one statement, read once by ``apply(in:)``.
    private static func lastDayAndStaleMarks(in connection: Connection) throws -> (lastDay: Int64, isAnyDayStale: Bool) {
        let state = try connection.cachedStatement("""
            SELECT (SELECT coalesce(max(pk), 0) FROM exercise_days), EXISTS (SELECT 1 FROM exercise_tallies_stale)
            """)
        defer { state.reset() }
        _ = try state.step()
        return (try state.column(0), try state.column(1))
    }

    /// Counts the new days not counted yet (their totals are written or pending).
    private mutating func countUncountedDays() {
        guard !uncountedDays.isEmpty else { return }
        finishCounting()
        for day in uncountedDays { _ = counts.add(day.exercises, on: day.day) }
        uncountedDays.removeAll()
    }

    /// Counts the days that waited for this write (rows from ``talliedThrough`` to ``lastDayBefore``)
    /// as new days, their day totals already written, and sets their bits in ``MonthDays``; once a
    /// transaction. A day whose exercise rows its totals do not count (rows another program
    /// inserted, or a day it inserted) is marked stale instead, for the recount in SQL, which logs
    /// it to the change feed and recounts its totals too: a year never counts a row its day does
    /// not (``areCurrent(in:)``). A day whose text is no calendar day (another program's; `check`
    /// names it) is left out of every tally, as a recount leaves it.
    ///
    /// The mark is checked against the month days, which have the bits of the tallied days only:
    /// - a waiting day whose bit is set is counted already (another program lowered the mark): it
    ///   is marked stale, for the recount of its month and year from the rows, not counted twice;
    /// - a mark the month days do not corroborate (``isMarkCorroborated(in:)``) may be another
    ///   program's, raised over days that waited: the days that may have waited (the
    ///   ``TalliedThrough/waitingRowKeyLimit`` rows up to the mark) whose bit is not set are
    ///   counted too.
    ///
    /// One pass over the waiting days' rows, each day's with the exercises its totals count, in
    /// place of a check of each day's count in SQL (``isMiscounted(_:)``) before the pass: under
    /// `callgrind`, counting 256 waiting days of 5 exercises took 8.3 million instructions with
    /// that check, 6.8 million without. The days and the exercise rows come from two statements
    /// merged by row key, not from one join that looked up each day's rows: 2,000 saves of one day
    /// (seven of them counting 256 waiting days each) took 523.0 million instructions, 529.6 million
    /// with the join.
    ///
    /// To be called before the transaction deletes a day row: SQLite gives a new row the key after
    /// the last one, so the key of a deleted last row goes to the next day inserted, which
    /// ``addNewDay(_:in:)`` counts, and which would be counted again here.
    mutating func countWaitingDays(in connection: Connection) throws {
        guard !hasCountedWaitingDays else { return }
        hasCountedWaitingDays = true
        finishCounting()
        let firstKeyAfter = try isMarkCorroborated(in: connection)
            ? talliedThrough : max(0, min(talliedThrough, lastDayBefore) - TalliedThrough.waitingRowKeyLimit)
        guard lastDayBefore > firstKeyAfter else { return }
        // The days (a `LEFT JOIN`: a day with no totals row, another program's, comes with NULL
        // there) and, beside them, the exercise rows of their row keys, both in key order, merged
        // here: one pass along the exercises' primary key, where a join looked each day's rows up
        // (stepping the rows of 1,792 waiting days: 19.1 million instructions, 26.8 million with
        // the join). A row whose key is no day read (a day marked stale; another program's row of no
        // day, or of a key that is no integer, which no day row's key equals) is passed over.
        let days = try connection.cachedStatement("""
            SELECT d.pk, d.day, \(Self.totalledExercises("t.exercises"))
            FROM exercise_days AS d LEFT JOIN exercise_day_totals AS t ON t.day = d.day
            WHERE d.pk > ?1 AND d.pk <= ?2 AND d.day NOT IN (SELECT day FROM exercise_tallies_stale) ORDER BY d.pk
            """)
        let exercises = try connection.cachedStatement("""
            SELECT day_pk, name FROM exercises WHERE day_pk > ?1 AND day_pk <= ?2 AND typeof(day_pk) = 'integer'
            ORDER BY day_pk, position
            """)
        defer { days.reset(); exercises.reset() }
        for statement in [days, exercises] {
            try statement.bind(firstKeyAfter, at: 1)
            try statement.bind(lastDayBefore, at: 2)
        }
        var names: [String] = []
        var recounted: [Int64] = []
        var counted: [CalendarDay] = []
        var monthDays = MonthDays.Reader()
        var exerciseDayKey: Int64? = try exercises.step() ? try exercises.column(0) : nil
        while try days.step() {
            let key: Int64 = try days.column(0)
            names.removeAll(keepingCapacity: true)
            while let rowKey = exerciseDayKey, rowKey <= key {
                if rowKey == key, let name: String = try exercises.column(1) { names.append(name) }
                exerciseDayKey = try exercises.step() ? try exercises.column(0) : nil
            }
            guard let calendarDay = try Self.calendarDay(days, at: 1) else { continue }
            if try monthDays.isSet(calendarDay, in: connection) == true {
                if key > talliedThrough { recounted.append(key) }
            } else if try days.column(2) != Int64(names.count) {
                recounted.append(key)
            } else if !names.isEmpty {
                _ = counts.add(names, on: calendarDay)
                counted.append(calendarDay)
            }
        }
        days.reset()
        exercises.reset()
        try MonthDays.add(counted.sorted(), in: connection)
        for key in recounted { try Self.markStale(dayKey: key, in: connection) }
    }

    /// Whether the month days bear the mark out: it is at most the last day row's key, and the day
    /// row at it, the last one counted, has its bit (every day Logbook saves has an exercise). A
    /// mark above every row key (another program's deletion of the last day rows leaves one too),
    /// at a row key no day has, or at a day that waited is not.
    private func isMarkCorroborated(in connection: Connection) throws -> Bool {
        guard talliedThrough <= lastDayBefore else { return false }
        guard talliedThrough > 0 else { return true }
        let dayAtMark = try connection.cachedStatement("SELECT day FROM exercise_days WHERE pk = ?")
        defer { dayAtMark.reset() }
        try dayAtMark.bind(talliedThrough, at: 1)
        guard try dayAtMark.step() else { return false }
        // A text that is no calendar day has no bit (`check` names it).
        guard let day = try Self.calendarDay(dayAtMark, at: 0) else { return true }
        var monthDays = MonthDays.Reader()
        return try monthDays.isSet(day, in: connection) != false
    }

    /// SQL of the number of exercises that the day totals' `exercises` value (`column`, NULL for
    /// no totals row) counts, to compare with a count of rows as `IS` would: 0 without a row, -1
    /// for a value that is no whole number (another program's), which no count equals.
    private static func totalledExercises(_ column: String) -> String {
        """
        CASE WHEN \(column) IS NULL THEN 0 WHEN typeof(\(column)) IN ('integer', 'real') AND \(column) = CAST(\(column) AS INTEGER)
             THEN CAST(\(column) AS INTEGER) ELSE -1 END
        """
    }

    /// The day in the 0-based column `index`, nil when it holds no calendar day (another
    /// program's text or value, as ``StoredValueAudit/isCalendarDay(_:)`` tells).
    private static func calendarDay(_ statement: Statement, at index: Int32) throws -> CalendarDay? {
        do {
            return try CalendarDay.read(from: statement.handle, at: index)
        } catch is ColumnConversionError {
            return nil
        }
    }

    /// Writes the pending day totals, adds the counted tallies to the month and year tables
    /// (period by period, so that each B-tree is written front to back; a month or year with no
    /// tally row yet, a bulk import's usual case, by plain inserts, which need no statement
    /// journal), then writes the totals of
    /// every week, month and year they touched: from memory for a period that had no totals before
    /// this (a bulk import's case: no row read back; a week only when counted in one visit, see
    /// ``NewDayCounts/weekTotals``), else recomputed from the tables (``PeriodTotals``).
    private mutating func writeAdditions(in connection: Connection) throws {
        finishCounting()
        try writeDayTotals(tallied: true, in: connection)
        isWritingTallies = true
        countUncountedDays()
        try countWaitingDays(in: connection)
        counts.closeOpenPeriods()
        guard !counts.tallies.isEmpty else { return }
        let (keys, spellings) = (counts.keys, counts.spellings)
        var months: [(key: NewDayCounts.Key, tally: NewDayCounts.Tally)] = []
        var years: [(key: NewDayCounts.Key, tally: NewDayCounts.Tally)] = []
        var summaries: [PeriodStart: NewDayCounts.NameSummary] = [:]
        for (key, tally) in counts.tallies {
            summaries[key.period, default: NewDayCounts.NameSummary()].add(tally, key: key.name, keys: keys)
            if key.period.period == .month { months.append((key, tally)) } else { years.append((key, tally)) }
        }
        for (period, rows) in [(ReportPeriod.month, months), (.year, years)] {
            let tallied = try Self.periodsWithTallies(Set(rows.map(\.key.period)), of: period, in: connection)
            let ordered = Self.inPeriodOrder(rows)
            let addition = { (entry: (key: NewDayCounts.Key, tally: NewDayCounts.Tally)) in
                TallyAddition(start: entry.key.period.start, key: keys[entry.key.name], name: spellings[entry.tally.spelling],
                              exercises: entry.tally.exercises, days: entry.tally.days,
                              firstDay: entry.tally.firstDay, lastDay: entry.tally.lastDay)
            }
            try Self.insert(ordered.filter { !tallied.contains($0.key.period) }, into: period, in: connection, as: addition)
            try Self.add(ordered.filter { tallied.contains($0.key.period) }, to: period, in: connection, as: addition)
        }
        let storedActiveDays = try PeriodTotals.storedActiveDays(of: Array(counts.activeDays.keys), in: connection)
        var newTotals: [PeriodTotals.Row] = []
        for (period, added) in counts.activeDays {
            let stored = storedActiveDays[period]
            if period.period == .week {
                if stored == nil, let totals = counts.weekTotals[period] {
                    newTotals.append(totals)
                } else {
                    try PeriodTotals.refresh(period, in: connection)
                }
            } else if let stored {
                try PeriodTotals.refresh(period, adding: added, to: stored, in: connection)
            } else if let totals = summaries[period]?.totals(of: period, activeDays: added, spellings: spellings) {
                newTotals.append(totals)
            }
        }
        try PeriodTotals.insert(newTotals.sorted { $0.period < $1.period }, in: connection)
        counts.removeAll()
    }

    /// `rows` in the order of their periods, as the tally tables' keys run (within a period, in
    /// the order given): sorted as one integer a row, the period's ``PeriodStart/packed`` above the
    /// row's place. (Sorting the rows themselves, nine words each, through a closure cost a bulk
    /// import of 200,000 days 270 million instructions.)
    private static func inPeriodOrder(_ rows: [(key: NewDayCounts.Key, tally: NewDayCounts.Tally)])
        -> [(key: NewDayCounts.Key, tally: NewDayCounts.Tally)] {
        rows.indices.map { rows[$0].key.period.packed << 32 | $0 }.sorted().map { rows[$0 & 0xFFFF_FFFF] }
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
            DELETE FROM exercise_month_days;
            INSERT OR IGNORE INTO exercise_tallies_stale (day) SELECT day FROM exercise_days;
            """)
        try recountMarkedDays(in: connection)
        try TalliedThrough.advance(in: connection)
    }

    /// For each derived table, how many of its rows differ from a recount of the exercises table
    /// (rows missing, extra or with other values, each key once); every count 0 when they agree.
    /// Counted in one pass over the exercise rows (``TallyAudit``), or by the reference recount in
    /// SQL (``mismatchesBySQLRecount(in:)``) where a day, name or name key holds a value that pass
    /// does not count (another program's).
    ///
    /// The periods of the days marked stale are left out: another program changed those days (the
    /// triggers marked them), Logbook's next history write recounts every week, month and year they fall
    /// in from the exercise rows, whatever their derived rows hold, and until then reports count
    /// them from the rows (``areCurrent(in:)`` is false). ``daysAwaitingRecount(in:)`` counts them.
    static func mismatches(in connection: Connection) throws -> [(table: String, rows: Int)] {
        try TallyAudit.mismatches(in: connection) ?? mismatchesBySQLRecount(in: connection)
    }

    /// Each derived table; the key columns of it and of its recount in SQL (a row whose values
    /// changed is one key in both differences, counted once); and the column of each holding its
    /// period, with the keys of the pending periods it leaves out. Those keys are compared as
    /// stored, as the recount deletes them (a blob key is no pending period's: the recount leaves
    /// it, so it is compared).
    static let derivedTables: [(table: String, tableKey: String, recount: String, recountKey: String,
                                period: (table: String, recount: String, pending: String))] = {
        let pendingKeys = { (period: ReportPeriod) in "SELECT \(period.tallyKey(ofStart: "start")) FROM pending WHERE period = '\(period.rawValue)'" }
        return [
            ("exercise_months", "month, name_key", "months", "key, name_key", ("month", "key", pendingKeys(.month))),
            ("exercise_years", "year, name_key", "years", "key, name_key", ("year", "key", pendingKeys(.year))),
            ("exercise_day_totals", "day", "days", "day", ("day", "day", pendingKeys(.day))),
            ("exercise_period_totals", "period, start", "period_totals", "period, start", ("(period, start)", "(period, start)", "SELECT period, start FROM pending")),
            ("exercise_month_days", "start", "month_days", "start", ("start", "start", "SELECT start FROM pending WHERE period = 'month'")),
        ]
    }()

    /// The days, weeks, months and years (`period`, `start`) of the days marked stale, as SQL;
    /// only marks that are calendar days: the recount drops the others (``dropMarksOfNoCalendarDay(in:)``).
    static let pendingPeriodsSQL = ([ReportPeriod.day] + ReportPeriod.totalled).map { period in
        "SELECT '\(period.rawValue)' AS period, \(period.startSQL(of: "day")) AS start FROM exercise_tallies_stale "
            + "WHERE \(StoredValueAudit.isCalendarDay("day"))"
    }.joined(separator: " UNION ")

    /// The rows of each of ``derivedTables`` outside the pending periods, in that order.
    static func storedRowCounts(in connection: Connection) throws -> [Int] {
        let counts = derivedTables.map { "(SELECT count(*) FROM \($0.table) WHERE \($0.period.table) NOT IN (\($0.period.pending)))" }
        let statement = try connection.prepare("WITH pending AS (\(pendingPeriodsSQL)) SELECT \(counts.joined(separator: ", "))")
        _ = try statement.step()
        return try derivedTables.indices.map { try statement.column($0) }
    }

    /// ``mismatches(in:)`` by the reference recount in SQL: each derived table recounted from the
    /// exercise rows as ``rebuild(in:)`` writes it, and compared with the stored rows both ways.
    static func mismatchesBySQLRecount(in connection: Connection) throws -> [(table: String, rows: Int)] {
        // The waiting days (``TalliedThrough``) have day totals, and no part in the other tallies
        // (nor in the month days) yet.
        let recounts = ReportPeriod.totalled.map { period in
            "\(period.rawValue)s AS (\(tallyCounts(period, days: "tallied_days")))"
        }
        let periodTotals = ReportPeriod.totalled.map { period in
            PeriodTotals.totals(period, names: "(SELECT \(period.start(ofTallyKey: "key")) AS start, name_key, name, exercises FROM \(period.rawValue)s)",
                                days: "(SELECT day FROM days WHERE day IN (SELECT day FROM tallied_days))")
        }.joined(separator: " UNION ALL ")
        let differences = derivedTables.map { table, tableKey, recount, recountKey, period in
            let (stored, counted) = ("(SELECT * FROM \(table) WHERE \(period.table) NOT IN (\(period.pending)))",
                                     "(SELECT * FROM \(recount) WHERE \(period.recount) NOT IN (\(period.pending)))")
            return """
                (SELECT count(*) FROM (SELECT \(recountKey) FROM (SELECT * FROM \(counted) EXCEPT SELECT * FROM \(stored))
                                       UNION SELECT \(tableKey) FROM (SELECT * FROM \(stored) EXCEPT SELECT * FROM \(counted))))
                """
        }
        let statement = try connection.cachedStatement("""
            WITH pending AS (\(pendingPeriodsSQL)),
                 calendar_days AS (SELECT pk, day FROM exercise_days WHERE \(StoredValueAudit.isCalendarDay("day"))),
                 tallied_days AS (SELECT pk, day FROM calendar_days WHERE pk <= \(TalliedThrough.sql)),
                 \(recounts.joined(separator: ", ")), days AS (\(dayTotals(days: "calendar_days"))),
                 period_totals AS (\(periodTotals)),
                 month_days AS (\(MonthDays.rows(days: "(SELECT day FROM days WHERE day IN (SELECT day FROM tallied_days))")))
            SELECT \(differences.joined(separator: ", "))
            """)
        defer { statement.reset() }
        _ = try statement.step()
        return try derivedTables.enumerated().map { ($1.table, try statement.column($0)) }
    }

    /// The days another program changed that wait for Logbook's next history write to recount
    /// them and their periods (marked stale, calendar days); ``mismatches(in:)`` leaves their
    /// periods out.
    static func daysAwaitingRecount(in connection: Connection) throws -> Int {
        try connection.scalar("SELECT count(*) FROM exercise_tallies_stale WHERE \(StoredValueAudit.isCalendarDay("day"))", as: Int.self) ?? 0
    }

    // MARK: SQL

    /// The tally rows of `period` (a week, month or year) that the days in the `days` relation
    /// (columns `pk`, `day`) make, counted from their exercise rows: rows of the period's tally
    /// table (weeks, which have none, by the week's Monday).
    ///
    /// Here and in every recount, a join from days to their exercise rows is a `CROSS JOIN`, which
    /// SQLite runs in the order written: the days first, then their rows by key, whatever planner
    /// statistics the file holds. With a one-row logbook's (what `PRAGMA optimize` writes) it read
    /// every exercise row for each recounted period instead (`PlannerStatisticsTests`).
    private static func tallyCounts(_ period: ReportPeriod, days: String) -> String {
        """
        SELECT \(period.tallyKey(ofStart: period.startSQL(of: "d.day"))) AS key, e.name_key, min(e.name) AS name, count(*) AS exercises,
               count(DISTINCT d.pk) AS days, min(d.day) AS first_day, max(d.day) AS last_day
        FROM \(days) AS d CROSS JOIN exercises AS e ON e.day_pk = d.pk GROUP BY 1, 2
        """
    }

    /// Totals of the days in the `days` relation, as rows of `exercise_day_totals`.
    private static func dayTotals(days: String) -> String {
        """
        SELECT day, sum(done), count(*), min(CASE WHEN rank = 1 THEN name END)
        FROM (SELECT day, name, done, row_number() OVER (PARTITION BY day ORDER BY done DESC, name_key) AS rank
              FROM (SELECT d.day, e.name_key, min(e.name) AS name, count(*) AS done
                    FROM \(days) AS d CROSS JOIN exercises AS e ON e.day_pk = d.pk GROUP BY d.day, e.name_key))
        GROUP BY day
        """
    }

    /// Whether the tallies and totals account for every exercise row: no day is marked stale
    /// (every update and delete, by any program, marks its day), and the years' totals and the
    /// day totals of the waiting days (``TalliedThrough``) add up to the rows (an exercise row
    /// another program inserted is the one change no trigger sees: an insert trigger would cost
    /// every import its own rows, measured at 60% more CPU).
    ///
    /// The years' totals stand for every other total: Logbook counts a row into its day, week,
    /// month and year together, and the one count that reads a year's rows anew, the recount of a
    /// stale day's year, first marks stale the days of that year whose totals miss rows
    /// (``markMiscountedDaysOfStaleYears(in:)``), so a year never counts a row its day does not.
    /// One count of the rows and one row per year read (the days' totals, summed before, were a
    /// row per day: 0.2 s of every report on a file of 10 million exercises), once per connection
    /// until the file changes (``Connection/valueWhileUnchanged(_:_:)``).
    static func areCurrent(in connection: Connection) throws -> Bool {
        try connection.valueWhileUnchanged("ExerciseTallies.areCurrent") {
            let statement = try connection.cachedStatement(currentCheck)
            defer { statement.reset() }
            guard try statement.step() else { return false }
            return try statement.column(0, as: Bool.self)
        }
    }

    /// The SQL of ``areCurrent(in:)``: true when no day is marked stale, the exercise rows are as
    /// many as the years' totals and the waiting days' totals count, and no day above the mark
    /// has its bit in the month days (``MonthDays``), as only a tallied day does: a mark another
    /// program lowered shows tallied days waiting, counted twice, which exercise rows it inserted
    /// in the same write (no trigger sees an insert) could balance in the count (helper-60).
    /// Logbook's own writes leave at most ``TalliedThrough/waitingRowKeyLimit`` days above the
    /// mark, each read by its row key; a lowered mark's first tallied day ends the search.
    ///
    /// The rows are counted in the table itself (`NOT INDEXED`), not in the name index SQLite
    /// would choose for having fewer pages. SQLite reads either B-tree a page at a time, but the
    /// table's pages lie in the file in about the order the count reads them (new days take
    /// higher row keys, and a day's rows are keyed by its row key), so when the file is not in the
    /// OS's cache its read-ahead fetches them by the run; the name index grows at one point per
    /// name, so each name's pages are spread over the whole file and read 4 KiB at a time. On 10M
    /// exercises (`sqlite3` shell): cold, 0.84 to 1.26 s against 2.8 to 3.1 s; warm, 0.083 s
    /// against 0.062 s.
    static let currentCheck = """
        SELECT NOT EXISTS (SELECT 1 FROM exercise_tallies_stale)
           AND (SELECT count(*) FROM exercises NOT INDEXED)
               = (SELECT coalesce(sum(exercises), 0) FROM exercise_period_totals WHERE period = 'year')
                 + (SELECT coalesce(sum(t.exercises), 0) FROM exercise_days AS d JOIN exercise_day_totals AS t ON t.day = d.day
                    WHERE d.pk > \(TalliedThrough.sql))
           AND NOT EXISTS (SELECT 1 FROM exercise_days AS d WHERE d.pk > \(TalliedThrough.sql) AND \(MonthDays.isSetSQL("d.day")))
        """

    /// Recounts the days, months and years (and the weeks', months' and years' totals) of the days
    /// marked stale, and clears the marks, after logging those days (a recount would hide exercise
    /// rows another program added to them from the change feed, ``UnloggedDayChanges``); the
    /// waiting days are counted first (a recount reads whole months and years, theirs included).
    static func recountStaleDays(in connection: Connection) throws {
        guard try isAnyDayStale(in: connection) else { return }
        var tallies = try ExerciseTallies(in: connection)
        try tallies.apply(in: connection)
    }

    private static func isAnyDayStale(in connection: Connection) throws -> Bool {
        let anyStale = try connection.cachedStatement("SELECT EXISTS (SELECT 1 FROM exercise_tallies_stale)")
        defer { anyStale.reset() }
        return try anyStale.step() && anyStale.column(0, as: Bool.self)
    }

    /// ``recountStaleDays(in:)`` once the waiting days are counted.
    private static func recountMarkedStaleDays(in connection: Connection) throws {
        guard try isAnyDayStale(in: connection) else { return }
        try markMiscountedDaysOfStaleYears(in: connection)
        try UnloggedDayChanges.logStaleDays(in: connection)
        try recountMarkedDays(in: connection)
    }

    /// Marks stale every day of a stale day's year whose totals do not count its exercise rows
    /// (rows another program inserted, which no trigger marks). The recount reads the whole year's
    /// rows into the year's tallies and totals; without this it would count such rows there and
    /// not in their day's, week's and month's totals, and ``areCurrent(in:)``, which compares the
    /// rows with the years, would take those stale totals for current. Marked, they are logged to
    /// the change feed and recounted with the rest.
    private static func markMiscountedDaysOfStaleYears(in connection: Connection) throws {
        let start = ReportPeriod.year.startSQL(of: "day")
        try connection.run("""
            INSERT OR IGNORE INTO exercise_tallies_stale (day)
            SELECT d.day FROM (SELECT DISTINCT \(start) AS start FROM exercise_tallies_stale) AS y
            CROSS JOIN exercise_days AS d ON d.day BETWEEN y.start AND \(ReportPeriod.year.endSQL(ofStart: "y.start"))
            WHERE \(StoredValueAudit.isCalendarDay("d.day")) AND \(isMiscounted("d"))
            """)
    }

    /// SQL that is true when the day row `day` (an alias of `exercise_days`) has another number of
    /// exercise rows than its totals count (none without a totals row): rows another program
    /// inserted, which no trigger marks.
    static func isMiscounted(_ day: String) -> String {
        """
        (SELECT count(*) FROM exercises WHERE day_pk = \(day).pk)
            IS NOT coalesce((SELECT exercises FROM exercise_day_totals WHERE day = \(day).day), 0)
        """
    }

    /// Recounts the days marked stale, as ``recountStaleDays(in:)`` without logging them. The
    /// exercise rows of those days get their keys recomputed first, so a name another program
    /// changed without its `name_key` is counted under its own name.
    private static func recountMarkedDays(in connection: Connection) throws {
        try dropMarksOfNoCalendarDay(in: connection)
        try connection.execute("""
            UPDATE exercises SET name_key = swift_key(name)
            WHERE day_pk IN (SELECT d.pk FROM exercise_tallies_stale AS s CROSS JOIN exercise_days AS d ON d.day = s.day)
              AND name_key IS NOT swift_key(name)
            """)
        // Every day of every stale month and year, found through the day index; not a text between
        // its ends that is no calendar day, which no tally counts (helper-91: a week and a year counted one).
        for period in ReportPeriod.tallied {
            let columns = "\(period.tallyColumn), name_key, name, exercises, days, first_day, last_day"
            let start = period.startSQL(of: "day")
            try connection.execute("""
                DELETE FROM \(period.tallyTable)
                WHERE \(period.tallyColumn) IN (SELECT \(period.tallyKey(ofStart: start)) FROM exercise_tallies_stale);
                INSERT INTO \(period.tallyTable) (\(columns)) \(tallyCounts(period, days: """
                    (SELECT d.pk, d.day FROM (SELECT DISTINCT \(start) AS start FROM exercise_tallies_stale) AS s
                     CROSS JOIN exercise_days AS d ON d.day BETWEEN s.start AND \(period.endSQL(ofStart: "s.start"))
                     WHERE \(StoredValueAudit.isCalendarDay("d.day")))
                    """));
                """)
        }
        try connection.execute("""
            DELETE FROM exercise_day_totals WHERE day IN (SELECT day FROM exercise_tallies_stale);
            INSERT INTO exercise_day_totals (day, exercises, distinct_exercises, top_exercise) \(dayTotals(days: """
                (SELECT d.pk, d.day FROM exercise_tallies_stale AS s CROSS JOIN exercise_days AS d ON d.day = s.day)
                """));
            """)
        try MonthDays.recount(monthsOfDaysIn: "exercise_tallies_stale", in: connection)
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

    /// Drops the stale marks whose text is no calendar day (another program deleted or moved a
    /// day row holding such text, `2026-02-30`, which `check` names): no tally counts such a day,
    /// so there is nothing to recount, and reading the mark as a day failed every history write
    /// and `repair` (helper-35).
    private static func dropMarksOfNoCalendarDay(in connection: Connection) throws {
        try connection.execute("DELETE FROM exercise_tallies_stale WHERE NOT \(StoredValueAudit.isCalendarDay("day"))")
    }

    /// Counts of one name key in one month or year, to add to its tally row (``add(_:to:in:as:)``).
    struct TallyAddition {
        /// The period's first day.
        let start: CalendarDay
        let key: String
        /// A spelling of the name, kept when smaller than the row's (UTF-8 byte order).
        let name: String
        let exercises: Int
        /// The days of the period the name was done on, the first and the last of them.
        let days: Int
        let firstDay: CalendarDay
        let lastDay: CalendarDay
    }

    /// Adds each of `rows`, made a ``TallyAddition`` by `addition`, to the tally rows of `period`
    /// (a month or a year), inserting the rows a name does not have yet.
    static func add<Rows: Collection>(_ rows: Rows, to period: ReportPeriod, in connection: Connection,
                                      as addition: (Rows.Element) -> TallyAddition) throws {
        try write(rows, with: \.addition, of: period, in: connection, as: addition)
    }

    /// Inserts each of `rows`, made a ``TallyAddition`` by `addition`, as a tally row of `period`
    /// (a month or a year): for months and years that have no tally row (``periodsWithTallies(_:of:in:)``),
    /// each name once. Unlike ``add(_:to:in:as:)``, a batch of them needs no statement journal
    /// (an upsert's `DO UPDATE` may abort; see ``ReplacingRowBatch``); a row already stored fails it.
    static func insert<Rows: Collection>(_ rows: Rows, into period: ReportPeriod, in connection: Connection,
                                         as addition: (Rows.Element) -> TallyAddition) throws {
        try write(rows, with: \.insert, of: period, in: connection, as: addition)
    }

    /// The months or years (`period`) among `periods` that have a tally row stored.
    static func periodsWithTallies(_ periods: Set<PeriodStart>, of period: ReportPeriod, in connection: Connection) throws -> Set<PeriodStart> {
        var tallied = Set<PeriodStart>()
        try TallyWrites.of(period).lookup.run(periods, in: connection) { period, statement, parameter in
            try statement.bind(period.start, at: parameter)
        } use: { statement in
            while try statement.step() { tallied.insert(PeriodStart(period: period, start: try statement.column(0))) }
        }
        return tallied
    }

    /// Runs the tally statement `batch` of `period` over `rows`, each bound as its ``TallyAddition``.
    private static func write<Rows: Collection>(_ rows: Rows, with batch: KeyPath<TallyWrites, RowBatch>, of period: ReportPeriod,
                                                in connection: Connection, as addition: (Rows.Element) -> TallyAddition) throws {
        try TallyWrites.of(period)[keyPath: batch].run(rows, in: connection) { row, statement, first in
            let row = addition(row)
            try statement.bind(period.tallyKey(of: row.start), at: first)
            try statement.bind(row.key, at: first + 1)
            try statement.bind(row.name, at: first + 2)
            try statement.bind(row.exercises, at: first + 3)
            try statement.bind(row.days, at: first + 4)
            try statement.bind(row.firstDay, at: first + 5)
            try statement.bind(row.lastDay, at: first + 6)
        }
    }

    /// The statements that write a month's or year's tally rows, a row each: the period's key,
    /// the name key, the spelling, the count, the days, the first and last of them.
    private struct TallyWrites {
        /// The upsert that adds counts to the rows, inserting those missing.
        let addition: RowBatch
        /// The insert of rows that are not stored.
        let insert: RowBatch
        /// Of the periods' first days, those that have a tally row stored.
        let lookup: RowBatch

        static func of(_ period: ReportPeriod) -> TallyWrites {
            switch period {
            case .month: month
            case .year: year
            case .day, .week: preconditionFailure("only months and years are tallied per name (migration 0012)")
            }
        }

        private static let month = TallyWrites(.month)
        private static let year = TallyWrites(.year)

        private init(_ period: ReportPeriod) {
            let (table, column) = (period.tallyTable, period.tallyColumn)
            let columns = "(\(column), name_key, name, exercises, days, first_day, last_day) VALUES"
            let row = "(?, ?, ?, ?, ?, ?, ?)"
            addition = RowBatch("INSERT INTO \(table) \(columns)", row: row, parametersPerRow: 7, """
                ON CONFLICT (\(column), name_key) DO UPDATE SET name = min(name, excluded.name),
                    exercises = exercises + excluded.exercises, days = days + excluded.days,
                    first_day = min(first_day, excluded.first_day), last_day = max(last_day, excluded.last_day)
                """)
            insert = RowBatch("INSERT OR FAIL INTO \(table) \(columns)", row: row, parametersPerRow: 7)
            lookup = RowBatch("SELECT s.column1 FROM (VALUES", row: "(?)", parametersPerRow: 1, """
                ) AS s WHERE EXISTS (SELECT 1 FROM \(table) WHERE \(column) = \(period.tallyKey(ofStart: "s.column1")))
                """)
        }
    }

    /// A name key of a day's exercises, its smallest spelling, and how often it occurs that day.
    typealias DistinctName = (key: String, name: String, count: Int)

    /// The top exercise of a day or period: the most done, the smallest name key (in UTF-8 byte
    /// order, as SQLite compares text) among equals; nil for none.
    static func mostDone(_ names: [DistinctName]) -> DistinctName? {
        mostDone(names, count: \.count, key: \.key)
    }

    /// The top exercise of `names`, each done `count` times with name key `key`: the rule of
    /// ``mostDone(_:)`` for names held in another form.
    static func mostDone<Name>(_ names: [Name], count: (Name) -> Int, key: (Name) -> String) -> Name? {
        names.min { isDoneMore(count($0), key: key($0), than: count($1), key: key($1)) }
    }

    /// Whether a name done `count` times with name key `key` ranks above one done `otherCount` times
    /// with `otherKey` as the top exercise: done more, or as often with the smaller key.
    static func isDoneMore(_ count: Int, key: String, than otherCount: Int, key otherKey: String) -> Bool {
        count != otherCount ? count > otherCount : key.precedesInUTF8(otherKey)
    }
}
