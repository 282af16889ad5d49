import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// `report` and `query` in a data format hand their rows to a writing thread in batches (at most
/// 8,192 rows or about 1 MiB each): every row comes out whole, once, in order and byte for byte
/// in JSON, NDJSON and CSV, however the batches fall. Seeded (`LOGBOOK_BATCH_SEED`): histories of
/// two to three batches of days with adversarial exercise names, and query rows of random sizes
/// around the byte limit.
final class BatchedOutputCLITests: XCTestCase {
    /// One row of output as the test reads it back: its cells in order, nil for a missing value.
    private typealias Cells = [String?]

    func testReportRowsComeOutWholeInEveryDataFormat() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_BATCH_SEED", default: 21))
        let cli = try CLIHarness()
        // From 2 × 8,192 + 1 to 3 × 8,192 calendar days, about one in three with exercises: the
        // daily report's rows (one per calendar day) of the first 9,000 days, whose names are
        // short, fill a batch by the row limit; the later ones' long names reach the byte limit.
        let span = random.int(16_385...24_575)
        let first = CalendarDay("1990-01-01")!
        var days: [ExerciseDay] = []
        for offset in 0..<span where offset == 0 || offset == span - 1 || random.chance(0.35) {
            let day = first.adding(days: offset)!
            let names = (0..<random.int(1...3)).map { _ in
                AdversarialText.string(using: &random, maxPieces: offset < 9_000 ? 1 : 12, nonEmpty: true)
            }
            days.append(ExerciseDay(date: day.start(in: TimeZone(identifier: "UTC")!) + 3_600, day: day, exercises: names))
        }
        let store = try Logbook(path: cli.database.path, timeZone: TimeZone(identifier: "UTC")!)
        try store.history.save(days)
        var expected: [Cells] = []
        try store.reports.history(by: .day) { row in
            expected.append([row.period, String(row.activeDays), String(row.exercises), String(row.distinctExercises), row.topExercise])
        }
        XCTAssertEqual(expected.count, span)

        let names = ["period", "activeDays", "exercises", "distinctExercises", "topExercise"]
        for format in ["json", "ndjson", "csv"] {
            let result = try cli.run(["report", "history", "--by", "day", "--format", format])
            XCTAssertEqual(result.status, 0, result.stderr)
            let rows = try Self.rows(of: result.output, format: format, columns: names)
            Self.assertSameRows(rows, expected, "report history --by day --format \(format)")
        }
    }

    func testQueryRowsOfAnySizeComeOutWholeInEveryDataFormat() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_BATCH_SEED", default: 21))
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-05T10:00:00Z"]).status, 0)
        // Row i holds one of the pieces formats escape or quote (a quote, a backslash, a comma,
        // CRLF, LF, a control, a combining mark, a four-byte scalar, a letter) repeated, the
        // choices spread by the seed's factors: up to 40 times in the first 8,193 to 10,000 rows
        // (batches that end on the row limit), up to 600 times in the 3,000 to 6,000 after them
        // (batches that end on the byte limit). SQL makes the rows (`zeroblob` as the repeat
        // count), as the statement must stay shorter than one argument may be.
        let pieces = [("'\"'", "\""), ("'\\'", "\\"), ("','", ","), ("char(13, 10)", "\r\n"), ("char(10)", "\n"),
                      ("char(1)", "\u{1}"), ("'e' || char(769)", "e\u{301}"), ("char(127881)", "🎉"), ("'a'", "a")]
        let shortRows = random.int(8_193...10_000), count = shortRows + random.int(3_000...6_000)
        let (lengthFactor, lengthOffset) = (random.int(1...9_999), random.int(0...599))
        let (pieceFactor, pieceOffset) = (random.int(1...9_999), random.int(0...8))
        let choice = pieces.indices.map { "WHEN \($0) THEN \(pieces[$0].0)" }.joined(separator: " ")
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            SELECT i, replace(hex(zeroblob((i * \(lengthFactor) + \(lengthOffset)) % (CASE WHEN i <= \(shortRows) THEN 40 ELSE 600 END) + 1)),
                              '00', CASE (i * \(pieceFactor) + \(pieceOffset)) % \(pieces.count) \(choice) END) AS text
            FROM n
            """
        let expected: [Cells] = (1...count).map { i in
            let piece = pieces[(i * pieceFactor + pieceOffset) % pieces.count].1
            let repeats = (i * lengthFactor + lengthOffset) % (i <= shortRows ? 40 : 600) + 1
            return [String(i), String(repeating: piece, count: repeats)]
        }
        for format in ["json", "ndjson", "csv"] {
            let result = try cli.run(["query", "--format", format, sql])
            XCTAssertEqual(result.status, 0, result.stderr)
            let rows = try Self.rows(of: result.output, format: format, columns: ["i", "text"])
            Self.assertSameRows(rows, expected, "query --format \(format)")
        }
    }

    /// Compares rows cell by cell, by their bytes (Swift's `==` would take NFC and NFD spellings
    /// for the same text), and names the first row that differs.
    private static func assertSameRows(_ rows: [Cells], _ expected: [Cells], _ what: String,
                                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(rows.count, expected.count, "\(what): row count", file: file, line: line)
        let bytes = { (row: Cells) in row.map { $0.map { Array($0.utf8) } } }
        if let index = zip(rows, expected).enumerated().first(where: { bytes($0.element.0) != bytes($0.element.1) })?.offset {
            XCTFail("\(what): row \(index + 1) is \(rows[index]), expected \(expected[index])", file: file, line: line)
        }
    }

    /// The rows of `output` in `format`, each the cells of `columns` in order (the header checked
    /// in CSV); numbers as their decimal text.
    private static func rows(of output: Data, format: String, columns: [String]) throws -> [Cells] {
        switch format {
        case "json":
            return try JSONDecoder().decode([[String: JSONCell]].self, from: output).map { try cells(of: $0, columns) }
        case "ndjson":
            XCTAssertEqual(output.last, 0x0A, "every line ends with a newline")
            return try output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { line in
                try cells(of: try JSONDecoder().decode([String: JSONCell].self, from: Data(line)), columns)
            }
        default:
            let records = try CSVRecords.parse(Array(output))
            XCTAssertEqual(records.first, columns.map { Optional($0) }, "the header")
            return Array(records.dropFirst())
        }
    }

    /// A JSON value as the test reads it: text, an integer or null. Read with `JSONDecoder`:
    /// Foundation's `JSONSerialization` on Linux drops a string's leading U+FEFF.
    private enum JSONCell: Decodable {
        case text(String), integer(Int64), null

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let integer = try? container.decode(Int64.self) {
                self = .integer(integer)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        var cell: String? {
            switch self {
            case .text(let text): text
            case .integer(let integer): String(integer)
            case .null: nil
            }
        }
    }

    /// The cells of a JSON object in the order of `columns`.
    private static func cells(of object: [String: JSONCell], _ columns: [String]) throws -> Cells {
        XCTAssertEqual(Set(object.keys), Set(columns))
        return try columns.map { try XCTUnwrap(object[$0], "no \($0)").cell }
    }
}
