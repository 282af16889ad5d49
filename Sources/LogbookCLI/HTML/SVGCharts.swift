import Logbook

/// The pictures of the HTML report as inline SVG: no script, no font or image to fetch. Colours
/// are CSS classes (`l0`…`l4`, `bar`, `streak`) so the page's style sheet (and its dark mode)
/// paints them. Every mark carries a `<title>`, which a browser shows on hover.
enum SVGCharts {
    private static let cell = 13, step = 16, left = 30, top = 16

    /// The calendar heatmap: a column per ISO week, a row per weekday (Monday first), each day
    /// shaded by ``CalendarHeatmap/level(_:maximum:)`` against the `busiest` day's exercises; the
    /// days of the longest streak outlined. Written day by day as the daily report steps them.
    static func heatmap(_ reports: Reports, from first: CalendarDay, to last: CalendarDay, busiest: Int, streaks: StreakReport,
                        into page: inout ChunkedOutput) throws {
        let monday = first.adding(days: -first.daysSinceMonday) ?? first
        let weeks = (last.dayNumber - monday.dayNumber) / 7 + 1
        let width = left + weeks * step, height = top + 7 * step
        try page.append(#"<svg class="heatmap" role="img" viewBox="0 0 \#(width) \#(height)" width="\#(width)" height="\#(height)" "#
                        + #"xmlns="http://www.w3.org/2000/svg"><title>Exercises per day, \#(first) to \#(last)</title>"#)
        for (week, month) in CalendarHeatmap.monthLabels(from: first, to: last) {
            try page.append(#"<text class="label" x="\#(left + week * step)" y="\#(top - 5)">\#(CalendarHeatmap.monthNames[month - 1])</text>"#)
        }
        for (row, name) in ["Mon", "Wed", "Fri"].enumerated() {
            try page.append(#"<text class="label" x="0" y="\#(top + row * 2 * step + cell - 1)">\#(name)</text>"#)
        }
        let streak = streaks.longestStart.flatMap { start in streaks.longestEnd.map { start...$0 } }
        try CalendarHeatmap.forEachDay(reports, from: first, to: last) { day, count in
            let x = left + (day.dayNumber - monday.dayNumber) / 7 * step, y = top + day.daysSinceMonday * step
            let marked = streak?.contains(day) == true && count > 0 ? " streak" : ""
            try page.append(#"<rect class="l\#(CalendarHeatmap.level(count, maximum: busiest))\#(marked)" x="\#(x)" y="\#(y)" "#
                            + #"width="\#(cell)" height="\#(cell)" rx="2"><title>\#(day) \#(weekdayNames[day.daysSinceMonday]): "#
                            + #"\#(plural(count, "exercise"))</title></rect>"#)
        }
        try page.append("</svg>")
    }

    /// The legend of the heatmap's shades, from none to the busiest.
    static var legend: String {
        var svg = #"<svg class="legend" viewBox="0 0 \#(5 * step) \#(cell)" width="\#(5 * step)" height="\#(cell)" "#
            + #"xmlns="http://www.w3.org/2000/svg" aria-hidden="true">"#
        for level in 0...4 {
            svg += #"<rect class="l\#(level)" x="\#(level * step)" y="0" width="\#(cell)" height="\#(cell)" rx="2"/>"#
        }
        return svg + "</svg>"
    }

    /// One bar per period of the history report by `period` from `first` to `last` (oldest first),
    /// its height the period's exercises against the busiest period's (found by a first read of
    /// the report, so that the bars stream in the second); a month named under the first period
    /// that starts in it.
    static func bars(_ reports: Reports, by period: ReportPeriod, from first: CalendarDay, to last: CalendarDay, caption: String,
                     into page: inout ChunkedOutput) throws {
        var periods = 0, maximum = 0
        try reports.history(by: period, from: first, to: last) { row in
            periods += 1
            maximum = max(maximum, row.exercises)
        }
        let plotHeight = 120, barStep = max(4, min(24, 720 / max(periods, 1)))
        let width = left + periods * barStep + 4, height = plotHeight + 36
        try page.append(#"<svg class="bars" role="img" viewBox="0 0 \#(width) \#(height)" width="\#(width)" height="\#(height)" "#
                        + #"xmlns="http://www.w3.org/2000/svg"><title>\#(HTMLText.escaped(caption))</title>"#
                        + #"<line class="axis" x1="\#(left - 2)" y1="\#(top + plotHeight)" x2="\#(width)" y2="\#(top + plotHeight)"/>"#
                        + #"<text class="label" x="0" y="\#(top + 4)">\#(maximum)</text><text class="label" x="0" y="\#(top + plotHeight)">0</text>"#)
        var index = 0, lastMonth: Int?, lastLabelX = -100
        try reports.history(by: period, from: first, to: last) { row in
            let x = left + index * barStep
            index += 1
            let barHeight = maximum > 0 ? Int((Double(row.exercises) / Double(maximum) * Double(plotHeight)).rounded()) : 0
            try page.append(#"<rect class="bar" x="\#(x)" y="\#(top + plotHeight - barHeight)" width="\#(barStep - 2)" height="\#(barHeight)">"#
                            + #"<title>\#(row.period) (from \#(row.start)): \#(plural(row.exercises, "exercise")) on \#(plural(row.activeDays, "day"))"#
                            + #"</title></rect>"#)
            if row.start.month != lastMonth {
                if (lastMonth != nil || row.start.day <= 7) && x - lastLabelX >= 28 {
                    lastLabelX = x
                    try page.append(#"<text class="label" x="\#(x)" y="\#(top + plotHeight + 14)">\#(CalendarHeatmap.monthNames[row.start.month - 1])</text>"#)
                }
                lastMonth = row.start.month
            }
        }
        try page.append("</svg>")
    }

    private static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
}
