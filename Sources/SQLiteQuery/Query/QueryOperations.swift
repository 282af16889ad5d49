/// The operations both front ends compile to, each written once with Swift's semantics:
/// text compares by NFC key, `==` with an optional is NULL-safe, collections become `EXISTS` and
/// `count` subqueries, and string searches call functions that run Swift's own algorithms.
///
/// A force unwrap of nil makes `evaluate` throw, and the row is not accepted; in SQL it is a NULL
/// (see ``Operand/mayFail``). Comparisons, functions and `NOT` carry that NULL on, but operators
/// that turn NULL into a value (`IS`, `OR`, `AND`, `CASE`, `EXISTS`, `COALESCE`) would not, so
/// those return NULL where an operand failed, as Swift's short-circuiting operators do.
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
        let comparison = QueryExpression.comparison(op, lhs.comparable, rhs.comparable)
        return .boolean(nullable ? try nullWhereAnyFailed(comparison, lhs, rhs) : leftFirst(comparison, lhs, rhs)).failing(with: lhs, rhs)
    }

    /// `<`, `<=`, `>`, `>=`.
    ///
    /// Text runs Swift's own `<` (`swift_less`) rather than comparing NFC keys: Swift's `<` is not
    /// always the NFC order (it answers false both ways for "e\u{301}" and "éa"), and `evaluate`
    /// uses it. `a > b` is `b < a`, `a <= b` is `!(b < a)` and `a >= b` is `!(a < b)`, as
    /// `Comparable` defines them. Days and ids, stored as ASCII text, compare as columns, so that
    /// their indexes serve ranges.
    func order(_ op: ComparisonOperator, _ lhs: Operand, _ rhs: Operand, symbol: String) throws -> Operand {
        try checkComparable(lhs, rhs, operator: symbol)
        let (left, right) = (lhs.kind, rhs.kind)
        if left == .bool || right == .bool {
            throw QueryError.typeMismatch("'\(symbol)' does not apply to true/false values", position: nil)
        }
        // Text on one side at least, and no other kind on either (a value of no known kind, nil,
        // takes the other side's). Without arrays: every fetch translates its comparisons.
        guard left == .text || right == .text, left ?? .text == .text, right ?? .text == .text else {
            return .boolean(leftFirst(.comparison(op, lhs.comparable, rhs.comparable), lhs, rhs)).failing(with: lhs, rhs)
        }
        func less(_ lhs: Operand, _ rhs: Operand) -> QueryExpression { .function("swift_less", [lhs.expression, rhs.expression]) }
        let expression: QueryExpression = switch op {
        case .greater: less(rhs, lhs)
        case .lessOrEqual: .not(less(rhs, lhs))
        case .greaterOrEqual: .not(less(lhs, rhs))
        default: less(lhs, rhs)
        }
        return .boolean(expression).failing(with: lhs, rhs)
    }

    private func checkComparable(_ lhs: Operand, _ rhs: Operand, operator symbol: String) throws {
        try checkComparable(lhs, operator: symbol)
        try checkComparable(rhs, operator: symbol)
    }

    private func checkComparable(_ side: Operand, operator symbol: String) throws {
        switch side.shape {
        case .scalar: return
        case .collection: throw QueryError.typeMismatch("'\(symbol)' cannot compare a collection; use contains, .count or isEmpty", position: nil)
        case .list: throw QueryError.typeMismatch("'\(symbol)' cannot compare a list; use 'in'", position: nil)
        case .record, .element: throw QueryError.unsupported("comparing a whole record with '\(symbol)'")
        }
    }

    // MARK: Logic

    /// `&&` and `||` evaluate their left side first, so only its failure needs carrying on: a
    /// failing right side is not evaluated in Swift when the left side decides, nor needed in SQL.
    ///
    /// SQLite, though, evaluates the terms of an `AND` in an order of its own (one with a subquery
    /// after one without), and both sides of one in a value's place, so a right side that may
    /// stop the statement with an error (checked arithmetic: `count > 0 && total / count > 2`)
    /// makes the chain a ``GuardedChain``, a `CASE` that evaluates each term only where Swift
    /// reaches it (helper-20: such a guard failed the fetch). The chain then takes every later
    /// term of the same operator, so that a long chain stays one flat `CASE` (helper-21).
    func and(_ lhs: Operand, _ rhs: Operand) -> Operand { logic(lhs, rhs, isConjunction: true) }

    func or(_ lhs: Operand, _ rhs: Operand) -> Operand { logic(lhs, rhs, isConjunction: false) }

    private func logic(_ lhs: Operand, _ rhs: Operand, isConjunction: Bool) -> Operand {
        var chain: GuardedChain
        if var existing = lhs.guardedChain, existing.isConjunction == isConjunction {
            existing.append(rhs)
            chain = existing
        } else if Self.mayStopWithAnError(rhs.expression) {
            chain = GuardedChain(isConjunction: isConjunction, guard: lhs, then: rhs)
        } else {
            let both: QueryExpression = isConjunction ? .and(lhs.expression, rhs.expression) : .or(lhs.expression, rhs.expression)
            return .boolean(nullWhereFailed(both, lhs)).failing(with: lhs, rhs)
        }
        var result = Operand.boolean(chain.expression).failing(with: lhs, rhs)
        result.guardedChain = chain
        return result
    }

    /// Whether `expression` calls checked integer arithmetic (``arithmetic(_:_:_:symbol:)``), which
    /// stops the statement with an error where Swift traps.
    private static func mayStopWithAnError(_ expression: QueryExpression) -> Bool {
        switch expression {
        case .column, .value: false
        case .function(let name, let arguments): checkedArithmetic.contains(name) || arguments.contains(where: mayStopWithAnError)
        case .comparison(_, let lhs, let rhs), .and(let lhs, let rhs), .or(let lhs, let rhs):
            mayStopWithAnError(lhs) || mayStopWithAnError(rhs)
        case .not(let operand), .isNull(let operand): mayStopWithAnError(operand)
        case .coalesce(let operands): operands.contains(where: mayStopWithAnError)
        case .conditional(let test, let then, let otherwise):
            mayStopWithAnError(test) || mayStopWithAnError(then) || mayStopWithAnError(otherwise)
        case .inList(let operand, let list): mayStopWithAnError(operand) || list.contains(where: mayStopWithAnError)
        case .exists(_, let condition), .count(_, let condition): condition.map(mayStopWithAnError) ?? false
        }
    }

    func not(_ operand: Operand) -> Operand { .boolean(.not(operand.expression)).failing(with: operand) }

    // MARK: Failed force unwraps

    /// `expression`, or NULL where `operand` failed; for an operand that is not optional (a Bool).
    func nullWhereFailed(_ expression: QueryExpression, _ operand: Operand) -> QueryExpression {
        operand.mayFail ? .conditional(.isNull(operand.expression), then: .value(.null), else: expression) : expression
    }

    /// `expression`, or NULL where one of `operands` failed, asked in their order (the first
    /// outermost, so that a later one is not evaluated where an earlier one failed, as in Swift);
    /// see ``checkNilIsDistinct(_:)``.
    func nullWhereAnyFailed(_ expression: QueryExpression, _ operands: Operand...) throws -> QueryExpression {
        try operands.forEach { try checkNilIsDistinct($0) }
        return operands.reversed().reduce(expression) { nullWhereFailed($0, $1) }
    }

    /// `expression` of `lhs` and `rhs`, or NULL where `lhs` failed when `rhs` may stop the
    /// statement with an error: Swift evaluates an operator's left operand first, and never
    /// reaches the right one when the left throws (`none! <= 3 / checklist.count`; SQLite
    /// evaluates both, and the division failed the fetch: helper-22).
    func leftFirst(_ expression: QueryExpression, _ lhs: Operand, _ rhs: Operand) -> QueryExpression {
        lhs.mayFail && Self.mayStopWithAnError(rhs.expression) ? nullWhereFailed(expression, lhs) : expression
    }

    /// Refuses an operand that is optional as well as failing, where nil matters: its NULL may be
    /// nil or the failed unwrap, which SQL cannot tell apart.
    func checkNilIsDistinct(_ operand: Operand) throws {
        if operand.mayFail && operand.isOptional {
            throw QueryError.unsupported("an optional value computed with a force unwrap (!), used where nil matters "
                                         + "(==, ??, flatMap): nil and the failed unwrap are both NULL in SQL")
        }
    }

    // MARK: Arithmetic on integers: checked, as Swift's operators trap instead of wrapping

    /// The SQL functions of checked integer arithmetic (``Connection``'s `swift_add` and the rest),
    /// which fail with an error on overflow or division by zero.
    static let checkedArithmetic: Set<String> = ["swift_add", "swift_subtract", "swift_multiply", "swift_divide", "swift_remainder"]

    /// `lhs symbol rhs` through `function`, one of ``checkedArithmetic``.
    func arithmetic(_ function: String, _ lhs: Operand, _ rhs: Operand, symbol: String) throws -> Operand {
        assert(Self.checkedArithmetic.contains(function))
        guard lhs.kind == .integer || lhs.kind == nil, rhs.kind == .integer || rhs.kind == nil else {
            throw QueryError.unsupported("'\(symbol)' on values that are not integers")
        }
        return .scalar(leftFirst(.function(function, [lhs.expression, rhs.expression]), lhs, rhs), .integer,
                       optional: lhs.isOptional || rhs.isOptional).failing(with: lhs, rhs)
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
            // EXISTS probes the (name_key, day_pk) index once per candidate parent; an IN (subquery)
            // would build the whole list of matching parents on every run, 250x slower for a window.
            return .boolean(try nullWhereAnyFailed(.exists(collection.scope(parent: qualifier, rowKey: rowKey, alias: alias),
                                                          condition: test.expression), element)).failing(with: element)
        case .list(let items):
            guard case .scalar = element.shape else {
                throw QueryError.typeMismatch("'in' needs a single value on its left", position: nil)
            }
            if element.isOptional || items.contains(where: \.isOptional) {
                // `IN` is not NULL-safe; chain NULL-safe equalities instead.
                let tests = try items.map { try equal(element, $0, negated: false).expression }
                let anyEqual = tests.dropFirst().reduce(tests.first ?? .false) { .or($0, $1) }
                return .boolean(try nullWhereAnyFailed(anyEqual, element)).failing(with: element)
            }
            return .boolean(try nullWhereAnyFailed(.inList(element.comparable, items.map(\.comparable)), element))
                .failing(with: element)
        case .scalar(let kind) where kind == .text || kind == nil:
            return .boolean(.function("swift_contains", [container.expression, element.expression]))
                .failing(with: container, element)
        default:
            throw QueryError.typeMismatch("contains needs text, a collection or a list on its left", position: nil)
        }
    }

    /// The element of a stored collection under a new alias, and the scope of its rows: what
    /// `contains(where:)` and `allSatisfy` build their test over before calling ``exists(_:where:negated:)``.
    mutating func element(of container: Operand) throws -> (element: Operand, scope: ChildScope) {
        guard case .collection(let collection, let qualifier) = container.shape else {
            throw QueryError.unsupported("contains(where:) on something that is not a stored collection")
        }
        let alias = nextAlias()
        let scope = collection.scope(parent: qualifier, rowKey: rowKey, alias: alias)
        switch collection.element {
        case .scalar(let kind, let column, let key):
            return (.field(.column("element", nil, kind, column: column, comparisonKey: key), qualifier: alias), scope)
        case .record(let fields):
            return (Operand(expression: .value(.null), shape: .element(fields, qualifier: alias), isOptional: false,
                            comparisonKey: nil), scope)
        }
    }

    /// `EXISTS` a row of `scope` for which `test` holds, or with `negated`, fails.
    func exists(_ scope: ChildScope, where test: Operand, negated: Bool) throws -> Operand {
        if test.mayFail {
            // Swift stops at the first element whose test is true or throws, in collection order;
            // EXISTS has no order, so a failing test cannot be told apart from a false one.
            throw QueryError.unsupported("a force unwrap (!) inside contains(where:) or allSatisfy")
        }
        return .boolean(.exists(scope, condition: negated ? .not(test.expression) : test.expression))
    }

    /// The number of elements of a collection, or of characters of a text.
    mutating func count(_ operand: Operand) throws -> Operand {
        switch operand.shape {
        case .collection(let collection, let qualifier):
            return .scalar(.count(collection.scope(parent: qualifier, rowKey: rowKey, alias: nextAlias()), condition: nil), .integer)
        case .scalar(.text):
            return .scalar(.function("swift_count", [operand.expression]), .integer, optional: operand.isOptional)
                .failing(with: operand)
        default:
            throw QueryError.unsupported("count of something that is neither text nor a stored collection")
        }
    }

    mutating func isEmpty(_ operand: Operand) throws -> Operand {
        switch operand.shape {
        case .collection(let collection, let qualifier):
            return .boolean(.not(.exists(collection.scope(parent: qualifier, rowKey: rowKey, alias: nextAlias()), condition: nil)))
        case .scalar(.text):
            let test = QueryExpression.comparison(operand.isOptional ? .is : .equal, operand.expression, .value(.text("")))
            return .boolean(try nullWhereAnyFailed(test, operand)).failing(with: operand)
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
        return .boolean(.function("swift_starts_with", [text.expression, prefix.expression])).failing(with: text, prefix)
    }

    /// Case- and diacritic-insensitive containment, as Foundation's `localizedStandardContains`.
    /// Whether some element of a collection of text equals `value` up to case and diacritics.
    mutating func containsSameLetters(_ container: Operand, _ value: Operand) throws -> Operand {
        guard case .collection(let collection, let qualifier) = container.shape,
              case .scalar(.text, let column, _) = collection.element else {
            throw QueryError.typeMismatch("icontains needs text, or a collection of text, on its left", position: nil)
        }
        let alias = nextAlias()
        let element = QueryExpression.column(qualifier: alias, name: column)
        return .boolean(.exists(collection.scope(parent: qualifier, rowKey: rowKey, alias: alias),
                                condition: .function("swift_same_letters", [element, value.expression]))).failing(with: value)
    }

    func localizedContains(_ text: Operand, _ needle: Operand) throws -> Operand {
        guard text.kind == .text || text.kind == nil, case .scalar = text.shape else {
            throw QueryError.typeMismatch("icontains needs text on its left", position: nil)
        }
        return .boolean(.function("swift_localized_contains", [text.expression, needle.expression]))
            .failing(with: text, needle)
    }
}
