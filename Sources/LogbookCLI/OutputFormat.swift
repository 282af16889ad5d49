import Logbook

/// `--format table|json|ndjson|csv` (and `html` for reports): how a listing, show, count or report
/// is written.
enum OutputFormat: String, CaseIterable, Sendable {
    case table, json, ndjson, csv, html

    /// The formats of every command that writes rows: a table for people and the data formats.
    static let rows: [OutputFormat] = [.table, .json, .ndjson, .csv]

    /// The `--format` option of a command that writes `allowed` (the first is the default).
    static func option(_ allowed: [OutputFormat] = rows) -> Option<OutputFormat> {
        .choice("--format", valueName: "FMT", among: allowed,
                help: "Output format: \(allowed.map(\.rawValue).joined(separator: "|")) (default: \(allowed[0].rawValue)).")
    }

    /// The streaming data format, or nil for `table` and `html`.
    var dataFormat: DataFormat? { DataFormat(rawValue: rawValue) }
}
