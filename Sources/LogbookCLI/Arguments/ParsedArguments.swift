/// What the parser found on the command line for one command, read through the commands' typed
/// declarations: `try arguments.value(of: Self.limit)`, `arguments.isSet(Self.dryRun)`.
struct ParsedArguments {
    let command: String
    private(set) var positionals: [String] = []
    /// The texts given for each option, by its name, in order.
    private var given: [String: [String]] = [:]

    init(command: String) {
        self.command = command
    }

    /// Whether the flag was given.
    func isSet(_ flag: Flag) -> Bool { isGiven(flag.spec) }

    /// Whether the option was given at all.
    func isGiven<Value>(_ option: Option<Value>) -> Bool { isGiven(option.spec) }

    /// Whether the option (or flag) with this declaration was given.
    func isGiven(_ spec: OptionSpec) -> Bool { given[spec.name] != nil }

    /// The option's value (the last one when given several times), or nil when absent.
    func value<Value>(of option: Option<Value>) throws -> Value? {
        try given[option.spec.name]?.last.map { try convert($0, option) }
    }

    /// The value of an option the command's spec requires (``CommandSpec/requiredOptions``), which
    /// the parser has checked is given.
    func requiredValue<Value>(of option: Option<Value>) throws -> Value {
        guard let value = try value(of: option) else { preconditionFailure("\(option.spec.name) is not a required option of \(command)") }
        return value
    }

    /// Every value of a repeatable option, in order.
    func values<Value>(of option: Option<Value>) throws -> [Value] {
        try (given[option.spec.name] ?? []).map { try convert($0, option) }
    }

    private func convert<Value>(_ text: String, _ option: Option<Value>) throws -> Value {
        do {
            return try option.convert(text)
        } catch let invalid as InvalidValue {
            throw UsageError(message: "invalid \(invalid.noun) '\(text)' for '\(option.spec.usage)': \(invalid.expected)",
                             command: command)
        }
    }

    // MARK: Recording, for the parser

    /// The texts recorded for the option named `name`.
    func texts(named name: String) -> [String] { given[name] ?? [] }

    mutating func record(_ name: String, _ value: String) {
        given[name, default: []].append(value)
    }

    mutating func append(positional: String) { positionals.append(positional) }
}
