import Logbook

/// The pictures of the HTML report as inline SVG: no script, no font or image to fetch. Colours
/// are CSS classes (`l0`…`l4`, `bar`, `streak`) so the page's style sheet (and its dark mode)
/// paints them. Every mark carries a `<title>`, which a browser shows on hover.
enum SVGCharts {
    private static let cell = 13, step = 16, left = 30, top = 16

    /// The calendar heatmap: a column per ISO week, a row per weekday (Monday first), each day
    /// shaded by ``CalendarHeatmap/level(_:maximum:)``; the days of the longest streak outlined.
    static func heatmap(_ counts: [CalendarDay: Int], from first: CalendarDay, to last: CalendarDay, streaks: StreakReport) -> String {
        let monday = first.adding(days: -first.daysSinceMonday) ?? first
        let weeks = (last.dayNumber - monday.dayNumber) / 7 + 1
        let maximum = counts.values.max() ?? 0
        let width = left + weeks * step, height = top + 7 * step
        var svg = #"<svg class="heatmap" role="img" viewBox="0 0 \#(width) \#(height)" width="\#(width)" height="\#(height)" "#
            + #"xmlns="http://www.w3.org/2000/svg"><title>Exercises per day, \#(first) to \#(last)</title>"#
        for (week, month) in CalendarHeatmap.monthLabels(from: first, to: last) {
            svg += #"<text class="label" x="\#(left + week * step)" y="\#(top - 5)">\#(CalendarHeatmap.monthNames[month - 1])</text>"#
        }
        for (row, name) in ["Mon", "Wed", "Fri"].enumerated() {
            svg += #"<text class="label" x="0" y="\#(top + row * 2 * step + cell - 1)">\#(name)</text>"#
        }
        let streak = streaks.longestStart.flatMap { start in streaks.longestEnd.map { start...$0 } }
        var day = first
        while day <= last {
            let count = counts[day] ?? 0
            let x = left + (day.dayNumber - monday.dayNumber) / 7 * step, y = top + day.daysSinceMonday * step
            let marked = streak?.contains(day) == true && count > 0 ? " streak" : ""
            svg += #"<rect class="l\#(CalendarHeatmap.level(count, maximum: maximum))\#(marked)" x="\#(x)" y="\#(y)" "#
                + #"width="\#(cell)" height="\#(cell)" rx="2"><title>\#(day) \#(weekdayNames[day.daysSinceMonday]): "#
                + #"\#(plural(count, "exercise"))</title></rect>"#
            guard let next = day.adding(days: 1) else { break }
            day = next
        }
        return svg + "</svg>"
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

    /// One bar per period of `rows` (oldest first), its height the period's exercises against the
    /// busiest period's; a month named under the first period that starts in it.
    static func bars(_ rows: [HistoryReportRow], caption: String) -> String {
        let plotHeight = 120, barStep = max(4, min(24, 720 / max(rows.count, 1)))
        let width = left + rows.count * barStep + 4, height = plotHeight + 36
        let maximum = rows.map(\.exercises).max() ?? 0
        var svg = #"<svg class="bars" role="img" viewBox="0 0 \#(width) \#(height)" width="\#(width)" height="\#(height)" "#
            + #"xmlns="http://www.w3.org/2000/svg"><title>\#(HTMLText.escaped(caption))</title>"#
        svg += #"<line class="axis" x1="\#(left - 2)" y1="\#(top + plotHeight)" x2="\#(width)" y2="\#(top + plotHeight)"/>"#
        svg += #"<text class="label" x="0" y="\#(top + 4)">\#(maximum)</text><text class="label" x="0" y="\#(top + plotHeight)">0</text>"#
        var lastMonth: Int?, lastLabelX = -100
        for (index, row) in rows.enumerated() {
            let x = left + index * barStep
            let barHeight = maximum > 0 ? Int((Double(row.exercises) / Double(maximum) * Double(plotHeight)).rounded()) : 0
            svg += #"<rect class="bar" x="\#(x)" y="\#(top + plotHeight - barHeight)" width="\#(barStep - 2)" height="\#(barHeight)">"#
                + #"<title>\#(row.period) (from \#(row.start)): \#(plural(row.exercises, "exercise")) on \#(plural(row.activeDays, "day"))"#
                + #"</title></rect>"#
            if row.start.month != lastMonth {
                if (lastMonth != nil || row.start.day <= 7) && x - lastLabelX >= 28 {
                    lastLabelX = x
                    svg += #"<text class="label" x="\#(x)" y="\#(top + plotHeight + 14)">\#(CalendarHeatmap.monthNames[row.start.month - 1])</text>"#
                }
                lastMonth = row.start.month
            }
        }
        return svg + "</svg>"
    }

    private static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
}
