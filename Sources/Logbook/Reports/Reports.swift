import Foundation
import SQLiteQuery

/// The reports of `logbook report`, for app code: each reads the tallies (one row per period
/// printed) or runs its aggregates in the database, its rows handed over as they are stepped.
/// Ranges are inclusive calendar days.
///
/// Reports are exact whoever wrote the file: when another program's writes left the tallies
/// behind the exercise rows, the history and exercise reports count the rows themselves (slower)
/// until Logbook next writes or `repair` runs, and change nothing meanwhile.
public struct Reports: Sendable {
    let database: Database
    let timeZone: TimeZone

    /// Activity per period from `from` to `to` (default: the first to the last recorded day).
    /// Periods inside the range with no exercise appear with zeros.
    ///
    /// Days come from the day totals, whole weeks, months and years from the period totals, and a
    /// first or last period that the range cuts a recorded day off, or one holding a day saved by a small write that
    /// waits to be tallied, is counted from the exercise rows of its days in the range; when the
    /// tallies are behind the rows, everything is counted from the rows.
    public func history(by period: ReportPeriod = .week, from: CalendarDay? = nil, to: CalendarDay? = nil,
                        _ body: (HistoryReportRow) throws -> Void) throws {
        try database.read { connection in
            let bounds = try connection.cachedStatement(ReportSQL.historyBounds)
            defer { bounds.reset() }
            try bounds.bind(from, at: 1)
            try bounds.bind(to, at: 2)
            guard try bounds.step(), let first: CalendarDay = try bounds.column(0), let last: CalendarDay = try bounds.column(1),
                  first <= last else { return }
            bounds.reset()
            var calendar = HistoryCalendar(period, from: first, through: last)
            for (sql, range) in try Self.historyQueries(period, from: first, through: last, in: connection) {
                let statement = try connection.cachedStatement(sql)
                defer { statement.reset() }
                try statement.bind(range.lowerBound, at: 1)
                // The tallied queries leave the range's end to this loop.
                if statement.parameterCount > 1 { try statement.bind(range.upperBound, at: 2) }
                // Every row's period starts on or before the start of the range's last period.
                let lastText = Array(period.start(of: range.upperBound).description.utf8)
                // Every row is a period with an exercise: a day's active days are 1, and its top
                // exercise is never NULL (read as `String`, one column lookup and no optional's).
                while try statement.step() {
                    guard let start = try CalendarDay.read(from: statement.handle, at: 0, notAfter: lastText) else { break }
                    try calendar.add(start: start, activeDays: period == .day ? 1 : try statement.column(1),
                                     exercises: try statement.column(2), distinctExercises: try statement.column(3),
                                     topExercise: try statement.column(4, as: String.self), to: body)
                }
            }
            try calendar.finish(to: body)
        }
    }

    /// The queries of a history report over `first...last` and the days each covers, in order:
    /// whole periods from their totals, but those holding a day that waits to be tallied
    /// (``TalliedThrough``) and a first or last period the range cuts a recorded day off,
    /// counted from the rows.
    private static func historyQueries(_ period: ReportPeriod, from first: CalendarDay, through last: CalendarDay,
                                       in connection: Connection) throws -> [(sql: String, days: ClosedRange<CalendarDay>)] {
        guard try ExerciseTallies.areCurrent(in: connection) else {
            try refuseRowsCountingCannotRead(in: first...last, connection)
            return [(ReportSQL.countedHistory(period, tallied: false), first...last)]
        }
        guard let whole = period == .day ? first...last : try wholePeriods(period, countingExactly: first...last, connection) else {
            return [(ReportSQL.countedHistory(period, tallied: true), first...last)]
        }
        var queries: [(sql: String, days: ClosedRange<CalendarDay>)] = []
        func add(_ days: ClosedRange<CalendarDay>, tallied: Bool) {
            let sql = tallied ? ReportSQL.talliedHistory(period) : ReportSQL.countedHistory(period, tallied: true)
            if let previous = queries.last, previous.sql == sql, previous.days.upperBound.adding(days: 1) == days.lowerBound {
                queries[queries.count - 1].days = previous.days.lowerBound...days.upperBound
            } else {
                queries.append((sql, days))
            }
        }
        if first < whole.lowerBound, let end = whole.lowerBound.adding(days: -1) { add(first...end, tallied: false) }
        // The day totals count the waiting days too.
        var next: CalendarDay? = whole.lowerBound
        if period != .day {
            for start in try waitingPeriods(period, in: whole, connection) {
                guard let from = next else { break }
                if from < start, let end = start.adding(days: -1) { add(from...end, tallied: true) }
                let end = period.end(ofPeriodStartingOn: start)
                add(start...end, tallied: false)
                next = end.adding(days: 1)
            }
        }
        if let from = next, from <= whole.upperBound { add(from...whole.upperBound, tallied: true) }
        if whole.upperBound < last, let start = whole.upperBound.adding(days: 1) { add(start...last, tallied: false) }
        return queries
    }

    /// The days of the periods whose totals count exactly the days of `days` that hold a record,
    /// nil when there is none: the periods inside `days`, and a first or last period the range
    /// cuts when no recorded day lies in the part of it left out. So a report over the whole
    /// history (or over a range no record lies beyond within its end periods) reads its first and
    /// last periods from their totals too: counted from the rows, a year of 10,000,000 exercises
    /// took 10 s (helper-31).
    private static func wholePeriods(_ period: ReportPeriod, countingExactly days: ClosedRange<CalendarDay>,
                                     _ connection: Connection) throws -> ClosedRange<CalendarDay>? {
        let start = period.start(of: days.lowerBound)
        let end = period.end(ofPeriodStartingOn: period.start(of: days.upperBound))
        var lower = days.lowerBound, upper = days.upperBound
        if let before = days.lowerBound.adding(days: -1), start <= before, try !holdsRecordedDay(start...before, connection) { lower = start }
        if let after = days.upperBound.adding(days: 1), after <= end, try !holdsRecordedDay(after...end, connection) { upper = end }
        return period.wholePeriods(from: lower, through: upper)
    }

    /// Whether a day record lies in `days`.
    private static func holdsRecordedDay(_ days: ClosedRange<CalendarDay>, _ connection: Connection) throws -> Bool {
        let statement = try connection.cachedStatement(ReportSQL.recordedDayBetween)
        defer { statement.reset() }
        try statement.bind(days.lowerBound, at: 1)
        try statement.bind(days.upperBound, at: 2)
        return try statement.step()
    }

    /// Throws, naming it, when a report counted from the rows of `days` (the tallies behind them)
    /// would count a value Logbook cannot read: a day that is no calendar day, or an exercise name
    /// that is not UTF-8 text (another program's; counted as a name of its own and never the top
    /// exercise, it made a history report's numbers wrong with exit 0). While the tallies are
    /// current no such value is counted: Logbook's recount, which makes them current, refuses it.
    private static func refuseRowsCountingCannotRead(in days: ClosedRange<CalendarDay>, _ connection: Connection) throws {
        try refuseDaysThatAreNoCalendarDays(in: days, connection)
        let names = try connection.cachedStatement(ReportSQL.firstUnreadableName)
        defer { names.reset() }
        try names.bind(days.lowerBound, at: 1)
        try names.bind(days.upperBound, at: 2)
        guard try names.step() else { return }
        let (day, position, bytes): (String, Int64, String) = (try names.column(0), try names.column(1), try names.column(2))
        throw LogbookError.unreadableValue(path: connection.path, detail: "exercises.name of \(day) at position \(position) is not "
                                           + "TEXT holding UTF-8: \(bytes)")
    }

    /// Throws, naming it, when a recorded day with an exercise in `days` holds text that is no
    /// calendar day (another program's): counted from the rows, it would be counted in a period
    /// SQL makes up for it. (While the tallies are current no such day has an exercise: the
    /// tallies leave it out, so its rows would make them behind.)
    private static func refuseDaysThatAreNoCalendarDays(in days: ClosedRange<CalendarDay>, _ connection: Connection) throws {
        let statement = try connection.cachedStatement(ReportSQL.firstDayThatIsNoCalendarDay(boundedBelow: days.lowerBound != .first,
                                                                                            boundedAbove: days.upperBound != .last))
        defer { statement.reset() }
        if days.lowerBound != .first { try statement.bind(days.lowerBound, at: 1) }
        if days.upperBound != .last { try statement.bind(days.upperBound, at: 2) }
        // Reading it as a day throws the error every other reader of the day column throws.
        if try statement.step() { _ = try CalendarDay.read(from: statement.handle, at: 0) }
    }

    /// The first days of the periods in `days` (whole periods) that hold a recorded day waiting
    /// to be tallied, in order.
    private static func waitingPeriods(_ period: ReportPeriod, in days: ClosedRange<CalendarDay>,
                                       _ connection: Connection) throws -> [CalendarDay] {
        let waiting = try connection.cachedStatement(ReportSQL.waitingDays)
        defer { waiting.reset() }
        try waiting.bind(days.lowerBound, at: 1)
        try waiting.bind(days.upperBound, at: 2)
        var starts = Set<CalendarDay>()
        // A text that is no calendar day (another program's) is in no period the report prints.
        while try waiting.step() {
            if let day = CalendarDay(try waiting.column(0) as String) { starts.insert(period.start(of: day)) }
        }
        return starts.sorted()
    }

    /// Every exercise name with how often and on how many days it was done, most done first.
    ///
    /// Whole years inside the range come from the year tallies, other whole months from the month
    /// tallies, the days left and the days that wait to be tallied from the exercise rows; when
    /// the tallies are behind the rows, everything is counted from the rows.
    public func exercises(from: CalendarDay? = nil, to: CalendarDay? = nil,
                          _ body: (ExerciseReportRow) throws -> Void) throws {
        let first = from ?? .first, last = to ?? .last
        guard first <= last else { return }
        let range = first...last
        try database.read { connection in
            let tallied = try ExerciseTallies.areCurrent(in: connection)
            if !tallied { try Self.refuseRowsCountingCannotRead(in: range, connection) }
            let months = tallied ? ReportPeriod.month.wholePeriods(from: range.lowerBound, through: range.upperBound) : nil
            let years = tallied ? ReportPeriod.year.wholePeriods(from: range.lowerBound, through: range.upperBound) : nil
            let days = Self.split(range, around: months)
            let monthsLeft = months.map { Self.split($0, around: years) } ?? (before: nil, after: nil)
            let statement = try connection.cachedStatement(ReportSQL.exercises(tallied: tallied))
            defer { statement.reset() }
            for (index, part) in [days.before, days.after, monthsLeft.before, monthsLeft.after, years].enumerated() {
                try statement.bind(part?.lowerBound, at: 2 * index + 1)
                try statement.bind(part?.upperBound, at: 2 * index + 2)
            }
            while try statement.step() {
                try body(ExerciseReportRow(exercise: try statement.column(0), count: try statement.column(1),
                                           days: try statement.column(2), firstDay: try statement.column(3),
                                           lastDay: try statement.column(4)))
            }
        }
    }

    /// The days of `range` before and after `inner` (which lies inside it), each nil when there are
    /// none; all of `range` when `inner` is nil.
    private static func split(_ range: ClosedRange<CalendarDay>, around inner: ClosedRange<CalendarDay>?)
        -> (before: ClosedRange<CalendarDay>?, after: ClosedRange<CalendarDay>?) {
        guard let inner else { return (range, nil) }
        let before = inner.lowerBound.adding(days: -1).flatMap { range.lowerBound <= $0 ? range.lowerBound...$0 : nil }
        let after = inner.upperBound.adding(days: 1).flatMap { $0 <= range.upperBound ? $0...range.upperBound : nil }
        return (before, after)
    }

    /// The current and longest streaks of days in `from...to`, as of `asOf` (default: today in the
    /// store's time zone). Days after `asOf` do not count.
    ///
    /// A streak counts days with an exercise (a day record another program emptied breaks it).
    /// The days are read a month at a time, each month's as the bits of one integer (migration
    /// 0018), so a history of 5,500 years reads 66,000 rows whatever its gaps; when the tallies are
    /// behind the rows, from the day records that have an exercise row (an index lookup per day).
    public func streaks(from: CalendarDay? = nil, to: CalendarDay? = nil, asOf: CalendarDay? = nil) throws -> StreakReport {
        let asOf = asOf ?? CalendarDay(Date(), in: timeZone)
        let last = min(to ?? asOf, asOf)
        var runs = StreakRuns()
        if let from, from > last { return runs.report(asOf: asOf) }
        return try database.read { connection in
            if try ExerciseTallies.areCurrent(in: connection) {
                try Self.forEachRunOfDaysByMonth(from: from ?? .first, through: last, in: connection) { runs.add($0) }
            } else {
                let days = try connection.cachedStatement(ReportSQL.streakDays)
                defer { days.reset() }
                // From the first day stored, so that one before 0001-01-01, which no day can be, is read and refused.
                try days.bind(from?.description ?? "", at: 1)
                try days.bind(last, at: 2)
                while try days.step() { runs.add(try days.column(0)) }
            }
            return runs.report(asOf: asOf)
        }
    }

    /// Calls `body` with each run of consecutive days with an exercise (by the day totals) in
    /// `first...last`, in order, from the months' rows of `exercise_month_days` and the days that
    /// wait to be tallied, which have no bit there yet; a run that goes on into the next month
    /// comes as two.
    private static func forEachRunOfDaysByMonth(from first: CalendarDay, through last: CalendarDay, in connection: Connection,
                                                _ body: (ClosedRange<CalendarDay>) throws -> Void) throws {
        var waiting = try waitingMonthDays(from: first, through: last, in: connection)[...]
        let months = try connection.cachedStatement(ReportSQL.monthDays)
        defer { months.reset() }
        try months.bind(ReportPeriod.month.start(of: first), at: 1)
        try months.bind(last, at: 2)
        while try months.step() {
            let start: CalendarDay = try months.column(0)
            let end = ReportPeriod.month.end(ofPeriodStartingOn: start)
            let value: DatabaseValue = try months.column(1)
            guard case .integer(let stored) = value, stored > 0, stored >> end.day == 0 else {
                throw ColumnConversionError(column: "exercise_month_days.days",
                                            expected: "the days of \(ReportPeriod.month.label(ofPeriodStartingOn: start)) as bits, "
                                                + "an integer from 1 to 2^\(end.day) - 1",
                                            found: value.foundText)
            }
            while let month = waiting.first, month.start < start {
                try forEachRun(inMonthStarting: month.start, days: month.days, from: first, through: last, body)
                waiting.removeFirst()
            }
            var days = Int(stored)
            if let month = waiting.first, month.start == start {
                days |= month.days
                waiting.removeFirst()
            }
            try forEachRun(inMonthStarting: start, days: days, from: first, through: last, body)
        }
        for month in waiting { try forEachRun(inMonthStarting: month.start, days: month.days, from: first, through: last, body) }
    }

    /// The days with an exercise in `first...last` that wait to be tallied, as ``MonthDays``' bits
    /// of their months, in order of month (a text that is no calendar day, another program's, is
    /// in no month).
    private static func waitingMonthDays(from first: CalendarDay, through last: CalendarDay,
                                         in connection: Connection) throws -> [(start: CalendarDay, days: Int)] {
        let statement = try connection.cachedStatement(ReportSQL.waitingDaysWithTotals)
        defer { statement.reset() }
        try statement.bind(first, at: 1)
        try statement.bind(last, at: 2)
        var months: [CalendarDay: Int] = [:]
        while try statement.step() {
            if let day = CalendarDay(try statement.column(0) as String) {
                months[ReportPeriod.month.start(of: day), default: 0] |= MonthDays.bit(of: day)
            }
        }
        return months.map { (start: $0.key, days: $0.value) }.sorted { $0.start < $1.start }
    }

    /// Calls `body` with each run of consecutive days among `days` (``MonthDays``' bits of the
    /// month starting `start`) that lies in `first...last`, in order.
    private static func forEachRun(inMonthStarting start: CalendarDay, days: Int, from first: CalendarDay, through last: CalendarDay,
                                   _ body: (ClosedRange<CalendarDay>) throws -> Void) throws {
        var days = days
        // The days of the range only: none before `first`, none after `last`.
        if start < first { days &= ~(MonthDays.bit(of: first) - 1) }
        if ReportPeriod.month.end(ofPeriodStartingOn: start) > last { days &= MonthDays.bit(of: last) << 1 - 1 }
        while days != 0 {
            let firstDay = days.trailingZeroBitCount
            let length = (~(days >> firstDay)).trailingZeroBitCount
            try body(CalendarDay(year: start.year, month: start.month, day: firstDay + 1)!
                     ... CalendarDay(year: start.year, month: start.month, day: firstDay + length)!)
            days &= ~((1 << (firstDay + length)) - 1)
        }
    }

    /// Every draft created in `from...to` (days in the store's time zone, as its wall calendar
    /// showed them), in the order stored.
    public func drafts(from: CalendarDay? = nil, to: CalendarDay? = nil, _ body: (DraftReportRow) throws -> Void) throws {
        // Usually one range of instants; more where the clock went back across midnight near an end.
        let ranges = ProlepticGregorian.instants(fromDay: from?.dayNumber, throughDay: to?.dayNumber, in: timeZone)
        guard let first = ranges.first, let last = ranges.last else { return }
        try database.read { connection in
            let statement = try connection.cachedStatement(ReportSQL.drafts)
            defer { statement.reset() }
            try statement.bind(first.from, at: 1)
            try statement.bind(last.before, at: 2)
            while try statement.step() {
                let created: Double = try statement.column(6)
                guard ranges.contains(where: { created >= $0.from ?? -.infinity && created < $0.before ?? .infinity }) else { continue }
                try body(DraftReportRow(id: try statement.column(0), version: try statement.column(1),
                                        isSubmitted: try statement.column(2),
                                        submittedAt: try statement.column(3, as: Date?.self).map { try Date.stored($0, column: "submitted_at") },
                                        done: try statement.column(4), total: try statement.column(5)))
            }
        }
    }
}

extension Reports {
    /// ``history(by:from:to:_:)``'s rows as an array: `Identifiable` by period, for a `List` or a chart.
    public func history(by period: ReportPeriod = .week, from: CalendarDay? = nil, to: CalendarDay? = nil) throws -> [HistoryReportRow] {
        var rows: [HistoryReportRow] = []
        try history(by: period, from: from, to: to) { rows.append($0) }
        return rows
    }

    /// ``exercises(from:to:_:)``'s rows as an array, most done first.
    public func exercises(from: CalendarDay? = nil, to: CalendarDay? = nil) throws -> [ExerciseReportRow] {
        var rows: [ExerciseReportRow] = []
        try exercises(from: from, to: to) { rows.append($0) }
        return rows
    }

    /// ``drafts(from:to:_:)``'s rows as an array, in the order stored.
    public func drafts(from: CalendarDay? = nil, to: CalendarDay? = nil) throws -> [DraftReportRow] {
        var rows: [DraftReportRow] = []
        try drafts(from: from, to: to) { rows.append($0) }
        return rows
    }

    /// Whether the history and exercise reports read the tallies (fast), or count the exercise rows
    /// because another program's writes left the tallies behind them (exact, slower, until
    /// `Logbook.repair(dryRun:)` or Logbook's next write to the changed days).
    public func readsTallies() throws -> Bool {
        try database.read { try ExerciseTallies.areCurrent(in: $0) }
    }
}

extension Logbook {
    /// The reports: history by period, exercise totals, streaks, draft completion.
    public var reports: Reports { Reports(database: database, timeZone: timeZone) }
}
