/// A translated sub-expression with what the translator must know about it to keep Swift's
/// semantics: its kind, whether it may be nil, the NFC key to compare text with, or the collection
/// or list it stands for.
struct Operand {
    enum Shape {
        case scalar(ValueKind?)
        /// A child collection of the row `qualifier`.
        case collection(CollectionField, qualifier: String)
        /// A captured array, for `array.contains(x)` (`IN`).
        case list([Operand])
        /// The record itself (the predicate's variable), usable only through key paths.
        case record
        /// A collection element that is a record, usable only through key paths.
        case element([QueryField], qualifier: String)
    }

    var expression: QueryExpression
    var shape: Shape
    var isOptional: Bool
    /// For text: the expression whose bytes compare as Swift compares strings.
    var comparisonKey: QueryExpression?
    /// Whether `evaluate` may throw here (a force unwrap of nil), which SQL turns into NULL. Where
    /// the operand is not optional, its NULL can only mean that failure.
    var mayFail = false
    /// For an `&&` or `||` chain written as a guarded `CASE` (see `QueryOperations.and`): its arms,
    /// which the next operator of the same kind extends rather than nests.
    var guardedChain: GuardedChain?

    /// This operand, failing wherever one of `inputs` fails.
    func failing(with inputs: Operand...) -> Operand {
        var operand = self
        operand.mayFail = mayFail || inputs.contains(where: \.mayFail)
        return operand
    }

    var kind: ValueKind? {
        if case .scalar(let kind) = shape { return kind }
        return nil
    }

    /// The expression to compare with: the comparison key for text, else the value itself.
    var comparable: QueryExpression { comparisonKey ?? expression }

    /// The comparison key of a `?:` or `??` whose branches are `branches`: each branch's key, a
    /// branch that holds no text (a nil, whose key is itself: NULL) taken as it is; nil when no
    /// branch is text with a key. (A nil branch has no key of its own, and dropping the key for it
    /// compared the other branch's bytes, where Swift compares canonical equivalents: helper-20.)
    static func combinedKey(of branches: [Operand], _ combine: ([QueryExpression]) -> QueryExpression) -> QueryExpression? {
        guard branches.contains(where: { $0.comparisonKey != nil }) else { return nil }
        var keys: [QueryExpression] = []
        for branch in branches {
            if let key = branch.comparisonKey {
                keys.append(key)
            } else if branch.kind != .text {
                keys.append(branch.expression)
            } else {
                return nil
            }
        }
        return combine(keys)
    }

    static func scalar(_ expression: QueryExpression, _ kind: ValueKind?, optional: Bool = false,
                       key: QueryExpression? = nil) -> Operand {
        Operand(expression: expression, shape: .scalar(kind), isOptional: optional, comparisonKey: key)
    }

    static func boolean(_ expression: QueryExpression) -> Operand { .scalar(expression, .bool) }

    /// A bound value; text gets its NFC form as the comparison key.
    static func value(_ value: DatabaseValue) -> Operand {
        if case .text(let text) = value { return .value(value, comparisonKey: .text(text.comparisonKey)) }
        return .value(value, comparisonKey: nil)
    }

    /// A bound value, whose comparison key (for text) is `comparisonKey`.
    static func value(_ value: DatabaseValue, comparisonKey: DatabaseValue?) -> Operand {
        switch value {
        case .text: .scalar(.value(value), .text, key: comparisonKey.map { .value($0) })
        case .null: .scalar(.value(.null), nil, optional: true)
        default: .scalar(.value(value), nil)
        }
    }

    /// The operand for a field read from the row or element `qualifier`.
    static func field(_ field: QueryField, qualifier: String) -> Operand {
        switch field.source {
        case .column(let column, let key):
            let expression = QueryExpression.column(qualifier: qualifier, name: column)
            var keyExpression: QueryExpression?
            if field.kind == .text {
                keyExpression = key.map { .column(qualifier: qualifier, name: $0) } ?? .function("swift_key", [expression])
            }
            return .scalar(expression, field.kind, optional: field.isOptional, key: keyExpression)
        case .derived(let build):
            let expression = build(qualifier)
            let key: QueryExpression? = field.kind == .text ? .function("swift_key", [expression]) : nil
            return .scalar(expression, field.kind, optional: field.isOptional, key: key)
        case .collection(let collection):
            return Operand(expression: .value(.null), shape: .collection(collection, qualifier: qualifier),
                           isOptional: false, comparisonKey: nil)
        }
    }
}

/// `t0 && t1 && … && tn` (or `||`) as one flat `CASE` that evaluates the terms in Swift's order and
/// stops where Swift's short-circuit stops: each term before the last is an arm (NULL where it
/// failed, then false for `&&` where it is false, true for `||` where it is true), and the last
/// term is the `ELSE`. Plain comparisons among the first guard's conjuncts are also kept outside
/// the `CASE`, as terms of their own, so that SQLite's indexes still serve them.
struct GuardedChain {
    let isConjunction: Bool
    private(set) var arms: [(test: QueryExpression, result: QueryExpression)] = []
    private(set) var hoisted: [QueryExpression] = []
    private(set) var last: QueryExpression
    private(set) var lastMayFail: Bool

    /// The chain `guard && next` (or `||`).
    init(isConjunction: Bool, guard first: Operand, then next: Operand) {
        self.isConjunction = isConjunction
        (last, lastMayFail) = (first.expression, first.mayFail)
        if isConjunction { hoisted = Self.plainComparisons(in: first.expression) }
        append(next)
    }

    /// The chain with `next` after its last term, which becomes an arm.
    mutating func append(_ next: Operand) {
        if lastMayFail { arms.append((.isNull(last), .value(.null))) }
        arms.append(isConjunction ? (.not(last), .false) : (last, .true))
        (last, lastMayFail) = (next.expression, next.mayFail)
    }

    var expression: QueryExpression {
        let chain = arms.reversed().reduce(last) { .conditional($1.test, then: $1.result, else: $0) }
        return hoisted.reversed().reduce(chain) { .and($1, $0) }
    }

    /// The comparisons of a column with a column or a value among the conjuncts of `expression`:
    /// each binds at most two values, so repeating it outside the `CASE` costs little.
    private static func plainComparisons(in expression: QueryExpression) -> [QueryExpression] {
        switch expression {
        case .and(let lhs, let rhs): plainComparisons(in: lhs) + plainComparisons(in: rhs)
        case .comparison(_, let lhs, let rhs) where lhs.isColumnOrValue && rhs.isColumnOrValue: [expression]
        default: []
        }
    }
}

private extension QueryExpression {
    var isColumnOrValue: Bool {
        switch self {
        case .column, .value: true
        default: false
        }
    }
}
