import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// `report --format html`: one self-contained page, its numbers those of the other reports, every
/// text escaped whatever it holds, and a real browser (headless Chromium) drawing it.
final class HTMLReportCLITests: XCTestCase {
    private let range = ["--from", "2025-11-24", "--to", "2026-11-22"]

    /// A year of days with adversarial exercise names, drafts with adversarial versions, notes and
    /// titles: the page holds only its own markup, and every number and name the other reports give.
    func testPageHoldsEveryReportAndOnlyItsOwnMarkup() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_HTML_SEED", default: 0x4854_4D4C)
        var random = SplitMix64(seed: seed)
        let names = (0..<40).map { index in
            index % 4 == 0 ? "<script>alert(\(index))</script>\"'&" : AdversarialText.string(using: &random, nonEmpty: true)
        }
        let cli = try CLIHarness()
        try Self.fill(cli, seed: seed, names: names, draftText: { AdversarialText.string(using: &random) + "<img src=x onerror=alert(1)>" },
                      notes: { AdversarialText.string(using: &random) })

        let result = try cli.run(["report", "--format", "html", "-o", "page.html"] + range)
        XCTAssertEqual(result.status, 0, "seed \(seed): \(result.stderr)")
        XCTAssertTrue(result.stdout.isEmpty)
        let page = try String(contentsOf: cli.folder.appendingPathComponent("page.html"), encoding: .utf8)

        // Only the page's own elements; nothing that runs or fetches.
        let allowed: Set<String> = ["!DOCTYPE", "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p",
                                    "section", "div", "strong", "span", "svg", "text", "rect", "line", "table", "thead", "tbody",
                                    "tr", "th", "td", "ul", "li", "article", "footer", "code"]
        let tags = page.utf8.split(separator: 0x3C, omittingEmptySubsequences: false).dropFirst()
            .map { String(decoding: $0.prefix { !" >/\n".utf8.contains($0) }, as: UTF8.self) }.filter { !$0.isEmpty }
        XCTAssertEqual(Set(tags).subtracting(allowed), [], "seed \(seed)")
        let insideTags = page.utf8.split(separator: 0x3C).dropFirst().map { String(decoding: $0.prefix { $0 != 0x3E }, as: UTF8.self) }
        for tag in insideTags {
            for forbidden in [" on", "src=", "href=", "url(", "@import", "javascript:"] {
                XCTAssertFalse(Self.holds(tag, forbidden), "seed \(seed): <\(tag)>")
            }
        }
        let style = page.utf8.split(separator: 0x3C).first { $0.starts(with: "style>".utf8) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        XCTAssertFalse(Self.holds(style, "url(") || Self.holds(style, "@import"), "the style sheet fetches nothing")

        // The calendar: a cell per day, shaded exactly on the active days, each titled with its count.
        let calendar = Self.csvRows(try cli.run(["report", "calendar", "--format", "csv"] + range))
        let cells = Self.matches(#"<rect class="l(\d)[^"]*" x="\d+" y="\d+" width="13" height="13" rx="2"><title>(\S+) \w+: (\d+) exercises?</title>"#, in: page)
        XCTAssertEqual(cells.count, calendar.count, "seed \(seed)")
        for (cell, row) in zip(cells, calendar) {
            XCTAssertEqual([cell[2], cell[3], cell[1]], row, "seed \(seed)")
        }

        // The bars: one per ISO week, titled with the history report's numbers.
        let history = try cli.run(["report", "history", "--by", "week", "--format", "json"] + range)
        let weeks = try Self.decode([HistoryReportRow].self, history)
        let bars = Self.matches(#"<rect class="bar"[^>]*><title>(\S+) \(from \S+\): (\d+) exercises? on (\d+) days?</title>"#, in: page)
        XCTAssertEqual(bars.map { [$0[1], $0[3], $0[2]] }, weeks.map { [$0.period, String($0.activeDays), String($0.exercises)] }, "seed \(seed)")

        // The exercise totals: the first rows of the exercises report, names escaped, never dropped.
        let exercises = try cli.run(["report", "exercises", "--format", "json"] + range)
        let totals = try Self.decode([ExerciseReportRow].self, exercises)
        let rows = Self.matches(#"<tr><td>([^<]*)</td><td class="n">(\d+)</td><td class="n">(\d+)</td><td>(\S+)</td>"#, in: page)
        XCTAssertEqual(rows.count, min(30, totals.count), "seed \(seed)")
        for (row, total) in zip(rows, totals) {
            XCTAssertEqual(Array(Self.unescaped(row[1]).utf8), Array(Self.shown(total.exercise).utf8), "seed \(seed)")
            XCTAssertEqual([row[2], row[3], row[4]], [String(total.count), String(total.days), total.lastDay.description], "seed \(seed)")
        }

        // The open drafts, each with its whole checklist.
        let open = try cli.run(["count", "drafts", "--where", "isSubmitted == false"])
        XCTAssertEqual(page.utf8.split(separator: 0x3C).filter { $0.starts(with: #"article class="draft">"#.utf8) }.count,
                       Int(open.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "seed \(seed)")
        let openItems = try cli.run(["drafts", "list", "--where", "isSubmitted == false", "--format", "json"])
        struct Item: Decodable { let title: String, isDone: Bool }
        struct Draft: Decodable { let checklist: [Item] }
        let drafts = try Self.decode([Draft].self, openItems)
        XCTAssertEqual(page.utf8.split(separator: 0x3C).filter { $0.starts(with: "li class=".utf8) }.count,
                       drafts.map(\.checklist.count).reduce(0, +), "seed \(seed)")
        for item in drafts.flatMap(\.checklist) {
            let escaped = Self.escaped(item.title)
            XCTAssertTrue(Self.holds(page, "\(item.isDone ? "☑" : "☐") \(escaped)</li>"), "seed \(seed): \(item.title.debugDescription)")
        }

        // The header names the zone as people say it: UTC, not Foundation's GMT.
        let inUTC = try cli.run(["report", "--format", "html", "--time-zone", "UTC"] + range)
        let header = Self.matches("<header>(.*?)</header>", in: inUTC.stdout).first?[1] ?? ""
        XCTAssertTrue(header.hasSuffix(" UTC</p>") && !header.contains("GMT"), "seed \(seed): \(header)")

        // Usage: a page is written once, an unknown report name is refused.
        XCTAssertFailure(try cli.run(["report", "--format", "html", "--watch"]), status: 2, mentioning: "written once")
        XCTAssertFailure(try cli.run(["report", "calender", "--format", "html"]), status: 2, mentioning: "did you mean 'calendar'")
        XCTAssertFailure(try cli.run(["report"]), status: 2, mentioning: "which report?")
        XCTAssertFailure(try cli.run(["drafts", "list", "--format", "html"]), status: 2, mentioning: "html")
    }

    /// Headless Chromium (the Debian package, installed by `.ci/run`) draws the page: a screenshot of
    /// the window's size, far from blank, with the heatmap's and the bars' greens in it. Also an
    /// empty database's page and the adversarial page. `LOGBOOK_SCREENSHOT=PATH` keeps the first
    /// screenshot (the README's).
    func testChromiumDrawsThePage() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("chromium is not installed (apt-get install chromium); .ci/run installs it")
        }
        let seed = PropertyTestSettings.seed("LOGBOOK_HTML_SEED", default: 0x4854_4D4C)
        let cli = try CLIHarness()
        let names = ["Burpee", "Squat", "Push-up", "Plank", "Lunge", "Row", "Sun Salute", "Step Up", "Pull-up", "Deadlift"]
        let titles = ["Bump version number", "Write release notes", "Update App Store screenshots", "Archive & upload build",
                      "Submit for review", "Tag the release"]
        var random = SplitMix64(seed: seed)
        var titleIndex = 0
        try Self.fill(cli, seed: seed, names: names, draftText: {
            titleIndex += 1
            return titles[(titleIndex + Int(random.next() % 3)) % titles.count]
        }, notes: { "Widgets, a faster sync and a dark mode." })
        let empty = try CLIHarness()
        XCTAssertEqual(try empty.run(["init"]).status, 0)
        var pages: [(CLIHarness, String)] = [(cli, "year"), (empty, "empty")]
        let adversarial = try CLIHarness()
        try Self.fill(adversarial, seed: seed, names: (0..<20).map { _ in AdversarialText.string(using: &random, nonEmpty: true) },
                      draftText: { AdversarialText.string(using: &random) }, notes: { AdversarialText.string(using: &random) })
        pages.append((adversarial, "adversarial"))

        for (index, (harness, name)) in pages.enumerated() {
            let html = harness.folder.appendingPathComponent("\(name).html"), png = harness.folder.appendingPathComponent("\(name).png")
            XCTAssertEqual(try harness.run(["report", "--format", "html", "-o", html.path] + range).status, 0)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chromium)
            process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                                 "--user-data-dir=\(harness.folder.appendingPathComponent("chromium").path)",
                                 "--window-size=1000,1500", "--screenshot=\(png.path)", html.absoluteString]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, name)
            let image = try PNGImage(contentsOf: png)
            XCTAssertEqual([image.width, image.height], [1000, 1500], name)
            let background = Dictionary(grouping: image.pixels, by: { $0 }).max { $0.value.count < $1.value.count }!.key
            let drawn = image.pixels.filter { $0 != background }.count
            XCTAssertGreaterThan(Double(drawn) / Double(image.pixels.count), 0.02, "\(name): the page is nearly blank")
            if name != "empty" {
                // The heatmap's and the bars' greens (light scheme): a picture, not only text.
                let greens = Set(image.pixels).intersection([0x9BE9A8, 0x40C463, 0x30A14E, 0x216E39])
                XCTAssertGreaterThanOrEqual(greens.count, 3, "\(name): \(greens.map { String($0, radix: 16) })")
            }
            if index == 0, let keep = ProcessInfo.processInfo.environment["LOGBOOK_SCREENSHOT"] {
                try? FileManager.default.removeItem(atPath: keep)
                try FileManager.default.copyItem(at: png, to: URL(fileURLWithPath: keep))
            }
        }
    }

    /// A year of history (about two days in three active, one to five exercises from `names`) and
    /// six drafts, three open, with checklist titles from `draftText` and What's New from `notes`;
    /// through the library.
    private static func fill(_ cli: CLIHarness, seed: UInt64, names: [String], draftText: () -> String,
                             notes: () -> String) throws {
        var random = SplitMix64(seed: seed ^ 0xDA75)
        let store = try Logbook(path: cli.database.path, timeZone: TimeZone(identifier: "UTC")!)
        var days: [ExerciseDay] = []
        var day = CalendarDay(year: 2025, month: 11, day: 24)!
        while day <= CalendarDay(year: 2026, month: 11, day: 22)! {
            if random.next() % 3 != 0 {
                let count = 1 + Int(random.next() % 5)
                days.append(ExerciseDay(date: day.start(in: TimeZone(identifier: "UTC")!).addingTimeInterval(3_600 * 7), day: day,
                                        exercises: (0..<count).map { _ in names[Int(random.next() % UInt64(names.count))] }))
            }
            day = day.adding(days: 1)!
        }
        try store.history.save(days)
        let created = Date(timeIntervalSinceReferenceDate: 785_000_000)
        for index in 0..<6 {
            let checklist = (0..<Int(random.next() % 6)).map { _ in ChecklistItem(title: draftText(), isDone: random.next() % 2 == 0) }
            _ = try store.drafts.save(ReleaseDraft(version: "2.\(index).0", whatsNew: notes(), checklist: checklist,
                                                   submittedAt: index % 2 == 0 ? created.addingTimeInterval(86_400) : nil,
                                                   createdAt: created.addingTimeInterval(Double(index) * 3_600)))
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ result: CLIResult) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: result.output)
        } catch {
            try result.output.write(to: URL(fileURLWithPath: NSTemporaryDirectory() + "html-report-undecodable.json"))
            XCTFail("\(error); status \(result.status), \(result.stderr); stdout in \(NSTemporaryDirectory())html-report-undecodable.json")
            throw error
        }
    }

    private static func matches(_ pattern: String, in text: String) -> [[String]] {
        let expression = try! NSRegularExpression(pattern: pattern)
        let string = text as NSString
        return expression.matches(in: text, range: NSRange(location: 0, length: string.length)).map { match in
            (0..<match.numberOfRanges).map { string.substring(with: match.range(at: $0)) }
        }
    }

    /// What the page shows of `text`: the characters an HTML parser drops or refuses as U+FFFD.
    private static func shown(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let value = scalar.value
            let dropped = (value < 0x20 && !"\t\n\r".unicodeScalars.contains(scalar)) || (0x7F...0x9F).contains(value)
                || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
            return dropped ? "\u{FFFD}" : scalar
        }))
    }

    /// The page's escaping, scalar by scalar (Foundation's replacing would match canonically).
    private static let entities: [(Unicode.Scalar, String)] = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"),
                                                                 ("'", "&#39;"), ("\r", "&#13;")]

    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in shown(text).unicodeScalars {
            if let entity = entities.first(where: { $0.0 == scalar }) { result += entity.1 } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    private static func unescaped(_ html: String) -> String {
        var result = String.UnicodeScalarView(), rest = Substring(html).unicodeScalars
        while let first = rest.first {
            if first == "&", let entity = entities.first(where: { rest.starts(with: $0.1.unicodeScalars) }) {
                result.append(entity.0)
                rest = rest.dropFirst(entity.1.unicodeScalars.count)
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return String(result)
    }

    /// Whether `text` holds `part`, byte for byte.
    private static func holds(_ text: String, _ part: String) -> Bool { text.utf8.firstRange(of: part.utf8) != nil }

    /// The rows of a CSV report without its header, split at commas (the reports' fields hold none).
    private static func csvRows(_ result: CLIResult) -> [[String]] {
        result.lines.dropFirst().map { $0.split(separator: ",").map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) } }
    }
}
