import SQLiteQuery

/// The hand-written argument parser: a command's arguments, parsed against its ``CommandSpec``.
///
/// Options are `--name value`, `--name=value`, `-x value` or a flag `--name`; `--` ends options;
/// a lone `-` is a positional (stdin or stdout), and so is an argument whose dashes a space or a
/// line break follows (SQL that opens with a `-- comment`, an exercise named `- Plank`): no option
/// is named so. (`"--at yesterday"`, an option and its value quoted as one, stays an unknown
/// option, not a name to store.) An option's value given apart that reads as one of the
/// command's options is not taken as the value: `--version --help` asks for help, `--version
/// --quiet` is refused as a missing value (write `--version=--quiet` for that text); `--version
/// 1h` is a value. Global options are accepted anywhere on the line.

enum ArgumentParser {
    /// Parses `arguments` (everything after the command words) against `spec`.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws -> ParsedArguments {
        let specs = spec.options + GlobalOptions.all
        var parsed = ParsedArguments(command: spec.name)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !looksLikeOption(argument) {
                parsed.append(positional: argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (name, attached) = split(argument)
            guard let option = find(name, in: specs) else {
                let closest = suggestion(for: name, among: specs.map(\.name))
                throw UsageError(message: "unknown option '\(name)'"
                                    + (closest.isEmpty ? " (to give a value that begins with '-', put -- before it)" : closest),
                                 command: spec.name)
            }
            if option.valueName == nil {
                if attached != nil {
                    throw UsageError(message: "option '\(option.name)' takes no value", command: spec.name)
                }
                parsed.record(option.name, "")
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count {
                value = arguments[index]
                if value == "--help" || value == "-h" {
                    // `drafts add --version --help` asks for help: it made a draft whose version was "--help".
                    parsed.record(GlobalOptions.help.spec.name, "")
                    index += 1
                    continue
                }
                if looksLikeOption(value), let other = find(split(value).name, in: specs) {
                    let named = value == other.name ? "an option" : "the option '\(other.name)'"
                    throw UsageError(message: "missing value for '\(option.usage)' ('\(value)' is \(named); "
                                        + "for that text as the value, write \(option.name)=\(value))", command: spec.name)
                }
                index += 1
            } else {
                throw UsageError(message: "missing value for '\(option.usage)'", command: spec.name)
            }
            if !option.isRepeatable, let earlier = parsed.texts(named: option.name).last, earlier != value {
                throw UsageError(message: "option '\(option.name)' given more than once", command: spec.name)
            }
            parsed.record(option.name, value)
        }
        if parsed.isSet(GlobalOptions.help) || asksForVersion(parsed, spec) { return parsed }
        for option in spec.options where spec.requiredOptions.contains(option.name) && !parsed.isGiven(option) {
            throw UsageError(message: "missing '\(option.usage)'", command: spec.name)
        }
        try checkPositionals(parsed.positionals, for: spec)
        return parsed
    }

    /// Whether the line asks for the tool's version: `--version`, unless the command has its own
    /// `--version` option (`drafts add --version 2.5.0`).
    static func asksForVersion(_ parsed: ParsedArguments, _ spec: CommandSpec) -> Bool {
        parsed.isSet(GlobalOptions.version) && !spec.options.contains { $0.name == GlobalOptions.version.spec.name }
    }

    /// Whether `argument` is read as an option (or `--`): it begins with a dash, and is not a lone
    /// `-`, a negative number, or dashes that a space or a line break follows.
    private static func looksLikeOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != "-" && !isNegativeNumber(argument)
            && argument.drop(while: { $0 == "-" }).first?.isWhitespace != true
    }

    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().allSatisfy { $0.isNumber || $0 == "." }
    }

    private static func split(_ argument: String) -> (name: String, value: String?) {
        // At the first `=` scalar: `--version=\u{301}x` (a value that starts with a combining mark).
        guard argument.hasPrefix("--"), let (name, value) = argument.split(atFirst: "=") else { return (argument, nil) }
        return (name, value)
    }

    private static func find(_ name: String, in specs: [OptionSpec]) -> OptionSpec? {
        if name.hasPrefix("--") { return specs.first { $0.name == name } }
        guard name.count == 2, name.hasPrefix("-"), let letter = name.last else { return nil }
        return specs.first { $0.short == letter }
    }

    private static func checkPositionals(_ positionals: [String], for spec: CommandSpec) throws {
        var remaining = positionals.count
        for positional in spec.positionals {
            switch positional.arity {
            case .required, .oneOrMore:
                if remaining == 0 {
                    throw UsageError(message: "missing expected argument '\(positional.usage)'", command: spec.name)
                }
                remaining -= positional.arity == .required ? 1 : remaining
            case .optional:
                remaining -= min(remaining, 1)
            case .zeroOrMore:
                remaining = 0
            }
        }
        if remaining > 0 {
            throw UsageError(message: "unexpected argument '\(positionals[positionals.count - remaining])'",
                             command: spec.name)
        }
    }

    /// ` (did you mean '--format'?)` when one candidate is close to `word`, else "".
    static func suggestion(for word: String, among candidates: [String]) -> String {
        word.closest(among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
