/// What a command accepts, for the parser and the help text: declared by each command through
/// typed ``Option``s and ``Flag``s, never by names looked up later.

/// An option as the parser and the help text see it (its typed declaration is ``Option`` or ``Flag``).
struct OptionSpec: Sendable {
    let name: String
    var short: Character? = nil
    /// The placeholder for the option's value (`PATH`), or nil for a flag.
    var valueName: String? = nil
    var isRepeatable = false
    let help: String
    /// The values the option accepts, when it is one of a few (`--format`): for completions.
    var choices: [String] = []

    /// The ways to write it on the command line: `--output`, `-o`.
    var spellings: [String] { [name] + (short.map { ["-\($0)"] } ?? []) }

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
    /// The values it takes, when it is one of a few (`drafts|history`): for completions.
    var choices: [String] = []

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
    /// The names of the options the command cannot run without (`--day`): shown without brackets
    /// in its usage, and each one missing a usage error before it runs (``ArgumentParser``).
    var requiredOptions: [String] = []
    var examples: [String] = []

    /// `logbook history move --day <day> --to <day> [--dry-run]`: the required options bare, the
    /// others in brackets, then the positionals (the help's and the manual page's usage line).
    var usage: String {
        (["logbook", name] + options.map { requiredOptions.contains($0.name) ? $0.usage : "[\($0.usage)]" } + positionals.map(\.usage))
            .joined(separator: " ")
    }
}

/// A mistake on the command line: rendered as one `logbook: error:` line, exit status 2.
struct UsageError: Error, Equatable {
    let message: String
    /// The command whose `--help` the message points to.
    var command: String? = nil
    /// Lines shown under the error line, such as a filter with a caret under its problem.
    var detail: [String] = []
}
