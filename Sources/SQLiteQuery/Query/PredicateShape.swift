import Foundation

/// What decides a predicate's SQL apart from its captured values: the expression's type (every
/// node's kind and generic arguments), and what the type leaves open, in the order the translation
/// visits it: each key path, each comparison or arithmetic operator, which variable each reference
/// names, and each captured value's class (nil, text or other, and a list's length). Two
/// predicates of one shape translate to the same SQL with their values bound in the same places,
/// which is what lets ``PredicateTemplates`` translate a shape once.
struct PredicateShape: Hashable {
    fileprivate enum Part: Equatable {
        case keyPath(AnyKeyPath)
        case `operator`(String)
        /// The position of the variable's latest definition among the predicate's variables, or -1
        /// for a variable the predicate does not define.
        case variable(Int)
        case value(ValueClass)
        case list(count: Int)
    }

    /// What a captured value's translation depends on: text gets a comparison key, nil is
    /// optional, and any other value (a number, a date, a blob) is an operand of no known kind.
    enum ValueClass: Hashable {
        case null, text, other

        init(_ value: DatabaseValue) {
            switch value {
            case .null: self = .null
            case .text: self = .text
            case .integer, .real, .blob: self = .other
            }
        }
    }

    private let expressionType: ObjectIdentifier
    fileprivate var parts: [Part] = []

    fileprivate init(expressionType: Any.Type) {
        self.expressionType = ObjectIdentifier(expressionType)
        parts.reserveCapacity(16)
    }

    /// Every part, but a key path by its type (root and value) only: hashing the key path walked
    /// its components, about 1,800 instructions a fetch (callgrind). Equal key paths have one
    /// type, and shapes whose key paths differ but share their types are told apart by `==`.
    func hash(into hasher: inout Hasher) {
        hasher.combine(expressionType)
        for part in parts {
            switch part {
            case .keyPath(let keyPath): hasher.combine(ObjectIdentifier(type(of: keyPath)))
            case .operator(let symbol): hasher.combine(symbol)
            case .variable(let index): hasher.combine(index)
            case .value(let valueClass): hasher.combine(valueClass)
            case .list(let count): hasher.combine(count)
            }
        }
    }
}

/// A value a predicate captured (`PredicateExpressions.Value`), as the store binds it: one value,
/// or the elements of a captured array (`array.contains($0.field)`).
enum CapturedValue {
    case scalar(DatabaseValue)
    case list([DatabaseValue])
}

/// Builds a predicate's ``PredicateShape`` and gathers its captured values, walking the tree in the
/// order ``PredicateTranslator`` visits it (each node's `addShape(to:)`, beside its `translate(with:)`).
struct PredicateShapeBuilder {
    private(set) var shape: PredicateShape
    /// The captured values in the order the translation binds them: a list's elements one by one.
    private(set) var values: [DatabaseValue] = []
    private var variables: [PredicateExpressions.VariableID] = []

    /// The shape of `predicate`, and its captured values; nil when a node cannot describe itself
    /// (a captured value the store cannot bind), whose translation throws instead.
    static func shape<Record>(of predicate: Predicate<Record>) -> (shape: PredicateShape, values: [DatabaseValue])? {
        guard let root = predicate.expression as? any SQLTranslatable else { return nil }
        var builder = PredicateShapeBuilder(shape: PredicateShape(expressionType: type(of: root)))
        builder.define(predicate.variable.key)
        guard root.addShape(to: &builder) else { return nil }
        return (builder.shape, builder.values)
    }

    private init(shape: PredicateShape) {
        self.shape = shape
        values.reserveCapacity(8)
    }

    /// A variable the predicate binds here (its own, or a closure's parameter).
    mutating func define(_ variable: PredicateExpressions.VariableID) {
        variables.append(variable)
    }

    /// A reference to `variable`, which names its latest definition so far, as the translator's
    /// bindings do (a hand-built tree can define one variable twice, or refer to a closure's
    /// variable outside it).
    mutating func refer(to variable: PredicateExpressions.VariableID) {
        shape.parts.append(.variable(variables.lastIndex(of: variable) ?? -1))
    }

    mutating func add(_ keyPath: AnyKeyPath) {
        shape.parts.append(.keyPath(keyPath))
    }

    /// A comparison's or arithmetic's operator, by its symbol (`<`, `+`).
    mutating func add(operator symbol: String) {
        shape.parts.append(.operator(symbol))
    }

    mutating func capture(_ captured: CapturedValue) {
        switch captured {
        case .scalar(let value):
            shape.parts.append(.value(PredicateShape.ValueClass(value)))
            values.append(value)
        case .list(let items):
            shape.parts.append(.list(count: items.count))
            for item in items { shape.parts.append(.value(PredicateShape.ValueClass(item))) }
            values += items
        }
    }
}
