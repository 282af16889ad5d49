/// The format a file's name says it holds, by its extension (in any case), declared once for
/// `import --format auto`, export's `-o` and every other command's `-o`.
package enum FormatExtension {
    /// Each extension with the name of its format (`--format`'s value).
    private static let formats: [(suffix: String, format: String)] = [
        (".json", "json"), (".ndjson", "ndjson"), (".jsonl", "ndjson"), (".csv", "csv"), (".plist", "plist"),
        (".sql", "postgres"), (".html", "html"), (".htm", "html"),
    ]

    /// The name of the format the extension of `path` names (`h.jsonl` → `ndjson`), or nil for
    /// another or none.
    package static func formatName(of path: String) -> String? {
        let lowered = path.lowercased()
        return formats.first { lowered.hasSuffix($0.suffix) }?.format
    }
}
