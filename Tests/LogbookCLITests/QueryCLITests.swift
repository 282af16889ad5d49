import Foundation
import LogbookTestSupport
import Logbook
import SQLiteQuery
import XCTest

/// `drafts list`, `history list` and `count` on the fixtures, compared with expectations computed
/// here in plain Swift; and every kind of bad filter.
final class QueryCLITests: XCTestCase {
    private func jsonArray(_ text: String) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], text)
    }

    func testHistoryListMatchesTheFixtureDayByDay() throws {
        let cli = try CLIHarness()
        let (_, history) = try FixtureData.load(into: cli)
        let result = try cli.run(["history", "list", "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let listed = try jsonArray(result.stdout)
        let expected = history.sorted { $0.day < $1.day }
        XCTAssertEqual(listed.count, 30)
        XCTAssertEqual(listed.map { $0["id"] as? String }, expected.map(\.id.uuidString))
        XCTAssertEqual(listed.map { $0["day"] as? String }, expected.map(\.day.description))
        XCTAssertEqual(listed.map { $0["exercises"] as? [String] }, expected.map(\.exercises))
        XCTAssertEqual(listed.map { $0["date"] as? String }, expected.map(\.date.iso8601Microseconds))
        XCTAssertEqual(listed.first?["date"] as? String, "2025-01-27T14:53:10.510638Z")
    }

    func testHistoryFiltersSortAndPaging() throws {
        let cli = try CLIHarness()
        let (_, history) = try FixtureData.load(into: cli)
        let from = CalendarDay("2025-02-01")!, to = CalendarDay("2025-03-09")!
        let ranged = try jsonArray(try cli.run(["history", "list", "--from", "2025-02-01", "--to", "2025-03-09",
                                                "--exercise", "Burpee", "--format", "json"]).stdout)
        let expectedRange = history.filter { $0.day >= from && $0.day <= to && $0.exercises.contains("Burpee") }
            .sorted { $0.day < $1.day }
        XCTAssertFalse(expectedRange.isEmpty)
        XCTAssertEqual(ranged.map { $0["day"] as? String }, expectedRange.map(\.day.description))

        let csv = try cli.run(["history", "list", "--where", "exercises.count > 3 || exercises contains \"Élan\"",
                               "--sort", "day:desc", "--limit", "3", "--offset", "2", "--format", "csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let expectedDays = Array(history.filter { $0.exercises.count > 3 || $0.exercises.contains("Élan") }
            .sorted { $0.day > $1.day }.dropFirst(2).prefix(3))
        var expectedCSV = "id,day,date,position,exercise\r\n"
        for day in expectedDays {
            for (offset, name) in day.exercises.enumerated() {
                expectedCSV += "\(day.id.uuidString),\(day.day),\(day.date.iso8601Microseconds),\(offset + 1),\(name)\r\n"
            }
        }
        XCTAssertEqual(csv.stdout, expectedCSV)

        let count = try cli.run(["count", "history", "--where", "exercises contains \"Sun Salute ☀︎\" && day < 2025-03-01"])
        XCTAssertEqual(count.stdout, "\(history.filter { $0.exercises.contains("Sun Salute ☀︎") && $0.day < CalendarDay("2025-03-01")! }.count)\n")
        // An array of one object in json, as every listing and report (it was the object alone; helper-3).
        XCTAssertEqual(try cli.run(["count", "history", "--format", "json"]).stdout, "[{\"count\":30}]\n")
        XCTAssertEqual(try cli.run(["count", "history", "--format", "ndjson"]).stdout, "{\"count\":30}\n")
    }

    func testDraftListsMatchTheFixture() throws {
        let cli = try CLIHarness()
        let (drafts, _) = try FixtureData.load(into: cli)
        let open = try cli.run(["drafts", "list", "--where", "submittedAt == nil", "--sort", "version:desc", "--format", "ndjson"])
        XCTAssertEqual(open.status, 0, open.stderr)
        let lines = open.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let expected = drafts.filter { $0.submittedAt == nil }.sorted { ($0.version, $0.id.uuidString) > ($1.version, $1.id.uuidString) }
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines.map { $0?["version"] as? String }, expected.map(\.version))

        let incomplete = try cli.run(["count", "drafts", "--where", "checklist.doneCount < checklist.count"])
        XCTAssertEqual(incomplete.stdout, "\(drafts.filter { $0.checklist.doneCount < $0.checklist.count }.count)\n")

        let empty = try cli.run(["count", "drafts", "--where", "checklist.count == 0 || version == \"\""])
        XCTAssertEqual(empty.stdout, "2\n")

        let word = try cli.run(["drafts", "list", "--where", "whatsNew icontains \"CRASH\"", "--format", "json"])
        let expectedCrash = drafts.filter { $0.whatsNew.localizedStandardContains("crash") }
        XCTAssertFalse(expectedCrash.isEmpty)
        XCTAssertEqual(Set(try jsonArray(word.stdout).compactMap { $0["id"] as? String }), Set(expectedCrash.map(\.id.uuidString)))

        let table = try cli.run(["drafts", "list", "--sort", "checklist.count:desc,version", "--limit", "2"])
        XCTAssertEqual(table.lines.count, 3, table.stdout)
        XCTAssertTrue(table.lines[0].hasPrefix("ID "), table.stdout)
    }

    func testValuesAreAlwaysDataNeverSQL() throws {
        let cli = try CLIHarness()
        let hostile = "x'); DROP TABLE drafts; -- \" ; SELECT * FROM sqlite_master"
        let id = try cli.run(["drafts", "add", "--version", hostile]).stdout.trimmingCharacters(in: .newlines)
        for filter in ["version == \"x'); DROP TABLE drafts; -- \\\" ; SELECT * FROM sqlite_master\"",
                       "version contains \"DROP TABLE\"", "version hasPrefix \"x');\"",
                       "whatsNew == \"'; DELETE FROM drafts; --\" || version in [\"--\", \";\", \"x');\"]"] {
            let result = try cli.run(["drafts", "list", "--where", filter, "--format", "json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout.contains(id), !filter.hasPrefix("whatsNew"), filter)
        }
        XCTAssertEqual(try cli.run(["count", "drafts"]).stdout, "1\n")
        XCTAssertEqual(try cli.run(["check"]).status, 0)
    }

    func testNulAndControlCharactersInValuesAreData() throws {
        let folder = try TemporaryFolder("nul")
        let store = try Logbook(path: folder.file("n.sqlite").path)
        let draft = try store.drafts.save(ReleaseDraft(version: "a\0b", whatsNew: "line\u{1}"))
        try store.drafts.save(ReleaseDraft(version: "a"))
        let none = 0..<0
        let filter = FilterExpression.binary(.equal, .field("version", at: none), .literal(.string("a\0b"), at: none), at: none)
        let query = RecordQuery(condition: try DraftRepository.schema.condition(for: filter, timeZone: .current))
        XCTAssertEqual(try store.drafts.fetch(query).map(\.id), [draft.id])
    }

    func testBadFiltersExitTwoWithCaretAndChangeNothing() throws {
        let cli = try CLIHarness()
        try cli.run(["drafts", "add", "--version", "1.0"])
        let before = cli.snapshot()
        let cases: [(arguments: [String], message: String, caret: String?)] = [
            (["drafts", "list", "--where", "version =="], "expected a value after '=='", nil),
            (["drafts", "list", "--where", "verison == \"1\""], "unknown field 'verison'; valid fields: id, version", "^^^^^^^"),
            (["history", "list", "--where", "day > \"abc\""], "expected a day like 2026-01-31, written without quotes, found \"abc\"", "^^^^^"),
            (["history", "list", "--where", "day == \"2026-01-31\""], "expected a day like 2026-01-31, written without quotes", nil),
            (["history", "list", "--where", "date < \"2026-01-31\""], "written without quotes", nil),
            (["history", "list", "--where", "exercises < 3"], "'exercises' is a collection", nil),
            (["drafts", "list", "--where", "isSubmitted > true"], "does not apply to true/false", nil),
            (["drafts", "list", "--where", "checklist contains \"x\""], "collection of items", nil),
            (["drafts", "list", "--where", "(version == \"1\""], "expected ')'", nil),
            (["drafts", "list", "--where", "version == \"unterminated"], "unterminated string", nil),
            (["drafts", "list", "--where", "version == 1"], "expected a string in double quotes, found 1", nil),
            (["drafts", "list", "--where", "submittedAt > 2026-02-30"], "invalid date '2026-02-30'", nil),
            (["drafts", "list", "--where", "version # 1"], "unexpected character '#'", nil),
            (["history", "list", "--where", "day < 10000-01-01"], "'10000-01-01' is no date Logbook reads: days run from 0001-01-01 to 9999-12-31", "^^^^^^^^^^^"),
            (["drafts", "list", "--where", "version == \"\u{301}"], "unterminated string", nil),
            (["drafts", "list", "--where", "createdAt == nil"], "this field is never nil", nil),
            (["drafts", "list", "--sort", "version:up"], "invalid sort key 'version:up'", nil),
            // A decimal the nearest Double makes whole would compare as that whole number.
            (["history", "list", "--where", "exercises.count >= 2.0000000000000000001"], "too close to a whole number to compare exactly", nil),
            (["history", "list", "--where", "day >= 2026.5"], "expected a day like 2026-01-31, found 2026.5", nil),
            // An empty key, or a colon with no direction, is a mistake too (they gave the default
            // order, or ascending, exit 0; helper-28).
            (["drafts", "list", "--sort", ""], "invalid sort key ''", nil),
            (["drafts", "list", "--sort", ","], "invalid sort key ''", nil),
            (["drafts", "list", "--sort", "version:"], "invalid sort key 'version:'", nil),
            (["history", "list", "--sort", "day,,id"], "invalid sort key ''", nil),
            (["export", "drafts", "--sort", "version:desc,"], "invalid sort key ''", nil),
            (["drafts", "list", "--limit", "-1"], "invalid value '-1' for '--limit <n>'", nil),
            (["history", "list", "--from", "2026-02-01", "--to", "2026-01-01"], "the range starts on 2026-02-01, after its end 2026-01-01", nil),
            (["count", "notes"], "cannot count 'notes'", nil),
            // A whole number past Int64 is out of range, said as typed (it was `found 1e+20`; helper-3).
            (["history", "list", "--where", "exercises.count > 99999999999999999999"], "number '99999999999999999999' is out of range", nil),
        ]
        for (arguments, message, caret) in cases {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            XCTAssertTrue(lines.first?.hasPrefix("logbook: error: ") ?? false, result.stderr)
            XCTAssertTrue(result.stderr.contains(message), "'\(message)' not in \(result.stderr)")
            if let caret { XCTAssertTrue(lines.last?.contains(caret) ?? false, result.stderr) }
            if arguments.contains("--where") { XCTAssertEqual(lines.count, 3, result.stderr) }
        }
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// A table shows each text on one line, its controls and invisible characters as escapes and
    /// its backslashes doubled, so no two texts show as the same cell: `a\nb` typed as four
    /// characters and `a`, a line feed, `b` both showed as `a\nb`. Seeded texts of backslashes,
    /// the letters of escapes, braces, digits, controls and invisible characters, each shown in
    /// a table of `query`, and a draft's fields in `drafts show`; CSV keeps every byte.
    /// `LOGBOOK_TABLE_CELL_SEED`.
    func testNoTwoTextsShowAsTheSameTableCell() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_TABLE_CELL_SEED", default: 0x5C6E))
        let pieces = ["\\", "n", "t", "r", "u", "{", "}", "1", "B", "0", "\n", "\t", "\r", "\u{1B}", "\u{200B}", "\u{202E}", "é"]
        var texts = ["a\\nb", "a\nb", "\\\\", "\\u{1B}", "\u{1B}"]
        var seen = Set(texts.map { Array($0.unicodeScalars.map(\.value)) })
        while texts.count < 150 {
            let text = (0..<(1 + random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            if seen.insert(Array(text.unicodeScalars.map(\.value))).inserted { texts.append(text) }
        }
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "init"]).status, 0)
        let sql = texts.indices.map { "SELECT :p\($0) AS v" }.joined(separator: " UNION ALL ")
        let parameters = texts.enumerated().flatMap { ["-p", "p\($0.offset)=\($0.element)"] }
        let table = try cli.run(["query", sql] + parameters)
        XCTAssertEqual(table.status, 0, table.stderr)
        let cells = table.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast().map(String.init)
        XCTAssertEqual(cells.count, texts.count, table.stdout)
        XCTAssertEqual(Array(cells.prefix(5)), [#"a\\nb"#, #"a\nb"#, #"\\\\"#, #"\\u{1B}"#, #"\u{1B}"#])
        var shownAs: [String: String] = [:]
        for (text, cell) in zip(texts, cells) {
            if let other = shownAs.updateValue(text, forKey: cell) {
                XCTFail("\(text.unicodeScalars.map(\.value)) and \(other.unicodeScalars.map(\.value)) both show as \(cell)")
            }
        }
        let csv = try cli.run(["query", sql, "--format", "csv"] + parameters)
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertEqual(try CSVRecords.parse(Array(csv.stdout.utf8)).dropFirst().map { $0[0] }, texts, "CSV keeps every byte")

        XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", #"v\t"#, "--whats-new", "a\\nb\nc"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "drafts", "item", "add", #"v\t"#, "x\\u{1B}\u{1B}"]).status, 0)
        let shown = try cli.run(["drafts", "show", #"v\t"#]).stdout
        for line in [#"version:    v\\t"#, #"  a\\nb"#, "  c", #"  1. [ ] x\\u{1B}\u{1B}"#] {
            XCTAssertTrue(shown.contains(line + "\n"), "\(line) in \(shown)")
        }
        // The hint that tells two spellings of a name apart shows them as a table does (helper-74).
        XCTAssertEqual(try cli.run(["-q", "history", "add", "--at", "2026-01-01 10:00", "Squat\nPress"]).status, 0)
        let hint = try cli.run(["history", "add", "--at", "2026-01-02 10:00", #"Squat\nPress"#])
        XCTAssertTrue(hint.stderr.contains(#"'Squat\\nPress' is new; did you mean 'Squat\nPress'?"#), hint.stderr)
        let removed = try cli.run(["history", "remove", "--day", "2026-01-02", "--names", #"Squat\nPress"#])
        XCTAssertTrue(removed.stderr.contains(#"('Squat\\nPress')"#), removed.stderr)
    }

    /// The caret stands under the mistake as a terminal draws the printed filter: a tab, a line
    /// break and a zero-width space inside it are printed as escapes (`\t`, `\n`, `\u{200B}`),
    /// wide letters and emoji take two columns (helper-43: the caret was placed by characters,
    /// so it stood to the left of the mistake, and a filter with a line break had none).
    func testTheCaretStandsUnderTheMistakeAsTheFilterIsPrinted() throws {
        let cli = try CLIHarness()
        // The text inside the quotes, and the columns it takes as printed.
        let cases: [(text: String, columns: Int)] = [
            ("ab", 2), ("a\tb", 4), ("a\u{200B}b", 10), ("한글", 4), ("👍🏽x", 3), ("e\u{301}", 1), ("a\nb", 4), ("\u{1B}[2J", 9),
        ]
        for (text, columns) in cases {
            let filter = "version == \"\(text)\" )"
            let result = try cli.run(["drafts", "list", "--where", filter])
            XCTAssertEqual(result.status, 2, result.stderr)
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(lines.count, 4, "\(text.debugDescription): \(result.stderr)")  // the message, the filter, the caret, ""
            guard lines.count == 4 else { continue }
            // `  version == "` is 14 columns, then the text, then `" `: the caret under the `)`.
            XCTAssertEqual(lines[2], String(repeating: " ", count: 14 + columns + 2) + "^", "\(text.debugDescription): \(result.stderr)")
        }
    }
}
