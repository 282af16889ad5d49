import Foundation
import Logbook

/// `report --format html`: one self-contained page for people (inline CSS and SVG; no script, no
/// network, no font or image to fetch) with the calendar heatmap, a bar per week (per month for
/// ranges over two years), the streaks, the exercise totals and the open drafts with their
/// checklists. Every text from the store is escaped by ``HTMLText``.
///
/// The page is written as it is made, in pieces of about 64 KiB, from the reports' and the
/// drafts' streams: memory stays flat however many days, periods, names and drafts it shows
/// (the page built whole took about 3.6 times its size: 547 MB for 800,000 drafts). So a failure
/// part-way (a value another program stored that cannot be read) leaves what was written: on
/// stdout the page cut short, as an export's records are; `-o FILE` keeps nothing.
struct HTMLReport {
    let first: CalendarDay
    let last: CalendarDay
    /// The day the streaks are counted up to.
    let asOf: CalendarDay
    /// The bars' period.
    let period: ReportPeriod
    /// When the page was made, shown in `timeZone`.
    let made: Date
    let timeZone: TimeZone

    /// The exercise totals listed; the rest are counted in a line below the table.
    static let exercisesShown = 30

    /// The page of the days `first` to `last`: streaks up to `asOf`, bars per `period` (by default
    /// weeks, or months when the range is over two years).
    init(from first: CalendarDay, to last: CalendarDay, asOf: CalendarDay, period: ReportPeriod?, timeZone: TimeZone) {
        (self.first, self.last, self.asOf) = (first, last, asOf)
        self.period = period ?? (last.dayNumber - first.dayNumber > 2 * 371 ? .month : .week)
        made = Date()
        self.timeZone = timeZone
    }

    /// Writes the whole page through `output`, reading `store` in one snapshot, so that its cards,
    /// charts and tables agree while other programs write.
    func write(from store: Logbook, to output: @escaping (String) throws -> Void) throws {
        var page = ChunkedOutput(output)
        try store.readingOneSnapshot {
            let reports = store.reports
            let days = try CalendarHeatmap.summary(reports, from: first, to: last)
            let streaks = try reports.streaks(from: first, to: last, asOf: asOf)
            try page.append(head(days, streaks))
            try page.append("<section><h2>Calendar</h2>\n<div class=\"chart\">")
            try SVGCharts.heatmap(reports, from: first, to: last, busiest: days.busiest, streaks: streaks, into: &page)
            try page.append("</div>\n" + #"<p class="key">less \#(SVGCharts.legend) more · busiest day: "#
                            + "\(plural(days.busiest, "exercise")) · outlined: the longest streak</p></section>\n")
            let periodName = period.rawValue
            try page.append("<section><h2>Exercises per \(periodName)</h2>\n<div class=\"chart\">")
            try SVGCharts.bars(reports, by: period, from: first, to: last, caption: "Exercises per \(periodName), \(range)", into: &page)
            try page.append("</div></section>\n")
            try writeExerciseTable(reports, into: &page)
            try writeDraftList(store.drafts, into: &page)
        }
        try page.append("<footer>Made by <code>logbook report --format html</code>. The numbers are the ones <code>logbook report</code> prints.</footer>\n"
                        + "</body>\n</html>\n")
        try page.flush()
    }

    private var range: String { "\(first) to \(last)" }

    /// The page's head and its summary cards.
    private func head(_ days: CalendarHeatmap.Summary, _ streaks: StreakReport) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="logbook">
        <title>Logbook report, \(range)</title>
        <style>\(Self.style)</style>
        </head>
        <body>
        <header><h1>Logbook</h1><p>\(range) · made \(LocalTime.text(made, in: timeZone)) \(HTMLText.escaped(timeZone.nameForPeople))</p></header>
        <section class="cards">
        \(card(plural(days.activeDays, "active day"), "of \(last.dayNumber - first.dayNumber + 1)"))
        \(card(plural(days.exercises, "exercise"), days.activeDays > 0 ? String(format: "%.1f per active day", Double(days.exercises) / Double(days.activeDays)) : "none yet"))
        \(card(plural(streaks.currentStreak, "day"), "current streak, up to \(streaks.asOf)"))
        \(card(plural(streaks.longestStreak, "day"), streaks.longestStart.flatMap { start in streaks.longestEnd.map { "longest streak, \(start) to \($0)" } } ?? "longest streak"))
        </section>

        """
    }

    private func card(_ figure: String, _ caption: String) -> String {
        #"<div class="card"><strong>\#(figure)</strong><span>\#(HTMLText.escaped(caption))</span></div>"#
    }

    /// The most done exercises, ``exercisesShown`` at most, and how many more there are.
    private func writeExerciseTable(_ reports: Reports, into page: inout ChunkedOutput) throws {
        try page.append("<section><h2>Exercise totals</h2>\n")
        var listed = 0, busiest = 0
        // Most done first: the first row is the busiest.
        try reports.exercises(from: first, to: last) { row in
            listed += 1
            guard listed <= Self.exercisesShown else { return }
            if listed == 1 {
                busiest = row.count
                try page.append("<table><thead><tr><th>Exercise</th><th class=\"n\">Count</th><th class=\"n\">Days</th><th>Last</th><th></th></tr></thead><tbody>\n")
            }
            let percent = String(format: "%.1f", Double(row.count) / Double(busiest) * 100)
            try page.append("<tr><td>\(HTMLText.escaped(row.exercise))</td><td class=\"n\">\(row.count)</td><td class=\"n\">\(row.days)</td>"
                            + "<td>\(row.lastDay)</td><td class=\"meter\"><span style=\"width:\(percent)%\"></span></td></tr>\n")
        }
        guard listed > 0 else { return try page.append("<p class=\"empty\">No exercises in this range.</p></section>\n") }
        try page.append("</tbody></table>\n")
        if listed > Self.exercisesShown {
            try page.append("<p class=\"empty\">and \(listed - Self.exercisesShown) more: <code>logbook report exercises</code> lists them all.</p>\n")
        }
        try page.append("</section>\n")
    }

    /// Every draft not yet submitted, oldest first, with its checklist.
    private func writeDraftList(_ drafts: DraftRepository, into page: inout ChunkedOutput) throws {
        try page.append("<section><h2>Open drafts</h2>\n")
        var isEmpty = true
        try drafts.forEach(FetchDescriptor(predicate: #Predicate { $0.submittedAt == nil },
                                           sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.version)])) { draft in
            isEmpty = false
            let done = draft.checklist.doneCount, total = draft.checklist.count
            let percent = total > 0 ? String(format: "%.1f", Double(done) / Double(total) * 100) : "0"
            try page.append("<article class=\"draft\"><h3>\(draft.version.isEmpty ? "(no version)" : HTMLText.escaped(draft.version))</h3>"
                            + "<p class=\"progress\"><span class=\"meter\"><span style=\"width:\(percent)%\"></span></span> \(done) of \(total) done"
                            + " · created \(CalendarDay(draft.createdAt, in: timeZone))</p>\n")
            if !draft.whatsNew.isEmpty { try page.append("<p class=\"notes\">\(HTMLText.escaped(draft.whatsNew))</p>\n") }
            if !draft.checklist.isEmpty {
                try page.append("<ul class=\"checklist\">\n")
                for item in draft.checklist {
                    try page.append("<li class=\"\(item.isDone ? "done" : "todo")\">\(item.isDone ? "☑" : "☐") \(HTMLText.escaped(item.title))</li>\n")
                }
                try page.append("</ul>\n")
            }
            try page.append("</article>\n")
        }
        try page.append(isEmpty ? "<p class=\"empty\">No open drafts.</p></section>\n" : "</section>\n")
    }

    private static let style = """
        :root{color-scheme:light dark;--fg:#1f2328;--muted:#656d76;--bg:#fff;--card:#f6f8fa;--line:#d0d7de;\
        --l0:#ebedf0;--l1:#9be9a8;--l2:#40c463;--l3:#30a14e;--l4:#216e39;--bar:#30a14e;--streak:#bf8700}
        @media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--bg:#0d1117;--card:#161b22;--line:#30363d;\
        --l0:#161b22;--l1:#0e4429;--l2:#006d32;--l3:#26a641;--l4:#39d353;--bar:#26a641;--streak:#e3b341}}
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);\
        margin:0 auto;padding:24px;max-width:1000px}
        h1{margin:0;font-size:26px}h2{font-size:18px;margin:28px 0 10px}h3{margin:0 0 4px;font-size:16px}
        header p,.key,.empty,footer,.progress{color:var(--muted)}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:12px;margin-top:16px}
        .card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 14px}
        .card strong{display:block;font-size:20px}.card span{color:var(--muted);font-size:13px}
        .chart{overflow-x:auto}svg text{font:10px system-ui,sans-serif;fill:var(--muted)}
        .l0{fill:var(--l0)}.l1{fill:var(--l1)}.l2{fill:var(--l2)}.l3{fill:var(--l3)}.l4{fill:var(--l4)}
        .streak{stroke:var(--streak);stroke-width:1.5}.bar{fill:var(--bar)}.axis{stroke:var(--line)}
        .key svg{vertical-align:middle}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:3px 8px;border-bottom:1px solid var(--line)}
        td,li,h3,.notes{overflow-wrap:anywhere}.n{text-align:right;font-variant-numeric:tabular-nums}
        .meter{width:30%}.meter span,.progress .meter span{display:block;height:10px;background:var(--bar);border-radius:2px}
        .progress .meter{display:inline-block;width:120px;height:10px;background:var(--l0);border-radius:2px;vertical-align:middle}
        .draft{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin-bottom:12px}
        .notes{white-space:pre-wrap;margin:6px 0;font-style:italic}.checklist{list-style:none;padding:0;margin:6px 0 0}
        .checklist .done{color:var(--muted);text-decoration:line-through}
        footer{margin-top:32px;font-size:13px}
        """
}
