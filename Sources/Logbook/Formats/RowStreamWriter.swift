import Foundation

/// One cell of a report or query row.
public enum Cell: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
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
    public let format: DataFormat
    public let columns: [String]
    private let output: (String) throws -> Void
    private var written = 0

    public init(format: DataFormat, columns: [String], output: @escaping (String) throws -> Void) {
        self.format = format
        self.columns = columns
        self.output = output
    }

    public func begin() throws {
        switch format {
        case .json: try output("[")
        case .csv: try output(CSVText.row(columns))
        case .ndjson: break
        }
    }

    public mutating func write(_ cells: [Cell]) throws {
        switch format {
        case .csv:
            try output(CSVText.row(cells.map(\.plainText)))
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

    public func end() throws {
        if format == .json { try output("]\n") }
    }
}
