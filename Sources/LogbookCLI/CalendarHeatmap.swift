import Foundation
import Logbook

/// `report calendar`: a year (or any range) of days as a heatmap for the terminal, one column per
/// ISO week, one row per weekday, the shade of a day from its exercise count. Colour only on a
/// terminal without `NO_COLOR`; plain Unicode blocks otherwise.
enum CalendarHeatmap {
    /// The shades of levels 0 (nothing done) to 4 (the busiest days).
    static let shades: [Character] = ["·", "░", "▒", "▓", "█"]
    /// 256-colour greens for levels 1 to 4.
    private static let colours = [22, 28, 34, 46]

    /// Calls `body` with each day from `first` to `last`, in order, and its exercises (0 for a day
    /// without any), as the daily history report steps them (a report over a range given hands over
    /// every day of it): nothing is held, however long the range.
    static func forEachDay(_ reports: Reports, from first: CalendarDay, to last: CalendarDay,
                           _ body: (_ day: CalendarDay, _ exercises: Int) throws -> Void) throws {
        try reports.history(by: .day, from: first, to: last) { row in try body(row.start, row.exercises) }
    }

    /// What a range of days adds up to: the figures a heatmap's summary and shades need first.
    struct Summary {
        /// Days with at least one exercise.
        var activeDays = 0
        /// Exercises done on them.
        var exercises = 0
        /// The exercises of the busiest day: the top of the shades.
        var busiest = 0
    }

    /// The ``Summary`` of the days from `first` to `last`, in one pass over them.
    static func summary(_ reports: Reports, from first: CalendarDay, to last: CalendarDay) throws -> Summary {
        var summary = Summary()
        try forEachDay(reports, from: first, to: last) { _, exercises in
            guard exercises > 0 else { return }
            summary.activeDays += 1
            summary.exercises += exercises
            summary.busiest = max(summary.busiest, exercises)
        }
        return summary
    }

    /// Exercises per active day from `first` to `last`, for the terminal's heatmap, which is drawn
    /// a weekday at a time.
    static func counts(_ reports: Reports, from first: CalendarDay, to last: CalendarDay) throws -> [CalendarDay: Int] {
        var counts: [CalendarDay: Int] = [:]
        try forEachDay(reports, from: first, to: last) { day, exercises in
            if exercises > 0 { counts[day] = exercises }
        }
        return counts
    }

    /// The level of a day with `count` exercises when the busiest day of the range had `maximum`:
    /// 0 for none, else 1 to 4 in equal steps of the maximum.
    static func level(_ count: Int, maximum: Int) -> Int {
        guard count > 0, maximum > 0 else { return 0 }
        return min(4, max(1, Int((Double(count) * 4 / Double(maximum)).rounded(.up))))
    }

    /// The heatmap of `counts` (exercises by day) from `first` to `last`, with month labels above,
    /// weekday labels on the left, and a legend and a summary below.
    static func render(_ counts: [CalendarDay: Int], from first: CalendarDay, to last: CalendarDay,
                       streaks: StreakReport, colour: Bool) -> String {
        let monday = first.adding(days: -first.daysSinceMonday) ?? first
        let weeks = (last.dayNumber - monday.dayNumber) / 7 + 1
        let maximum = counts.filter { $0.key >= first && $0.key <= last }.values.max() ?? 0
        var header = Array(repeating: Character(" "), count: weeks * 2)
        var lastLabelEnd = -1
        for (week, month) in monthLabels(from: first, to: last) where week * 2 > lastLabelEnd {
            // A month that begins in the last weeks is named in full past them (it was cut: `Ja`; helper-98).
            for (index, letter) in monthNames[month - 1].enumerated() {
                let column = week * 2 + index
                if column >= header.count { header.append(contentsOf: repeatElement(" ", count: column - header.count + 1)) }
                header[column] = letter
            }
            lastLabelEnd = week * 2 + 3
        }
        var lines = [String(("    " + String(header)).reversed().drop { $0 == " " }.reversed())]
        let labels = ["Mon", "", "Wed", "", "Fri", "", "Sun"]
        for weekday in 0..<7 {
            var row = labels[weekday].padding(toLength: 4, withPad: " ", startingAt: 0)
            for week in 0..<weeks {
                guard let day = monday.adding(days: week * 7 + weekday), day >= first, day <= last else {
                    row += "  "
                    continue
                }
                let shade = level(counts[day] ?? 0, maximum: maximum)
                row += cell(shade, colour: colour) + " "
            }
            lines.append(String(row.reversed().drop { $0 == " " }.reversed()))
        }
        let legend = (0..<shades.count).map { cell($0, colour: colour) }.joined(separator: " ")
        let active = counts.filter { $0.key >= first && $0.key <= last && $0.value > 0 }
        lines.append("")
        lines.append("    less \(legend) more   (busiest day: \(plural(maximum, "exercise")))")
        let exercises = active.values.reduce(0, +)
        var summary = "    \(plural(active.count, "active day")), \(plural(exercises, "exercise"))"
        if let start = streaks.longestStart, let end = streaks.longestEnd {
            summary += "; longest streak \(plural(streaks.longestStreak, "day")) (\(start) to \(end))"
        }
        summary += "; current streak \(streaks.currentStreak)"
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Short month names, January first.
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The week columns (0 = the week of `first`) that hold the 1st of a month in the range, with
    /// that month (1 to 12): where a month is named above the heatmap.
    static func monthLabels(from first: CalendarDay, to last: CalendarDay) -> [(week: Int, month: Int)] {
        let monday = first.adding(days: -first.daysSinceMonday) ?? first
        var labels: [(week: Int, month: Int)] = []
        var day = first.day == 1 ? first : CalendarDay(year: first.year, month: first.month, day: 1).flatMap { $0.adding(days: 40) }
            .flatMap { CalendarDay(year: $0.year, month: $0.month, day: 1) }
        while let start = day, start <= last {
            labels.append(((start.dayNumber - monday.dayNumber) / 7, start.month))
            day = start.adding(days: 40).flatMap { CalendarDay(year: $0.year, month: $0.month, day: 1) }
        }
        return labels
    }

    private static func cell(_ level: Int, colour: Bool) -> String {
        guard colour, level > 0 else { return String(shades[level]) }
        return "\u{1B}[38;5;\(colours[level - 1])m\(shades[level])\u{1B}[0m"
    }

}
