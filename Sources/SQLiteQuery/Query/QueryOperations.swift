/// The operations both front ends compile to, each written once with Swift's semantics:
/// text compares by NFC key, `==` with an optional is NULL-safe, collections become `EXISTS` and
/// `count` subqueries, and string searches call functions that run Swift's own algorithms.
struct QueryOperations {
    /// The row key column name of collection parents (`pk`).
    let rowKey: String
    private var aliasCount = 0

    init(rowKey: String) { self.rowKey = rowKey }

    mutating func nextAlias() -> String {
        aliasCount += 1
        return "c\(aliasCount)"
    }

    // MARK: Comparison

    /// `==` / `!=`: NULL-safe when either side may be nil, as `nil == nil` is true in Swift.
    func equal(_ lhs: Operand, _ rhs: Operand, negated: Bool) throws -> Operand {
        try checkComparable(lhs, rhs, operator: negated ? "!=" : "==")
        let nullable = lhs.isOptional || rhs.isOptional
        let op: ComparisonOperator = nullable ? (negated ? .isNot : .is) : (negated ? .notEqual : .equal)
        return .boolean(.comparison(op, lhs.comparable, rhs.comparable))
    }

    /// `<`, `<=`, `>`, `>=`.
    func order(_ op: ComparisonOperator, _ lhs: Operand, _ rhs: Operand, symbol: String) throws -> Operand {
        try checkComparable(lhs, rhs, operator: symbol)
        if lhs.kind == .bool || rhs.kind == .bool {
            throw QueryError.typeMismatch("'\(symbol)' does not apply to true/false values", position: nil)
        }
        return .boolean(.comparison(op, lhs.comparable, rhs.comparable))
    }

    private func checkComparable(_ lhs: Operand, _ rhs: Operand, operator symbol: String) throws {
        for side in [lhs, rhs] {
            switch side.shape {
            case .scalar: continue
            case .collection: throw QueryError.typeMismatch("'\(symbol)' cannot compare a collection; use contains, .count or isEmpty", position: nil)
            case .list: throw QueryError.typeMismatch("'\(symbol)' cannot compare a list; use 'in'", position: nil)
            case .record, .element: throw QueryError.unsupported("comparing a whole record with '\(symbol)'")
            }
        }
    }

    // MARK: Logic

    func and(_ lhs: Operand, _ rhs: Operand) -> Operand { .boolean(.and(lhs.expression, rhs.expression)) }
    func or(_ lhs: Operand, _ rhs: Operand) -> Operand { .boolean(.or(lhs.expression, rhs.expression)) }
    func not(_ operand: Operand) -> Operand { .boolean(.not(operand.expression)) }

    // MARK: Arithmetic on integers: checked, as Swift's operators trap instead of wrapping

    func arithmetic(_ function: String, _ lhs: Operand, _ rhs: Operand, symbol: String) throws -> Operand {
        guard lhs.kind == .integer || lhs.kind == nil, rhs.kind == .integer || rhs.kind == nil else {
            throw QueryError.unsupported("'\(symbol)' on values that are not integers")
        }
        return .scalar(.function(function, [lhs.expression, rhs.expression]), .integer,
                       optional: lhs.isOptional || rhs.isOptional)
    }

    // MARK: Collections and text

    /// `collection.contains(element)`, `list.contains(element)` (`in`), or for text a substring.
    mutating func contains(_ container: Operand, _ element: Operand) throws -> Operand {
        switch container.shape {
        case .collection(let collection, let qualifier):
            guard case .scalar(let kind, let column, let key) = collection.element else {
                throw QueryError.unsupported("contains(_:) on a collection of records; use contains(where:)")
            }
            let alias = nextAlias()
            let elementOperand = Operand.field(
                .column("element", nil, kind, column: column, comparisonKey: key), qualifier: alias)
            let test = try equal(elementOperand, element, negated: false)
            return .boolean(.parentIn(collection.scope(parent: qualifier, rowKey: rowKey, alias: alias),
                                      condition: test.expression))
        case .list(let items):
            guard case .scalar = element.shape else {
                throw QueryError.typeMismatch("'in' needs a single value on its left", position: nil)
            }
            if element.isOptional || items.contains(where: \.isOptional) {
                // `IN` is not NULL-safe; chain NULL-safe equalities instead.
                let tests = try items.map { try equal(element, $0, negated: false).expression }
                return .boolean(tests.dropFirst().reduce(tests.first ?? .false) { .or($0, $1) })
            }
            return .boolean(.inList(element.comparable, items.map(\.comparable)))
        case .scalar(let kind) where kind == .text || kind == nil:
            return .boolean(.function("swift_contains", [container.expression, element.expression]))
        default:
            throw QueryError.typeMismatch("contains needs text, a collection or a list on its left", position: nil)
        }
    }

    /// `collection.contains(where:)`: `EXISTS`, with `test` built over the element under a new alias.
    mutating func containsWhere(_ container: Operand, test: (inout QueryOperations, Operand) throws -> Operand,
                                negateTest: Bool = false) throws -> Operand {
        guard case .collection(let collection, let qualifier) = container.shape else {
            throw QueryError.unsupported("contains(where:) on something that is not a stored collection")
        }
        let alias = nextAlias()
        let element: Operand
        switch collection.element {
        case .scalar(let kind, let column, let key):
            element = .field(.column("element", nil, kind, column: column, comparisonKey: key), qualifier: alias)
        case .record(let fields):
            element = Operand(expression: .value(.null), shape: .element(fields, qualifier: alias), isOptional: false,
                              comparisonKey: nil)
        }
        var condition = try test(&self, element).expression
        if negateTest { condition = .not(condition) }
        return .boolean(.exists(collection.scope(parent: qualifier, rowKey: rowKey, alias: alias), condition: condition))
    }

    /// The number of elements of a collection, or of characters of a text.
    mutating func count(_ operand: Operand) throws -> Operand {
        switch operand.shape {
        case .collection(let collection, let qualifier):
            return .scalar(.count(collection.scope(parent: qualifier, rowKey: rowKey, alias: nextAlias()), condition: nil), .integer)
        case .scalar(.text):
            return .scalar(.function("swift_count", [operand.expression]), .integer, optional: operand.isOptional)
        default:
            throw QueryError.unsupported("count of something that is neither text nor a stored collection")
        }
    }

    mutating func isEmpty(_ operand: Operand) throws -> Operand {
        switch operand.shape {
        case .collection(let collection, let qualifier):
            return .boolean(.not(.exists(collection.scope(parent: qualifier, rowKey: rowKey, alias: nextAlias()), condition: nil)))
        case .scalar(.text):
            return .boolean(.comparison(operand.isOptional ? .is : .equal, operand.expression, .value(.text(""))))
        default:
            throw QueryError.unsupported("isEmpty of something that is neither text nor a stored collection")
        }
    }

    /// `text.starts(with: prefix)`, with Swift's Character-by-Character comparison.
    func startsWith(_ text: Operand, _ prefix: Operand) throws -> Operand {
        guard text.kind == .text || text.kind == nil, prefix.kind == .text || prefix.kind == nil,
              case .scalar = text.shape, case .scalar = prefix.shape else {
            throw QueryError.typeMismatch("hasPrefix needs text on both sides", position: nil)
        }
        return .boolean(.function("swift_starts_with", [text.expression, prefix.expression]))
    }

    /// Case- and diacritic-insensitive containment, as Foundation's `localizedStandardContains`.
    func localizedContains(_ text: Operand, _ needle: Operand) throws -> Operand {
        guard text.kind == .text || text.kind == nil, case .scalar = text.shape else {
            throw QueryError.typeMismatch("icontains needs text on its left", position: nil)
        }
        return .boolean(.function("swift_localized_contains", [text.expression, needle.expression]))
    }
}
