import Foundation
@testable import Logbook
import LogbookTestSupport
import XCTest

/// The rows of `logbook report` and `query` as JSON, NDJSON and CSV: every cell comes back exactly
/// from what the writer hands over, in whatever pieces, for adversarial text (every class of
/// Unicode scalar, NUL and other controls, quotes, commas, line ends) and extreme numbers.
final class RowStreamWriterTests: XCTestCase {
    private static let columns = ["period", "count", "ratio", "flag", "note", "mark"]

    /// Rows past the writer's 64 KiB piece, so rows cross the pieces it hands over.
    private static func rows(seed: UInt64) -> [[Cell]] {
        var random = SplitMix64(seed: seed)
        let integers: [Int64] = [0, -1, 1, 9, 10, Int64.min, Int64.max, Int64.min + 1, 1_000_000_007]
        return (0..<3_000).map { _ in
            [.text(AdversarialText.string(using: &random)),
             .integer(random.chance(0.5) ? random.pick(integers) : Int64(bitPattern: random.next())),
             random.chance(0.2) ? .real(random.pick([Double.nan, .infinity, -0.0, 5e-324, 0.1])) : .real(Double(bitPattern: random.next())),
             .bool(random.chance(0.5)),
             // The longest spellings: every byte a quote (CSV doubles each) or a control character (JSON's `\u00XX`).
             random.chance(0.3) ? .null : .text(random.pick(["", ",", "\"", "\r\n", "a\"b,c", "\u{0}",
                                                             String(repeating: "\"", count: random.int(1...300)),
                                                             String(repeating: "\u{1}", count: random.int(1...300))])),
             .text(AdversarialText.string(using: &random))]
        }
    }

    /// All the text `format` writes for `rows`, and how many pieces it came in.
    private static func written(_ rows: [[Cell]], as format: DataFormat) throws -> (text: String, pieces: Int) {
        var text = "", pieces = 0
        var writer = RowStreamWriter(format: format, columns: columns) { piece in
            text += piece
            pieces += 1
        }
        try writer.begin()
        for row in rows { try writer.write(row) }
        try writer.end()
        return (text, pieces)
    }

    /// The JSON value a cell should come back as.
    private static func json(_ cell: Cell) -> JSONValue {
        switch cell {
        case .text(let text): .string(text)
        case .integer(let value): .number(String(value))
        case .real(let value): value.isFinite ? .number(String(value).replacingOccurrences(of: "E", with: "e")) : .null
        case .bool(let value): .bool(value)
        case .null: .null
        }
    }

    func testJSONAndNDJSONGiveBackEveryCellExactly() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_ROW_WRITER_SEED", default: 0x524F_5753)
        let rows = Self.rows(seed: seed)
        let expected = rows.map { row in JSONValue.object(zip(Self.columns, row).map { (key: $0, value: Self.json($1)) }) }

        let ndjson = try Self.written(rows, as: .ndjson)
        XCTAssertGreaterThan(ndjson.pieces, 1, "seed \(seed): the rows fit one piece")
        let lines = JSONParser(stream: ByteStream(data: Data(ndjson.text.utf8)), isLineDelimited: true)
        for (index, row) in expected.enumerated() {
            XCTAssertEqual(try lines.nextLine(), row, "seed \(seed), NDJSON row \(index + 1)")
        }
        XCTAssertNil(try lines.nextLine(), "seed \(seed)")

        let json = try Self.written(rows, as: .json)
        let array = JSONParser(stream: ByteStream(data: Data(json.text.utf8)))
        try array.beginArray()
        for (index, row) in expected.enumerated() {
            XCTAssertEqual(try array.nextElement(isFirst: index == 0), row, "seed \(seed), JSON element \(index + 1)")
        }
        XCTAssertNil(try array.nextElement(isFirst: false), "seed \(seed)")
        try array.expectEnd()
    }

    /// CSV as RFC 4180 spells it: each row the same bytes as `CSVText.row` makes of its fields.
    func testCSVIsEachRowAsCSVTextSpellsIt() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_ROW_WRITER_SEED", default: 0x4353_5652)
        let rows = Self.rows(seed: seed)
        let csv = try Self.written(rows, as: .csv)
        XCTAssertGreaterThan(csv.pieces, 1, "seed \(seed): the rows fit one piece")
        let expected = CSVText.row(Self.columns) + rows.map { row in CSVText.row(row.map { $0 == .null ? nil : $0.plainText }) }.joined()
        XCTAssertTrue(csv.text.utf8.elementsEqual(expected.utf8), "seed \(seed): the CSV differs")
        // Read back, every field is its cell's text byte for byte (a missing field and "" both read as empty).
        var reader = CSVReader(stream: ByteStream(data: Data(csv.text.utf8)))
        XCTAssertEqual(try reader.nextRow(), Self.columns)
        for (index, row) in rows.enumerated() {
            let fields = try XCTUnwrap(try reader.nextRow(), "seed \(seed): row \(index + 1) is missing")
            XCTAssertEqual(fields.map { Array($0.utf8) }, row.map { Array($0.plainText.utf8) }, "seed \(seed), CSV row \(index + 1)")
        }
        XCTAssertNil(try reader.nextRow(), "seed \(seed)")
    }
}
