import Foundation

/// A predicate shape (``PredicateShape``) translated and rendered once, with a placeholder for
/// each captured value: a predicate of that shape needs only its values put in their places.
///
/// Every `FetchDescriptor` a view or a script runs again (the same `#Predicate` with other
/// values) would otherwise walk its expression tree, resolve its key paths against the schema and
/// render its SQL on every call.
final class PredicateTemplate: Sendable {
    /// Where one argument of the rendered condition comes from.
    private enum ArgumentSource: Sendable {
        /// A value the translation itself wrote (`0`, `1`, `''`, NULL, a derived field's constant).
        case constant(DatabaseValue)
        /// The predicate's captured value at this index (see ``PredicateShapeBuilder/values``).
        case value(Int)
        /// The comparison key (NFC) of the captured text at this index.
        case comparisonKey(Int)
    }

    /// The condition with placeholders.
    private let condition: QueryExpression
    /// The condition's SQL, with a `?` for each argument.
    let sql: String
    /// Whether the condition is cheap to run again (``QueryExpression/isPlain``).
    let isPlain: Bool
    private let arguments: [ArgumentSource]
    /// Each placeholder's source, for putting the values into ``condition``.
    private let placeholders: [DatabaseValue: ArgumentSource]

    /// Translates `predicate`'s shape over `schema`, its captured values replaced by placeholders;
    /// throws what the translation throws.
    init<Record>(translating predicate: Predicate<Record>, schema: QuerySchema<Record>) throws {
        let translator = PredicateTranslator(schema: schema, placeholders: true)
        condition = try translator.translate(predicate)
        var placeholders: [DatabaseValue: ArgumentSource] = [:]
        for (index, placeholder) in (translator.placeholders ?? []).enumerated() where placeholder.value != .null {
            placeholders[placeholder.value] = .value(index)
            if let key = placeholder.comparisonKey { placeholders[key] = .comparisonKey(index) }
        }
        let (sql, rendered) = SQLRenderer.render(condition)
        self.sql = sql
        arguments = rendered.map { placeholders[$0] ?? .constant($0) }
        isPlain = condition.isPlain
        self.placeholders = placeholders
    }

    /// The arguments to bind to ``sql`` for a predicate of this shape whose captured values are `values`.
    func arguments(binding values: [DatabaseValue]) -> [DatabaseValue] {
        arguments.map { value(of: $0, binding: values) }
    }

    /// The condition, in IR form, of a predicate of this shape whose captured values are `values`.
    func condition(binding values: [DatabaseValue]) -> QueryExpression {
        condition.mappingValues { placeholders[$0].map { value(of: $0, binding: values) } ?? $0 }
    }

    private func value(of source: ArgumentSource, binding values: [DatabaseValue]) -> DatabaseValue {
        switch source {
        case .constant(let value): value
        case .value(let index): values[index]
        case .comparisonKey(let index):
            if case .text(let text) = values[index] { .text(text.comparisonKey) } else { values[index] }
        }
    }
}

/// A captured value's stand-in while a shape is translated: a value of the same class (text, nil
/// or other), which for text has a comparison key of its own, so that each place where the value
/// or its key is bound can be found in the rendered arguments. The text carries a random mark made
/// once per process, so no constant a translation writes can be mistaken for one.
struct PredicatePlaceholder {
    let value: DatabaseValue
    /// For text, the stand-in of its comparison key.
    let comparisonKey: DatabaseValue?

    private static let mark = "\u{0}placeholder " + UUID().uuidString + " "

    /// The placeholder of the `index`th captured value, of `value`'s class.
    init(index: Int, of value: DatabaseValue) {
        let text = Self.mark + String(index)
        switch value {
        case .null: (self.value, comparisonKey) = (.null, nil)
        case .text: (self.value, comparisonKey) = (.text(text), .text(text + " key"))
        case .integer, .real, .blob: (self.value, comparisonKey) = (.blob(Data(text.utf8)), nil)
        }
    }
}

private extension QueryExpression {
    /// This expression with every bound value replaced by `transform(value)`.
    func mappingValues(_ transform: (DatabaseValue) -> DatabaseValue) -> QueryExpression {
        func map(_ expression: QueryExpression) -> QueryExpression { expression.mappingValues(transform) }
        func map(_ scope: ChildScope) -> ChildScope {
            ChildScope(table: scope.table, alias: scope.alias, parentColumn: scope.parentColumn,
                       parentKey: scope.parentKey.mappingValues(transform))
        }
        func map(_ items: [QueryExpression]) -> [QueryExpression] { items.map { $0.mappingValues(transform) } }
        return switch self {
        case .column: self
        case .value(let value): .value(transform(value))
        case .comparison(let op, let lhs, let rhs): .comparison(op, map(lhs), map(rhs))
        case .and(let lhs, let rhs): .and(map(lhs), map(rhs))
        case .or(let lhs, let rhs): .or(map(lhs), map(rhs))
        case .not(let operand): .not(map(operand))
        case .isNull(let operand): .isNull(map(operand))
        case .coalesce(let items): .coalesce(map(items))
        case .conditional(let test, let then, let otherwise): .conditional(map(test), then: map(then), else: map(otherwise))
        case .function(let name, let items): .function(name, map(items))
        case .inList(let operand, let items): .inList(map(operand), map(items))
        case .exists(let scope, let condition): .exists(map(scope), condition: condition?.mappingValues(transform))
        case .count(let scope, let condition): .count(map(scope), condition: condition?.mappingValues(transform))
        }
    }
}
