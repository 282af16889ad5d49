import Foundation

/// `logbook help --man`: the manual page in troff (`man -l`), generated from the commands'
/// declarations, as the help text is.
enum ManPage {
    static func render(version: String) -> String {
        var lines = [
            ".TH LOGBOOK 1 \"\" \"logbook \(version)\" \"User Commands\"",
        ] + asciiFallbacks + [
            ".SH NAME",
            "logbook \\- a SQLite-backed history of release drafts and exercise days",
            ".SH SYNOPSIS",
            ".B logbook",
            "[\\fB\\-\\-db\\fR \\fIPATH\\fR] [\\fB\\-\\-time\\-zone\\fR \\fITZ\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR] [\\fIOPTIONS\\fR]",
            ".SH DESCRIPTION",
            text("Logbook keeps release drafts (a version, What's New, an ordered checklist, a submission date) and "
                 + "exercise-day history (one record per calendar day) in one SQLite file, and lists, filters, sorts, "
                 + "imports, exports and reports them. Every command that changes data is one transaction."),
            ".SH COMMANDS",
        ]
        for command in Commands.all {
            let spec = command.spec
            lines.append(".SS \"\(text(spec.name))\"")
            lines.append(text(spec.abstract))
            if let discussion = spec.discussion { lines += [".PP", text(discussion)] }
            lines += [".PP", ".B Usage:", text(spec.usage)]
            for option in spec.options { lines += item(option) }
            for example in spec.examples { lines += [".PP", ".nf", text(example), ".fi"] }
        }
        lines.append(".SH GLOBAL OPTIONS")
        for option in GlobalOptions.all { lines += item(option) }
        lines += [
            ".SH EXIT STATUS",
            text("0 on success; 2 for a usage error (an unknown command or option, a bad value or date); 1 for any other "
                 + "failure. Every error is one line on standard error that starts with 'logbook: error:'."),
            ".SH ENVIRONMENT",
            ".TP", ".B LOGBOOK_DB", text("The database when --db is not given."),
            ".TP", ".B TZ", text("The time zone when --time-zone is not given."),
            ".TP", ".B LOGBOOK_CACHE_KIB", text("SQLite's page cache, in KiB (default 2048; 65536 while importing, and a quarter of that for the import's temporary tables)."),
            ".SH FILES",
            ".TP", ".I $XDG_DATA_HOME/logbook/logbook.sqlite", text("The default database (~/.local/share/logbook/logbook.sqlite)."),
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// An option as a tagged paragraph: its names and value, then its help.
    private static func item(_ option: OptionSpec) -> [String] {
        let names = (option.short.map { "\\fB\\-\($0)\\fR, " } ?? "") + "\\fB" + text(option.name) + "\\fR"
            + (option.valueName.map { " \\fI\(text($0))\\fR" } ?? "")
        let choices = option.choices.isEmpty ? "" : " One of: " + option.choices.joined(separator: ", ") + "."
        return [".TP", names, text(option.help + choices)]
    }

    /// What groff draws for the characters beyond ASCII the page uses where the terminal's
    /// character set lacks them (`LC_ALL=C`: it dropped the ellipsis with a warning; helper-86);
    /// a test requires one for each. `.fchar` is groff's (`\n(.g`); other formatters skip the lines.
    private static let asciiFallbacks = [("2026", "..."), ("2018", "\\(aq"), ("2019", "\\(aq"), ("201C", "\\(dq"), ("201D", "\\(dq"),
                                         ("2013", "\\-"), ("2014", "\\-\\-"), ("2192", "\\->"), ("00D7", "x"),
                                         ("00E9", "e")]
        .map { ".if \\n(.g .fchar \\[u\($0.0)] \($0.1)" }

    /// Text safe in troff: backslashes and hyphens escaped, characters beyond ASCII written as
    /// `\[u2026]`, no line starting with a control character.
    private static func text(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default: escaped += "\\[u" + String(format: "%04X", scalar.value) + "]"
            }
        }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n")
    }
}
