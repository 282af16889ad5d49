import Foundation

/// One cell of a report or query row.
public enum Cell: Sendable, Equatable {
    /// Text: a JSON string, a CSV field as is.
    case text(String)
    /// An integer: a JSON number.
    case integer(Int64)
    /// A floating-point number: a JSON number in Swift's shortest round-tripping text, or `null` when it is
    /// not finite.
    case real(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// No value: `null` in JSON, an empty CSV field.
    case null

    /// The cell as a person reads it in a table or a CSV field (`""` for null).
    public var plainText: String {
        switch self {
        case .text(let text): text
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .null: ""
        }
    }
}

/// Writes rows of named cells as JSON (one array of objects), NDJSON or CSV, one row at a time.
///
/// The text is built as UTF-8 and handed to `output` in pieces of about 64 KiB (a report of two
/// million days costs a few dozen calls, not millions of small strings); ``RowStreamWriter/flush()``
/// hands over what is held now, and ``RowStreamWriter/end()`` the rest.
public struct RowStreamWriter {
    /// The format written.
    public let format: DataFormat
    /// The column names, in order: the CSV header and the JSON members' names.
    public let columns: [String]
    /// Takes each piece of UTF-8 text written.
    private let output: (UnsafeRawBufferPointer) throws -> Void
    /// Each column's `"name":`, for JSON.
    private let keys: [[UInt8]]
    /// The text written and not yet handed to `output`.
    private var pending: [UInt8] = []
    private var written = 0
    private static let pieceSize = 1 << 16

    /// A writer that hands its text to `output`; nothing is written before ``RowStreamWriter/begin()``.
    public init(format: DataFormat, columns: [String], output: @escaping (String) throws -> Void) {
        self.init(format: format, columns: columns, writingBytes: { try output(String(decoding: $0, as: UTF8.self)) })
    }

    /// A writer that hands its text to `output` as UTF-8 bytes, valid only during the call: for a
    /// file or stdout, which spares making a `String` of each piece (validating every byte again).
    public init(format: DataFormat, columns: [String], writingBytes output: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.format = format
        self.columns = columns
        self.output = output
        keys = columns.map { column in
            var key: [UInt8] = []
            JSONText.appendQuoted(column, toUTF8: &key)
            return key + [UInt8(ascii: ":")]
        }
        pending.reserveCapacity(Self.pieceSize + 4_096)
    }

    /// Starts the output: `[` for JSON, the header row for CSV, nothing for NDJSON.
    public mutating func begin() throws {
        switch format {
        case .json: pending.append(UInt8(ascii: "["))
        case .csv: appendCSVRow(columns.map(Cell.text))
        case .ndjson: break
        }
    }

    /// Writes one row, one cell per column in the order of ``RowStreamWriter/columns``: CSV fields as
    /// ``Cell/plainText`` (a null cell as a missing field, empty text as `""`), JSON members typed as ``Cell`` says. JSON pairs cells with columns up to the
    /// shorter of the two, while CSV writes every cell given. Throws what `output` throws.
    public mutating func write(_ cells: [Cell]) throws {
        switch format {
        case .csv:
            appendCSVRow(cells)
        case .json, .ndjson:
            if format == .json && written > 0 { pending.append(UInt8(ascii: ",")) }
            pending.append(UInt8(ascii: "{"))
            for (index, (key, cell)) in zip(keys, cells).enumerated() {
                if index > 0 { pending.append(UInt8(ascii: ",")) }
                pending.append(contentsOf: key)
                appendJSON(cell)
            }
            pending.append(UInt8(ascii: "}"))
            if format == .ndjson { pending.append(UInt8(ascii: "\n")) }
        }
        written += 1
        if pending.count >= Self.pieceSize { try flush() }
    }

    /// Hands the text held so far to `output`. Throws what `output` throws.
    public mutating func flush() throws {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        try pending.withUnsafeBytes { try output($0) }
    }

    /// Ends the output (`]` and a newline for JSON, nothing more for NDJSON and CSV) and hands
    /// over the rest. Throws what `output` throws.
    public mutating func end() throws {
        if format == .json { pending.append(contentsOf: "]\n".utf8) }
        try flush()
    }

    private mutating func appendCSVRow(_ cells: [Cell]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { pending.append(UInt8(ascii: ",")) }
            switch cell {
            case .text(let text): CSVText.appendQuoted(text, to: &pending)
            case .integer(let value): appendDecimal(value)
            case .null: break
            default: pending.append(contentsOf: cell.plainText.utf8)
            }
        }
        pending.append(0x0D)
        pending.append(0x0A)
    }

    /// Appends `value` in decimal digits, as `String(value)` spells it: written from the last digit
    /// on the stack, then appended at once (a report of two million days writes six million).
    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { pending.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        guard rest >= 10 else {
            pending.append(UInt8(ascii: "0") + UInt8(rest))
            return
        }
        let width = 20  // UInt64.max has 20 digits
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width) { digits in
            var start = width
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    private mutating func appendJSON(_ cell: Cell) {
        switch cell {
        case .text(let text): JSONText.appendQuoted(text, toUTF8: &pending)
        case .integer(let value): appendDecimal(value)
        case .real(let value): pending.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
        case .bool(let value): pending.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: pending.append(contentsOf: "null".utf8)
        }
    }
}
