/// Help text rendered from the commands' declarations: `logbook --help`, a group's and a command's.
enum HelpText {
    /// The `--help` text of a command.
    static func command(_ spec: CommandSpec) -> String {
        var lines = ["OVERVIEW: \(spec.abstract)"]
        if let discussion = spec.discussion { lines += ["", discussion] }
        lines += ["", "USAGE: \(spec.usage)"]
        if !spec.positionals.isEmpty {
            lines += ["", "ARGUMENTS:"] + spec.positionals.map { row($0.usage, $0.help) }
        }
        if !spec.options.isEmpty {
            lines += ["", "OPTIONS:"] + spec.options.map(optionRow)
        }
        lines += ["", "GLOBAL OPTIONS:"] + GlobalOptions.all.map(optionRow)
        if !spec.examples.isEmpty {
            lines += ["", "EXAMPLES:"] + spec.examples.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func optionRow(_ option: OptionSpec) -> String {
        let names = (option.short.map { "-\($0), " } ?? "") + option.usage
        return row(names, option.help)
    }

    static func row(_ left: String, _ right: String) -> String {
        let column = 28
        let padded = "  " + left
        if padded.count + 2 > column { return padded + "\n" + String(repeating: " ", count: column) + right }
        return padded + String(repeating: " ", count: column - padded.count) + right
    }

    /// The help of `logbook` itself or of a command group.
    static func group(_ prefix: String) -> String {
        let title = prefix.isEmpty
            ? "logbook: a SQLite-backed history of release drafts and exercise days."
            : (Commands.groups[prefix] ?? "")
        var lines = ["OVERVIEW: \(title)", "", "USAGE: logbook \(prefix.isEmpty ? "" : prefix + " ")<subcommand> [options]",
                     "", "SUBCOMMANDS:"]
        for word in Commands.subcommands(of: prefix) {
            let name = prefix.isEmpty ? word : prefix + " " + word
            let abstract = Commands.all.first { $0.spec.name == name }?.spec.abstract ?? Commands.groups[name] ?? ""
            lines.append(row(word, abstract))
        }
        lines += ["", "GLOBAL OPTIONS:"] + GlobalOptions.all.map(optionRow)
        lines += ["", "See 'logbook <subcommand> --help' for the options of each."]
        return lines.joined(separator: "\n") + "\n"
    }
}
