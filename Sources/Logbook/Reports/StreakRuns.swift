/// The runs of consecutive days in a list of days (or of runs of days) given in order, as `report
/// streaks` counts them: one pass, no sort.
struct StreakRuns {
    private var current: (first: CalendarDay, last: CalendarDay, length: Int)?
    private var longest: (first: CalendarDay, last: CalendarDay, length: Int)?

    /// Adds the next day, later than every day added before.
    mutating func add(_ day: CalendarDay) {
        // By the days' fields (a report of two million days steps here): two day numbers a day
        // took about 340 instructions.
        add(day, through: day, length: 1)
    }

    /// Adds the next consecutive days (each one recorded), later than every day added before.
    mutating func add(_ days: ClosedRange<CalendarDay>) {
        add(days.lowerBound, through: days.upperBound, length: days.upperBound.dayNumber - days.lowerBound.dayNumber + 1)
    }

    private mutating func add(_ first: CalendarDay, through last: CalendarDay, length: Int) {
        if let run = current, run.last.isFollowed(by: first) {
            current = (run.first, last, run.length + length)
        } else {
            closeRun()
            current = (first, last, length)
        }
    }

    /// The streaks as of `asOf`, on or after every day added: the current one is the last run
    /// when it ends on `asOf` or the day before; the longest is the latest of the longest runs.
    mutating func report(asOf: CalendarDay) -> StreakReport {
        let last = current
        closeRun()
        let alive = last.map { asOf.dayNumber - $0.last.dayNumber <= 1 } ?? false
        return StreakReport(currentStreak: alive ? last?.length ?? 0 : 0, longestStreak: longest?.length ?? 0,
                            longestStart: longest?.first, longestEnd: longest?.last, asOf: asOf)
    }

    private mutating func closeRun() {
        if let run = current, run.length >= longest?.length ?? 0 { longest = run }
        current = nil
    }
}
