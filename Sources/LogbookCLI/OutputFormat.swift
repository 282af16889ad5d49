import Logbook

/// `--format table|json|ndjson|csv`: how a listing, show, count or report is written.
enum OutputFormat: String, CaseIterable {
    case table, json, ndjson, csv

    static func option(_ allowed: [String]) -> OptionSpec {
        OptionSpec(name: "--format", valueName: "FMT", help: "Output format: \(allowed.joined(separator: "|")) (default: table).")
    }

    /// The streaming data format, or nil for `table`.
    var dataFormat: DataFormat? { DataFormat(rawValue: rawValue) }

    static func parse(_ invocation: Invocation, allowed: [String]) throws -> OutputFormat {
        let name = try invocation.arguments.choice("--format", allowed, default: "table")
        return OutputFormat(rawValue: name) ?? .table
    }
}
