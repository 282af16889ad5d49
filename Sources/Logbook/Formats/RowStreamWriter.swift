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
public struct RowStreamWriter {
    /// The format written.
    public let format: DataFormat
    /// The column names, in order: the CSV header and the JSON members' names.
    public let columns: [String]
    private let output: (String) throws -> Void
    private var written = 0

    /// A writer that hands its text to `output`; nothing is written before ``RowStreamWriter/begin()``.
    public init(format: DataFormat, columns: [String], output: @escaping (String) throws -> Void) {
        self.format = format
        self.columns = columns
        self.output = output
    }

    /// Starts the output: `[` for JSON, the header row for CSV, nothing for NDJSON. Throws what `output`
    /// throws.
    public func begin() throws {
        switch format {
        case .json: try output("[")
        case .csv: try output(CSVText.row(columns))
        case .ndjson: break
        }
    }

    /// Writes one row, one cell per column in the order of ``RowStreamWriter/columns``: CSV fields as
    /// ``Cell/plainText`` (a null cell as a missing field, empty text as `""`), JSON members typed as ``Cell`` says. JSON pairs cells with columns up to the
    /// shorter of the two, while CSV writes every cell given. Throws what `output` throws.
    public mutating func write(_ cells: [Cell]) throws {
        switch format {
        case .csv:
            try output(CSVText.row(cells.map { $0 == .null ? nil : $0.plainText }))
        case .json, .ndjson:
            var json = JSONText()
            json.beginObject()
            for (column, cell) in zip(columns, cells) {
                json.key(column)
                switch cell {
                case .text(let text): json.string(text)
                case .integer(let value): json.raw(String(value))
                case .real(let value): value.isFinite ? json.raw(String(value)) : json.null()
                case .bool(let value): json.bool(value)
                case .null: json.null()
                }
            }
            json.endObject()
            try output((format == .json && written > 0 ? "," : "") + json.text + (format == .ndjson ? "\n" : ""))
        }
        written += 1
    }

    /// Ends the output: `]` and a newline for JSON, nothing for NDJSON and CSV.
    public func end() throws {
        if format == .json { try output("]\n") }
    }
}
