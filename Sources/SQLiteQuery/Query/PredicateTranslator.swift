import Foundation

/// Translates a Foundation `Predicate` (its `PredicateExpressions` tree) into the query IR.
///
/// Each supported expression type conforms to ``SQLTranslatable`` (see
/// `PredicateExpressions+SQL.swift`), conditionally on its children, so a tree translates exactly
/// when every node in it does. Anything else is a thrown ``QueryError/unsupported(_:)`` naming
/// the construct: the store never falls back to loading rows and filtering in Swift.
final class PredicateTranslator<Record> {
    let schema: QuerySchema<Record>
    var operations: QueryOperations
    private var bindings: [PredicateExpressions.VariableID: Operand] = [:]
    /// When set, each captured value translates to a placeholder of its class instead (see
    /// ``PredicateTemplate``), and this records them in the order they come.
    private(set) var placeholders: [PredicatePlaceholder]?

    /// A translator of predicates over `schema`; with `placeholders`, one that translates a
    /// predicate's shape, each captured value replaced by a ``PredicatePlaceholder``.
    init(schema: QuerySchema<Record>, placeholders: Bool = false) {
        self.schema = schema
        operations = QueryOperations(rowKey: schema.rowKey)
        self.placeholders = placeholders ? [] : nil
    }

    /// The SQL condition equivalent to `predicate`.
    func translate(_ predicate: Predicate<Record>) throws -> QueryExpression {
        bind(predicate.variable.key, to: Operand(expression: .value(.null), shape: .record, isOptional: false,
                                                 comparisonKey: nil))
        return try translate(predicate.expression).expression
    }

    func translate(_ expression: Any) throws -> Operand {
        guard let translatable = expression as? any SQLTranslatable else {
            throw QueryError.unsupported(Self.constructName(of: Self.untranslatableNode(in: expression)))
        }
        return try translatable.translate(with: self)
    }

    /// The node to name when a tree does not translate: a node conforms only when its children
    /// do, so the cast fails at every node above the one that has no translation.
    static func untranslatableNode(in expression: Any) -> Any {
        for child in Mirror(reflecting: expression).children
        where child.value is any PredicateExpression && !(child.value is any SQLTranslatable) {
            return untranslatableNode(in: child.value)
        }
        return expression
    }

    /// The operand for a captured value: the value itself (text with its comparison key), or its
    /// placeholder when translating a shape.
    func operand(capturing captured: CapturedValue) -> Operand {
        switch captured {
        case .scalar(let value):
            return operand(for: value)
        case .list(let items):
            return Operand(expression: .value(.null), shape: .list(items.map(operand(for:))), isOptional: false,
                           comparisonKey: nil)
        }
    }

    private func operand(for value: DatabaseValue) -> Operand {
        guard let index = placeholders?.count else { return .value(value) }
        let placeholder = PredicatePlaceholder(index: index, of: value)
        placeholders?.append(placeholder)
        return .value(placeholder.value, comparisonKey: placeholder.comparisonKey)
    }

    func bind(_ variable: PredicateExpressions.VariableID, to operand: Operand) {
        bindings[variable] = operand
    }

    /// `EXISTS` an element of `sequence` for which `test`, with `variable` bound to the element,
    /// holds (or with `negated`, fails).
    func exists(in sequence: some SQLTranslatable, variable: PredicateExpressions.VariableID,
                test: some SQLTranslatable, negated: Bool) throws -> Operand {
        let (element, scope) = try operations.element(of: try sequence.translate(with: self))
        bind(variable, to: element)
        return try operations.exists(scope, where: try test.translate(with: self), negated: negated)
    }

    func operand(for variable: PredicateExpressions.VariableID) throws -> Operand {
        guard let operand = bindings[variable] else { throw QueryError.unsupported("a variable from outside the predicate") }
        return operand
    }

    /// Resolves `root[keyPath: keyPath]`.
    func resolve(_ root: Operand, keyPath: AnyKeyPath) throws -> Operand {
        switch root.shape {
        case .record:
            guard let field = schema.field(for: keyPath) else {
                throw QueryError.unsupported("key path \(keyPath), which is not a stored or derived field of "
                                             + "\(schema.table) (those are: \(schema.fieldNames.joined(separator: ", ")))")
            }
            return .field(field, qualifier: schema.table)
        case .element(let fields, let qualifier):
            guard let field = fields.first(where: { $0.keyPath == keyPath }) else {
                throw QueryError.unsupported("key path \(keyPath) on a collection element")
            }
            return .field(field, qualifier: qualifier)
        case .collection(let collection, let qualifier):
            if let parent = parentKeyPath(of: collection), let full = parent.appending(path: keyPath),
               let derived = schema.field(for: full) {
                return .field(derived, qualifier: qualifier)
            }
            return try resolveCollectionProperty(root, keyPath)
        case .scalar(let kind) where kind == .text || (kind == nil && type(of: keyPath).rootType == String.self):
            // Text, or a value of no known kind (an unwrapped nil) that the key path says is text.
            var text = root
            text.shape = .scalar(.text)
            if keyPath == \String.count { return try operations.count(text) }
            if keyPath == \String.isEmpty { return try operations.isEmpty(text) }
            throw QueryError.unsupported("key path \(keyPath) on text")
        default:
            throw QueryError.unsupported("key path \(keyPath)")
        }
    }

    private func resolveCollectionProperty(_ root: Operand, _ keyPath: AnyKeyPath) throws -> Operand {
        // `count` and `isEmpty` of the array, matched by identity: a key path's description does
        // not name computed properties on every platform (`\Array<String>.<computed 0x…>` on Linux).
        if let array = type(of: keyPath).rootType as? any ArrayKeyPaths.Type {
            if keyPath == array.countKeyPath { return try operations.count(root) }
            if keyPath == array.isEmptyKeyPath { return try operations.isEmpty(root) }
        }
        throw QueryError.unsupported("key path \(keyPath) on a collection (only count, isEmpty and contains)")
    }

    private func parentKeyPath(of collection: CollectionField) -> AnyKeyPath? {
        schema.fields.first {
            if case .collection(let other) = $0.source { return other.table == collection.table }
            return false
        }?.keyPath
    }

    /// `PredicateExpressions.SequenceMaximum<…>` → `SequenceMaximum`.
    static func constructName(of expression: Any) -> String {
        let full = String(describing: type(of: expression))
        return String(full.prefix { $0 != "<" })
    }
}

/// The `count` and `isEmpty` key paths of an array type, found by opening the type at run time.
private protocol ArrayKeyPaths {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Array: ArrayKeyPaths {
    fileprivate static var countKeyPath: AnyKeyPath { \Self.count }
    fileprivate static var isEmptyKeyPath: AnyKeyPath { \Self.isEmpty }
}

/// A `PredicateExpressions` node that has an SQL translation.
protocol SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand
    /// Adds to `builder` what decides this node's translation besides its type, visiting the
    /// children in the order `translate(with:)` does; false when that throws for a captured value.
    func addShape(to builder: inout PredicateShapeBuilder) -> Bool
}
