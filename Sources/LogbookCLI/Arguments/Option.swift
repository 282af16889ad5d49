import Foundation
import Logbook

/// An option declared once with the Swift type of its value, like swift-argument-parser's
/// `@Option`: a command lists `Self.limit.spec` among its options and reads
/// `try invocation.arguments.value(of: Self.limit)`. Parsing, validation, the help text and the
/// "did you mean" suggestions all come from this one declaration, so a misspelt option cannot be
/// a silent nil.
struct Option<Value>: Sendable {
    let spec: OptionSpec
    /// Makes the value from the text given; throws ``InvalidValue`` saying what was expected.
    let convert: @Sendable (String) throws -> Value
}

/// An option without a value: given or not.
struct Flag: Sendable {
    let spec: OptionSpec

    init(_ name: String, short: Character? = nil, help: String) {
        spec = OptionSpec(name: name, short: short, help: help)
    }
}

/// Why an option's text is not a value of its type, for the message
/// `invalid <noun> '<text>' for '<usage>': <expected>`.
struct InvalidValue: Error {
    /// What the text was read as: "value", "day", "date".
    var noun = "value"
    /// What was expected: "expected a whole number ≥ 0".
    let expected: String
}

extension Option where Value == String {
    /// Text taken as given.
    static func text(_ name: String, short: Character? = nil, valueName: String, repeatable: Bool = false,
                     help: String) -> Option {
        Option(spec: OptionSpec(name: name, short: short, valueName: valueName, isRepeatable: repeatable, help: help)) { $0 }
    }
}

extension Option where Value == Int {
    /// A whole number of at least `minimum`.
    static func integer(_ name: String, valueName: String = "N", minimum: Int = 0, help: String) -> Option {
        Option(spec: OptionSpec(name: name, valueName: valueName, help: help)) { text in
            guard let number = Int(text), number >= minimum else { throw InvalidValue(expected: "expected a whole number ≥ \(minimum)") }
            return number
        }
    }
}

extension Option where Value: RawRepresentable<String> & Sendable {
    /// One of `choices`, by its raw value.
    static func choice(_ name: String, valueName: String, among choices: [Value], help: String) -> Option {
        Option(spec: OptionSpec(name: name, valueName: valueName, help: help, choices: choices.map(\.rawValue))) { text in
            guard let value = choices.first(where: { $0.rawValue == text }) else {
                throw InvalidValue(expected: "expected one of \(choices.map(\.rawValue).joined(separator: ", "))")
            }
            return value
        }
    }
}

extension Option where Value == DateExpression {
    /// A date as people say it (``DateExpression``): checked as it is read, resolved with the clock
    /// and the time zone when the command runs.
    static func date(_ name: String, valueName: String = "WHEN", help: String) -> Option {
        Option(spec: OptionSpec(name: name, valueName: valueName, help: help)) { text in
            guard let expression = DateExpression(text) else {
                throw InvalidValue(noun: "date", expected: DateExpression.problem(reading: text))
            }
            return expression
        }
    }
}
