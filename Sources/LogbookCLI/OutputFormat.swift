import Logbook

/// `--format table|json|ndjson|csv`: how a listing, show, count or report is written.
enum OutputFormat: String, CaseIterable, Sendable {
    case table, json, ndjson, csv

    /// The `--format` option of a command that writes `allowed` (the first is the default).
    static func option(_ allowed: [OutputFormat] = allCases) -> Option<OutputFormat> {
        .choice("--format", valueName: "FMT", among: allowed,
                help: "Output format: \(allowed.map(\.rawValue).joined(separator: "|")) (default: \(allowed[0].rawValue)).")
    }

    /// The streaming data format, or nil for `table`.
    var dataFormat: DataFormat? { DataFormat(rawValue: rawValue) }
}
