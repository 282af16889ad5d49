import Logbook

/// `-o FILE`: where a data command's output goes, declared once. A command that lists
/// ``option`` in its options gets it; ``CommandLineTool`` sends everything the command writes to
/// stdout into the file, with export's rules (``OutputDestination``). Without `--format`, FILE's
/// extension names the format (``ParsedArguments/format(_:orElse:)``).
enum OutputFile {
    static let option = Option<String>.text(
        "--output", short: "o", valueName: "FILE", help: "Write to FILE instead of stdout: a regular file is replaced whole once "
            + "complete (links followed), never the database or another SQLite database; a FIFO or device is written in place.")

    /// The file given, or nil for stdout (no `-o`, or `-o -`); an empty one is a usage error, as
    /// an empty `--db` is.
    static func path(_ arguments: ParsedArguments) throws -> String? {
        guard let path = try arguments.value(of: option) else { return nil }
        guard !path.isEmpty else {
            throw UsageError(message: "-o is empty: give a file's path, or - for standard output", command: arguments.command)
        }
        return path == "-" ? nil : path
    }
}

extension ParsedArguments {
    /// The value of `format` given; else, with `-o FILE`, the format FILE's extension names
    /// (`-o week.csv`, `-o feed.jsonl`, `-o script.sql`), a usage error when the command does not
    /// write that format (a table in `days.html` would pass for one); else `fallback`.
    func format<Format>(_ format: Option<Format>, orElse fallback: Format) throws -> Format {
        if let given = try value(of: format) { return given }
        guard let path = try OutputFile.path(self), let name = FormatExtension.formatName(of: path) else { return fallback }
        guard format.spec.choices.contains(name) else {
            throw UsageError(message: "-o \(path) names \(name) by its extension, which '\(command)' does not write "
                                 + "(\(format.spec.choices.joined(separator: "|"))); give --format to write one of those into it",
                             command: command)
        }
        return try format.convert(name)
    }
}
