/// Hands a history report's rows over in calendar order with every period of the range in it:
/// the queries return only the periods with an exercise, and the calendar fills the rest with
/// zeros as it goes, so nothing is generated or joined per period in SQL.
struct HistoryCalendar {
    private let period: ReportPeriod
    /// The first period not yet handed over, nil after the last.
    private var next: CalendarDay?
    private let lastStart: CalendarDay

    /// The periods that meet `first...last`.
    init(_ period: ReportPeriod, from first: CalendarDay, through last: CalendarDay) {
        self.period = period
        next = period.start(of: first)
        lastStart = period.start(of: last)
    }

    /// Hands over the empty periods before the one that starts on `start`, then that one's totals.
    /// Totals must come in order of their periods, each period at most once.
    mutating func add(start: CalendarDay, activeDays: Int, exercises: Int, distinctExercises: Int, topExercise: consuming String,
                      to body: (HistoryReportRow) throws -> Void) throws {
        // A report over a history with no gap hands over no empty period between two rows.
        if next != start { try addEmptyPeriods(before: start, to: body) }
        let row = HistoryReportRow(period: period.label(ofPeriodStartingOn: start), start: start, activeDays: activeDays,
                                   exercises: exercises, distinctExercises: distinctExercises, topExercise: topExercise)
        try body(row)
        next = period.start(after: start)
    }

    /// Hands over the empty periods left, through the last.
    mutating func finish(to body: (HistoryReportRow) throws -> Void) throws {
        try addEmptyPeriods(before: nil, to: body)
    }

    /// Hands over an empty row for each period from `next` up to `end` (exclusive; nil: through the last).
    private mutating func addEmptyPeriods(before end: CalendarDay?, to body: (HistoryReportRow) throws -> Void) throws {
        while let start = next, start <= lastStart, end.map({ start < $0 }) ?? true {
            try body(HistoryReportRow(period: period.label(ofPeriodStartingOn: start), start: start, activeDays: 0, exercises: 0,
                                      distinctExercises: 0, topExercise: nil))
            next = period.start(after: start)
        }
    }
}
