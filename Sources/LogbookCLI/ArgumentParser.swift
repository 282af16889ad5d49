/// The hand-written argument parser: command specs, parsing against them, and help text.
///
/// Options are `--name value`, `--name=value`, `-x value` or a flag `--name`; `--` ends options;
/// a lone `-` is a positional (stdin or stdout). Global options are accepted anywhere on the line.

/// An option a command accepts.
struct OptionSpec: Sendable {
    let name: String
    var short: Character? = nil
    /// The placeholder for the option's value (`PATH`), or nil for a flag.
    var valueName: String? = nil
    var isRepeatable = false
    let help: String

    var usage: String {
        let value = valueName.map { " <\($0.lowercased())>" } ?? ""
        return name + value + (isRepeatable ? " ..." : "")
    }
}

/// A positional argument.
struct PositionalSpec: Sendable {
    enum Arity: Sendable { case required, optional, oneOrMore, zeroOrMore }
    let name: String
    var arity: Arity = .required
    let help: String

    var usage: String {
        switch arity {
        case .required: "<\(name)>"
        case .optional: "[<\(name)>]"
        case .oneOrMore: "<\(name)> ..."
        case .zeroOrMore: "[<\(name)> ...]"
        }
    }
}

/// Everything the parser and the help text need to know about one command.
struct CommandSpec: Sendable {
    /// The words after `logbook`: `drafts item add`.
    let name: String
    let abstract: String
    var discussion: String? = nil
    var positionals: [PositionalSpec] = []
    var options: [OptionSpec] = []
    var examples: [String] = []
}

/// A mistake on the command line: rendered as one `logbook: error:` line, exit status 2.
struct UsageError: Error, Equatable {
    let message: String
    /// The command whose `--help` the message points to.
    var command: String? = nil
    /// Lines shown under the error line, such as a filter with a caret under its problem.
    var detail: [String] = []
}

/// The options given anywhere on the line, whatever the command.
let globalOptions: [OptionSpec] = [
    OptionSpec(name: "--db", valueName: "PATH",
               help: "The database file (default: $LOGBOOK_DB, else $XDG_DATA_HOME/logbook/logbook.sqlite)."),
    OptionSpec(name: "--time-zone", valueName: "TZ",
               help: "Time zone for calendar days, e.g. Europe/Paris (default: $TZ, else the system's)."),
    OptionSpec(name: "--help", short: "h", help: "Show help for the command."),
    OptionSpec(name: "--version", help: "Show the version."),
]

/// What the parser found on the command line for one command.
struct ParsedArguments {
    let command: String
    private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private let specs: [String: OptionSpec]

    init(command: String, specs: [OptionSpec]) {
        self.command = command
        self.specs = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the flag (or the option) was given.
    func has(_ name: String) -> Bool { options[name] != nil }

    /// The option's value, the last one when given several times.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value of a repeatable option, in order.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    fileprivate mutating func record(_ name: String, _ value: String) {
        options[name, default: []].append(value)
    }

    fileprivate mutating func append(positional: String) { positionals.append(positional) }

    private func label(_ name: String) -> String { specs[name]?.usage ?? name }

    /// The option's value as a whole number of at least `minimum`, or nil when absent.
    func integer(_ name: String, minimum: Int = 0) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= minimum else {
            throw UsageError(message: "invalid value '\(text)' for '\(label(name))': expected a whole number ≥ \(minimum)",
                             command: command)
        }
        return number
    }

    /// The option's value, which must be one of `choices`; `fallback` when absent.
    func choice(_ name: String, _ choices: [String], default fallback: String) throws -> String {
        guard let text = value(name) else { return fallback }
        guard choices.contains(text) else {
            throw UsageError(message: "invalid value '\(text)' for '\(label(name))': expected one of \(choices.joined(separator: ", "))",
                             command: command)
        }
        return text
    }
}

enum ArgumentParser {
    /// Parses `arguments` (everything after the command words) against `spec`.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws -> ParsedArguments {
        let specs = spec.options + globalOptions
        var parsed = ParsedArguments(command: spec.name, specs: specs)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") || isNegativeNumber(argument) {
                parsed.append(positional: argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (name, attached) = split(argument)
            guard let option = find(name, in: specs) else {
                throw UsageError(message: "unknown option '\(name)'" + suggestion(for: name, among: specs.map(\.name)),
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
                index += 1
            } else {
                throw UsageError(message: "missing value for '\(option.usage)'", command: spec.name)
            }
            if !option.isRepeatable && parsed.has(option.name) && parsed.value(option.name) != value {
                throw UsageError(message: "option '\(option.name)' given more than once", command: spec.name)
            }
            parsed.record(option.name, value)
        }
        let ownsVersion = spec.options.contains { $0.name == "--version" }
        if parsed.has("--help") || (parsed.has("--version") && !ownsVersion) { return parsed }
        try checkPositionals(parsed.positionals, for: spec)
        return parsed
    }

    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().allSatisfy { $0.isNumber || $0 == "." }
    }

    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func find(_ name: String, in specs: [OptionSpec]) -> OptionSpec? {
        if name.hasPrefix("--") { return specs.first { $0.name == name } }
        guard name.count == 2, let letter = name.last else { return nil }
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
        let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= max(2, word.count / 3) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return "" }
        return " (did you mean '\(best.0)'?)"
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    // MARK: Help

    /// The `--help` text of a command.
    static func help(for spec: CommandSpec) -> String {
        var lines = ["OVERVIEW: \(spec.abstract)"]
        if let discussion = spec.discussion { lines += ["", discussion] }
        let optionUsage = spec.options.map { "[\($0.usage)]" }
        let usage = (["logbook", spec.name] + optionUsage + spec.positionals.map(\.usage)).joined(separator: " ")
        lines += ["", "USAGE: \(usage)"]
        if !spec.positionals.isEmpty {
            lines += ["", "ARGUMENTS:"] + spec.positionals.map { row($0.usage, $0.help) }
        }
        if !spec.options.isEmpty {
            lines += ["", "OPTIONS:"] + spec.options.map(optionRow)
        }
        lines += ["", "GLOBAL OPTIONS:"] + globalOptions.map(optionRow)
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
}
