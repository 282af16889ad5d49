import Foundation
import SQLiteQuery

/// Exercises appended to a stored day (`logbook history add`, `addDoneExercise(_:at:)`), counted
/// in place: the day's totals, a tally row per appended name in its month and year, and the totals
/// of its week, month and year, a few rows read and written where marking the day stale
/// (``ExerciseTallies/markStale(dayKey:in:)``) recounts its whole month and year from their
/// exercise rows: under callgrind, 10.5 million instructions for one exercise appended to a day of
/// 300, most of them preparing the recount's statements, which a process that logs one exercise
/// per call pays every time.
///
/// Only for a day whose derived rows account for its exercise rows: not marked stale, and its
/// totals counting as many exercises as it has rows (another program's insert, which no trigger
/// sees, makes them differ); and only while ``TalliedThrough``'s mark is stored and at most the
/// last day row's key, since without it nothing tells which days the tallies count, and above every
/// row key it may be another program's over days that waited; and, for a day at or below the mark,
/// only when it has its bit in ``MonthDays``, which every tallied day has (a day without it waited
/// under a mark another program raised). Any other day is marked stale, so
/// that the recount logs it to the change feed first (``UnloggedDayChanges``), and, after a lost
/// mark, recounts every tally and stores the mark again, or counts the days a mark above every row
/// key hid (``ExerciseTallies/apply(in:)``). Derived rows that another program changed directly
/// are noticed only where the count reads them (a tally row missing for a name the day already
/// had); otherwise they stay as wrong as the new-day path leaves them, for `logbook check` to find
/// and `repair` to recount.
struct AppendedExercisesCount {
    private let day: CalendarDay
    /// The day's exercises before the append: each name key, its smallest spelling and count.
    private let stored: DistinctNames
    /// ``TalliedThrough``'s mark: the days above it wait to be counted in their week's, month's
    /// and year's tallies, this one included when its key is above it (then only its day totals change).
    private let talliedThrough: Int64
    private let dayKey: Int64

    /// The count of exercises done at `date`, about to be appended to `day` (row key `dayKey`),
    /// read before they are; nil when the day's derived rows do not account for its exercise rows,
    /// the mark is not stored or is above every row key, the day is at or below the mark without its
    /// bit in the month days, or `date` is earlier than the day's, which the day row then takes (and
    /// its update trigger marks the day stale).
    init?(day: CalendarDay, dayKey: Int64, doneAt date: Date, in connection: Connection) throws {
        // Compared in SQL, so that a value another program wrote into the totals (or a date it
        // stored as text, which the merge's update makes a number) sends the day to the recount.
        let state = try connection.cachedStatement("""
            SELECT NOT EXISTS (SELECT 1 FROM exercise_tallies_stale WHERE day = ?1)
               AND coalesce((SELECT exercises FROM exercise_day_totals WHERE day = ?1), 0)
                   IS (SELECT count(*) FROM exercises WHERE day_pk = ?2)
               AND coalesce((SELECT typeof(date) IN ('integer', 'real') AND date <= ?3 FROM exercise_days WHERE pk = ?2), 0),
                   \(TalliedThrough.storedWithinRowsSQL)
            """)
        defer { state.reset() }
        try state.bind(day, at: 1)
        try state.bind(dayKey, at: 2)
        try state.bind(date, at: 3)
        guard try state.step(), try state.column(0, as: Bool.self), let talliedThrough = try state.column(1, as: Int64?.self) else {
            return nil
        }
        var monthDays = MonthDays.Reader()
        guard try dayKey > talliedThrough || monthDays.isSet(day, in: connection) == true else { return nil }
        let rows = try connection.cachedStatement("SELECT name_key, name FROM exercises WHERE day_pk = ?")
        defer { rows.reset() }
        try rows.bind(dayKey, at: 1)
        var stored = DistinctNames()
        while try rows.step() { stored.add((try rows.column(0), try rows.column(1), 1)) }
        self.day = day
        self.stored = stored
        self.dayKey = dayKey
        self.talliedThrough = talliedThrough
    }

    /// Counts `names`, appended after the day's stored exercises, in the derived tables. Returns
    /// false when a tally row that the stored exercises should have is missing (derived rows that
    /// another program changed): the day then needs marking stale, for a recount.
    func count(_ names: [String], in connection: Connection) throws -> Bool {
        let appended = DistinctNames(names).entries
        var all = stored
        for name in appended { all.add(name) }
        guard let totals = NewDayCounts.DayTotals(day: day, names: all.entries) else { return true }
        let isWaiting = dayKey > talliedThrough
        try ExerciseTallies.write([totals], tallied: !isWaiting, in: connection)
        if isWaiting { return true }
        for period in ReportPeriod.tallied {
            let start = period.start(of: day)
            for name in appended {
                if stored.contains(key: name.key) {
                    // Done that day already: one more time, maybe in a smaller spelling; no more days.
                    try connection.run("""
                        UPDATE \(period.tallyTable) SET exercises = exercises + ?, name = min(name, ?)
                        WHERE \(period.tallyColumn) = \(period.tallyKey(ofStart: "?")) AND name_key = ?
                        """, [.integer(Int64(name.count)), .text(name.name), start.databaseValue, .text(name.key)])
                    guard connection.changes == 1 else { return false }
                } else {
                    try ExerciseTallies.add([name], to: period, in: connection) { name in
                        ExerciseTallies.TallyAddition(start: start, key: name.key, name: name.name, exercises: name.count,
                                                      days: 1, firstDay: day, lastDay: day)
                    }
                }
            }
        }
        // A week's totals from its days' rows; a month's and year's from their tallies, with the
        // active days they had, one more if the day had no exercise before.
        let periods = ReportPeriod.totalled.map { PeriodStart(period: $0, start: $0.start(of: day)) }
        let storedActiveDays = try PeriodTotals.storedActiveDays(of: periods, in: connection)
        for period in periods {
            if period.period != .week, let activeDays = storedActiveDays[period] {
                try PeriodTotals.refresh(period, adding: stored.entries.isEmpty ? 1 : 0, to: activeDays, in: connection)
            } else {
                // From the rows of the days the tallies count: not those that wait.
                try PeriodTotals.refresh(period, countingDaysThrough: talliedThrough, in: connection)
            }
        }
        return true
    }
}
