import Foundation
import SQLiteQuery

/// The data formats of listings and exports: `json` (one array), `ndjson` (one object per line)
/// and `csv` (RFC 4180 with a header row).
public enum DataFormat: String, Sendable, CaseIterable {
    /// `json`: one array of objects; `ndjson`: one object per line; `csv`: a header row, then CRLF-terminated
    /// rows.
    case json, ndjson, csv
}

/// Writes records one at a time in a ``DataFormat``, handing text to `output` as it goes, so a
/// listing or export of any size streams; an error from `output` (a failed write) stops it. The same records always give the same bytes.
public struct RecordStreamWriter<Record> {
    /// The format written.
    public let format: DataFormat
    private let output: (String) throws -> Void
    private let writeJSON: (Record, inout JSONText) -> Void
    private let csvHeader: [String]
    /// Appends the record's CSV rows, CRLF-terminated, to the output.
    private let csvRows: (Record, inout ChunkedOutput) throws -> Void
    private var written = 0

    init(format: DataFormat, output: @escaping (String) throws -> Void, writeJSON: @escaping (Record, inout JSONText) -> Void,
         csvHeader: [String], headerStyle: CSVHeaderStyle, csvRows: @escaping (Record, inout ChunkedOutput) throws -> Void) {
        self.format = format
        self.output = output
        self.writeJSON = writeJSON
        self.csvHeader = headerStyle == .snakeCase ? csvHeader.map(CSVText.snakeCase) : csvHeader
        self.csvRows = csvRows
    }

    /// Starts the output: `[` for JSON, the header row for CSV.
    public func begin() throws {
        switch format {
        case .json: try output("[")
        case .csv: try output(CSVText.row(csvHeader))
        case .ndjson: break
        }
    }

    /// Writes one record: an element of the array (after a comma) for JSON, one line for NDJSON, its rows for
    /// CSV. Throws what `output` throws.
    public mutating func write(_ record: Record) throws {
        switch format {
        case .json, .ndjson:
            var json = JSONText()
            writeJSON(record, &json)
            try output((format == .json && written > 0 ? "," : "") + json.text + (format == .ndjson ? "\n" : ""))
        case .csv:
            var rows = ChunkedOutput(output)
            try csvRows(record, &rows)
            try rows.flush()
        }
        written += 1
    }

    /// Ends the output: `]` and a newline for JSON.
    public func end() throws {
        if format == .json { try output("]\n") }
    }
}

extension RecordStreamWriter where Record == ReleaseDraft {
    /// Drafts: CSV has one row per checklist item, the draft's fields repeated (one row with missing
    /// item fields for a draft without items), its header spelled as `headerStyle` says.
    public static func drafts(_ format: DataFormat, headerStyle: CSVHeaderStyle = .camelCase,
                              output: @escaping (String) throws -> Void) -> Self {
        Self(format: format, output: output, writeJSON: { $0.writeJSON(to: &$1) },
             csvHeader: ["id", "version", "whatsNew", "submittedAt", "createdAt", "updatedAt",
                         "itemPosition", "itemId", "itemTitle", "itemIsDone"], headerStyle: headerStyle,
             csvRows: { draft, rows in
                 let fields = CSVText.fields([draft.id.text, draft.version, draft.whatsNew,
                                              draft.submittedAt?.iso8601Microseconds, draft.createdAt.iso8601Microseconds,
                                              draft.updatedAt.iso8601Microseconds])
                 if draft.checklist.isEmpty { try rows.append(fields + ",,,,\r\n") }
                 for (offset, item) in draft.checklist.enumerated() {
                     try rows.append(fields + "," + String(offset + 1) + "," + item.id.text + "," + CSVText.quoted(item.title)
                                     + (item.isDone ? ",true\r\n" : ",false\r\n"))
                 }
             })
    }
}

extension RecordStreamWriter where Record == ExerciseDay {
    /// History: CSV has one row per exercise, `id,day,date,position,exercise` (the same in both
    /// header styles).
    public static func history(_ format: DataFormat, output: @escaping (String) throws -> Void) -> Self {
        Self(format: format, output: output, writeJSON: { $0.writeJSON(to: &$1) },
             csvHeader: ["id", "day", "date", "position", "exercise"], headerStyle: .camelCase,
             csvRows: { day, rows in
                 // id, day and date need no quotes; only the exercise name may.
                 let fields = day.id.text + "," + day.day.description + "," + day.date.iso8601Microseconds + ","
                 if day.exercises.isEmpty { try rows.append(fields + ",\r\n") }
                 for (offset, name) in day.exercises.enumerated() {
                     try rows.append(fields + String(offset + 1) + "," + CSVText.quoted(name) + "\r\n")
                 }
             })
    }
}
