import Foundation
import Logbook

/// `report history|exercises|streaks|drafts|calendar`, and `report --format html`: the page of them all.
enum ReportCommand {
    private static let names = ["history", "exercises", "streaks", "drafts", "calendar"]
    private static let formatOption = OutputFormat.option(OutputFormat.allCases)
    private static let period = Option<ReportPeriod>.choice(
        "--by", valueName: "PERIOD", among: ReportPeriod.allCases, help: "day|week|month|year, for the history report (default: week).")
    private static let asOf = Option<DateExpression>.date("--as-of", valueName: "DAY", help: "The day streaks are counted up to (default: today), in the streaks report and the html page (one of its days).")

    static let command = Command(
        spec: CommandSpec(
            name: "report", abstract: "Reports for scripts and people: history by period, exercise totals, streaks, drafts.",
            discussion: """
                history: period, activeDays, exercises, distinctExercises, topExercise (--by day|week|month|year, \
                default week; ISO weeks start Monday, 2026-W05; empty periods appear with zeros).
                exercises: exercise, count, days, firstDay, lastDay.
                streaks: currentStreak, longestStreak, longestStart, longestEnd, asOf (--as-of DAY, default today).
                drafts: version, isSubmitted, submittedAt, done, total, summary (--from/--to: created on those days).
                calendar: a heatmap of the days, a column per ISO week, shaded by exercises (default: the last 53 weeks; \
                --on 2026 for a year); colour on a terminal unless NO_COLOR is set (not empty) or TERM is dumb. In json, ndjson and csv: day, exercises, level.
                --format html (the name may be left out): one self-contained page with the calendar, bars per week \
                (per month over two years, or --by), streaks, exercise totals and the open drafts with their checklists; \
                the range as for calendar. Inline SVG and CSS: no script, nothing fetched from the network.
                """,
            positionals: [PositionalSpec(name: "name", arity: .optional, help: "history, exercises, streaks, drafts or calendar.",
                                         choices: names)],
            options: DayRangeOptions.specs + [period.spec, asOf.spec, formatOption.spec, OutputFile.option.spec, Watch.flag.spec],
            examples: ["logbook report history --by month --from 2026-01-01 --to 2026-12-31",
                       "logbook report streaks --format json", "logbook report exercises --format csv",
                       "logbook report --format html -o report.html"]),
        run: { invocation in
            let arguments = invocation.arguments
            let command = arguments.command
            let format = try arguments.format(formatOption, orElse: .table)
            if format == .html {
                try writePage(invocation)
                return
            }
            guard let name = arguments.positionals.first else {
                throw UsageError(message: "which report? one of \(names.joined(separator: ", ")) (or --format html for the page of them all)",
                                 command: command)
            }
            guard names.contains(name) else {
                throw UsageError(message: "unknown report '\(name)': expected one of \(names.joined(separator: ", "))"
                                    + ArgumentParser.suggestion(for: name, among: names), command: command)
            }
            let (from, to) = try invocation.dayRange()
            let by = try arguments.value(of: period)
            if by != nil && name != "history" {
                throw UsageError(message: "'\(period.spec.name)' applies to the history report only", command: command)
            }
            let day = try invocation.day(asOf)
            if day != nil && name != "streaks" {
                throw UsageError(message: "'\(asOf.spec.name)' applies to the streaks report and the html page only", command: command)
            }
            let store = try invocation.readStore()
            if ["history", "exercises"].contains(name), try !store.reports.readsTallies() {
                Console.note("logbook: the tallies are behind changes another program made to the history; this report "
                                   + "counts every row (slower) — 'logbook repair' recounts the tallies")
            }
            if name == "calendar" {
                let (first, last, today) = try calendarRange(invocation, from: from, to: to)
                // NO_COLOR counts when it is set and not empty, as no-color.org asks.
                let colour = format == .table && Console.stdoutIsTerminal && (invocation.environment["NO_COLOR"] ?? "").isEmpty
                    && invocation.terminalTakesEscapes
                // Each result in one snapshot: the calendar's summary agrees with its days while
                // other programs write.
                try Watch.run(invocation, store: store, format: format) {
                    try store.readingOneSnapshot {
                        try renderCalendar(store.reports, from: first, to: last, asOf: min(today, last), format: format, colour: colour)
                    }
                }
                return
            }
            try Watch.run(invocation, store: store, format: format) {
                try store.readingOneSnapshot {
                    try render(name, store.reports, period: by ?? .week, from: from, to: to, asOf: day, format: format)
                }
            }
        })

    /// The days a calendar shows: `--from`/`--to` (or `--on`), by default the 53 weeks up to today;
    /// and today in `--time-zone`.
    private static func calendarRange(_ invocation: Invocation, from: CalendarDay?, to: CalendarDay?) throws
        -> (first: CalendarDay, last: CalendarDay, today: CalendarDay) {
        let today = CalendarDay(Date(), in: try invocation.timeZone())
        let last = to ?? today
        let first = from ?? last.adding(days: -(last.daysSinceMonday + 52 * 7)) ?? .first
        guard first <= last else {
            throw UsageError(message: "the calendar starts on \(first), after its end \(last); give --to as well",
                             command: invocation.arguments.command)
        }
        return (first, last, today)
    }

    /// `--format html`: the page of every report, for the calendar's range.
    private static func writePage(_ invocation: Invocation) throws {
        let arguments = invocation.arguments
        if let name = arguments.positionals.first, !names.contains(name) {
            throw UsageError(message: "unknown report '\(name)': expected one of \(names.joined(separator: ", "))"
                                + ArgumentParser.suggestion(for: name, among: names), command: arguments.command)
        }
        if arguments.isSet(Watch.flag) {
            throw UsageError(message: "'\(Watch.flag.spec.name)' shows tables and data as they change; an html page is written once",
                             command: arguments.command)
        }
        let (from, to) = try invocation.dayRange()
        let (first, last, today) = try calendarRange(invocation, from: from, to: to)
        // Today, or the page's day nearest to it (a page of days to come was refused for a default: helper-100).
        let asOf = try invocation.day(self.asOf) ?? max(first, min(today, last))
        // The page's streaks are of its days: one counted up to a day outside them read 0 (helper-98).
        guard (first...last).contains(asOf) else {
            throw UsageError(message: "'\(self.asOf.spec.name) \(asOf)' is outside the page's days, \(first) to \(last): give "
                                + "--from and --to (or --on) that hold it", command: arguments.command)
        }
        let page = HTMLReport(from: first, to: last, asOf: asOf, period: try arguments.value(of: period),
                              timeZone: try invocation.timeZone())
        try page.write(from: try invocation.readStore()) { try Console.write($0) }
    }

    private static func renderCalendar(_ reports: Reports, from first: CalendarDay, to last: CalendarDay, asOf: CalendarDay,
                                       format: OutputFormat, colour: Bool) throws {
        guard format == .table else {
            // The busiest day first, so that the days stream in a second pass (both in the caller's snapshot).
            let maximum = try CalendarHeatmap.summary(reports, from: first, to: last).busiest
            var output = try CellOutput(columns: ["day", "exercises", "level"], format: format)
            try CalendarHeatmap.forEachDay(reports, from: first, to: last) { day, count in
                try output.add([.text(day.description), .integer(Int64(count)),
                                .integer(Int64(CalendarHeatmap.level(count, maximum: maximum)))])
            }
            try output.finish()
            return
        }
        let counts = try CalendarHeatmap.counts(reports, from: first, to: last)
        let streaks = try reports.streaks(from: first, to: last, asOf: asOf)
        try Console.write(CalendarHeatmap.render(counts, from: first, to: last, streaks: streaks, colour: colour))
    }

    private static func render(_ name: String, _ reports: Reports, period: ReportPeriod, from: CalendarDay?, to: CalendarDay?,
                           asOf: CalendarDay?, format: OutputFormat) throws {
        switch name {
        case "history" where format == .table:
            // For people, a trend column: each period's exercises as a bar against the busiest
            // period's, found by a first read of the report, so that the rows stream in the second
            // (held for the maximum, 3,650,000 days took 349 MB; helper-31); both in the caller's
            // one snapshot.
            var busiest = 0
            try reports.history(by: period, from: from, to: to) { busiest = max(busiest, $0.exercises) }
            let maximum = busiest
            var output = try CellOutput<HistoryReportRow>(
                columns: ["period", "activeDays", "exercises", "distinctExercises", "topExercise", "trend"], format: format) { row in
                [.text(row.period), .integer(Int64(row.activeDays)), .integer(Int64(row.exercises)),
                 .integer(Int64(row.distinctExercises)), row.topExercise.map(Cell.text) ?? .null,
                 .text(Bar.text(min(row.exercises, maximum), of: maximum, width: 16))]
            }
            try reports.history(by: period, from: from, to: to) { try output.add($0) }
            try output.finish()
        case "history":
            var output = try CellOutput<HistoryReportRow>(columns: ["period", "activeDays", "exercises", "distinctExercises", "topExercise"],
                                                          format: format) { row in
                [.text(row.period), .integer(Int64(row.activeDays)), .integer(Int64(row.exercises)),
                 .integer(Int64(row.distinctExercises)), row.topExercise.map(Cell.text) ?? .null]
            }
            try reports.history(by: period, from: from, to: to) { try output.add($0) }
            try output.finish()
        case "exercises":
            var output = try CellOutput<ExerciseReportRow>(columns: ["exercise", "count", "days", "firstDay", "lastDay"], format: format) { row in
                [.text(row.exercise), .integer(Int64(row.count)), .integer(Int64(row.days)),
                 .text(row.firstDay.description), .text(row.lastDay.description)]
            }
            try reports.exercises(from: from, to: to) { try output.add($0) }
            try output.finish()
        case "streaks":
            let streaks = try reports.streaks(from: from, to: to, asOf: asOf)
            var output = try CellOutput(columns: ["currentStreak", "longestStreak", "longestStart", "longestEnd", "asOf"], format: format)
            try output.add([.integer(Int64(streaks.currentStreak)), .integer(Int64(streaks.longestStreak)),
                        streaks.longestStart.map { .text($0.description) } ?? .null,
                        streaks.longestEnd.map { .text($0.description) } ?? .null, .text(streaks.asOf.description)])
            try output.finish()
        default:
            // For people, the checklist as a progress bar.
            let columns = ["version", "isSubmitted", "submittedAt", "done", "total", "summary"] + (format == .table ? ["progress"] : [])
            var output = try CellOutput<DraftReportRow>(columns: columns, format: format) { row in
                let progress: [Cell] = format == .table ? [.text(row.total == 0 ? "-" : Bar.progress(row.done, of: row.total, width: 10))] : []
                return [.text(row.version), .bool(row.isSubmitted), row.submittedAt.map { .text($0.iso8601Microseconds) } ?? .null,
                        .integer(Int64(row.done)), .integer(Int64(row.total)), .text(row.summary)] + progress
            }
            try reports.drafts(from: from, to: to) { try output.add($0) }
            try output.finish()
        }
    }
}
