import Foundation

/// A fetch in IR form: what both `FetchDescriptor` and the CLI's `--where/--sort/--limit/--offset`
/// compile to.
public struct RecordQuery: Sendable {
    /// The `WHERE` condition, or nil for every row.
    public var condition: QueryExpression? {
        get { translatedPredicate.map { $0.template.condition(binding: $0.values) } ?? givenCondition }
        set {
            givenCondition = newValue
            translatedPredicate = nil
        }
    }
    private var givenCondition: QueryExpression?
    /// The condition of a `#Predicate`, as its shape's template and its captured values: rendered
    /// already, so that a fetch binds the values without rendering the condition again.
    fileprivate var translatedPredicate: (template: PredicateTemplate, values: [DatabaseValue])?
    /// The sort keys, most significant first; a fetch breaks remaining ties by the identity column.
    public var ordering: [Ordering]
    /// The most rows to return, or nil for all.
    public var limit: Int?
    /// The rows to skip before the first one returned, or nil for none.
    public var offset: Int?

    /// A query; by default every row, in identity order. Nothing is checked here: SQLite reads a
    /// negative limit as none and a negative offset as 0.
    public init(condition: QueryExpression? = nil, ordering: [Ordering] = [], limit: Int? = nil, offset: Int? = nil) {
        givenCondition = condition
        self.ordering = ordering
        self.limit = limit
        self.offset = offset
    }

    /// The condition's SQL and the values to bind to it, and whether it is cheap to run again
    /// (``QueryExpression/isPlain``); nil when there is no condition.
    var renderedCondition: (sql: String, arguments: [DatabaseValue], isPlain: Bool)? {
        if let (template, values) = translatedPredicate {
            return (template.sql, template.arguments(binding: values), template.isPlain)
        }
        guard let givenCondition else { return nil }
        let (sql, arguments) = SQLRenderer.render(givenCondition)
        return (sql, arguments, givenCondition.isPlain)
    }
}

/// One sort key.
public struct Ordering: Sendable {
    /// The value sorted by; the orderings ``QuerySchema`` builds use the NFC comparison key of text.
    public let expression: QueryExpression
    /// Whether larger values come first (`DESC`).
    public let descending: Bool
    /// For text sorted with a `String.StandardComparator`, that comparator (run as a collation).
    public let comparator: String.StandardComparator?

    /// A sort key; `comparator`, for text, sorts through a collation that runs it.
    public init(expression: QueryExpression, descending: Bool, comparator: String.StandardComparator? = nil) {
        self.expression = expression
        self.descending = descending
        self.comparator = comparator
    }
}

/// A fetch of `Record`s in the SwiftData shape: a Foundation `#Predicate`, `[SortDescriptor]`,
/// `fetchLimit` and `fetchOffset`. The predicate and sort run in SQLite.
public struct FetchDescriptor<Record>: Sendable {
    /// Which records to fetch, or nil for all. It is translated to SQL, never evaluated in memory:
    /// a predicate without an exact translation is refused with ``QueryError``.
    public var predicate: Predicate<Record>?
    /// The sort order, most significant first; remaining ties are broken by the identity column.
    public var sortBy: [SortDescriptor<Record>]
    /// The most records to fetch, or nil for all; a negative value is refused.
    public var fetchLimit: Int?
    /// The records to skip before the first one fetched, or nil for none; a negative value is refused.
    public var fetchOffset: Int?

    /// A descriptor; by default every record, in identity order.
    public init(predicate: Predicate<Record>? = nil, sortBy: [SortDescriptor<Record>] = [], fetchLimit: Int? = nil,
                fetchOffset: Int? = nil) {
        self.predicate = predicate
        self.sortBy = sortBy
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }
}

extension QuerySchema {
    /// Translates a fetch descriptor; throws ``QueryError`` for anything without an exact translation.
    ///
    /// The first predicate of each shape (the same `#Predicate` with other captured values) is
    /// translated; later ones reuse its translation with their own values.
    public func query(for descriptor: FetchDescriptor<Record>) throws -> RecordQuery {
        var query = RecordQuery()
        if let predicate = descriptor.predicate {
            if let (shape, values) = PredicateShapeBuilder.shape(of: predicate),
               let template = try? templates.template(for: shape, orMake: { try PredicateTemplate(translating: predicate, schema: self) }) {
                query.translatedPredicate = (template, values)
            } else {
                // Throws the translation's own error.
                query.condition = try PredicateTranslator(schema: self).translate(predicate)
            }
        }
        // A loop, not `map`: generic here, `map` over the descriptors cost about 1,800 instructions
        // a fetch in run-time type lookups (callgrind).
        query.ordering.reserveCapacity(descriptor.sortBy.count)
        for sort in descriptor.sortBy { query.ordering.append(try ordering(for: sort)) }
        if let limit = descriptor.fetchLimit, limit < 0 { throw QueryError.unsupported("a negative fetchLimit") }
        if let offset = descriptor.fetchOffset, offset < 0 { throw QueryError.unsupported("a negative fetchOffset") }
        query.limit = descriptor.fetchLimit
        query.offset = descriptor.fetchOffset
        return query
    }

    /// Translates one sort descriptor. Text sorts by its NFC key (Swift's `<`), or with the
    /// descriptor's own `String.StandardComparator` when it has one, applied to the NFC key too:
    /// the comparators respect canonical equivalence, and on NFC text they are a consistent order,
    /// which on mixed NFC and NFD text they are not always (on Linux, `.lexical` finds "Cafe\u{301}"
    /// equal to "Caféa" but less than "Café1.0", which is less than "Caféa"; no order can match
    /// `sorted(using:)` then, as its result depends on the algorithm).
    public func ordering(for descriptor: SortDescriptor<Record>) throws -> Ordering {
        guard let keyPath = descriptor.keyPath, let field = field(for: keyPath), field.kind != nil else {
            throw QueryError.unsupported("sorting by \(descriptor.keyPath.map { "\($0)" } ?? "a comparator"), "
                                         + "which is not a stored or derived field of \(table)")
        }
        let operand = Operand.field(field, qualifier: table)
        if let comparator = descriptor.stringComparator {
            return Ordering(expression: operand.comparable, descending: descriptor.order == .reverse, comparator: comparator)
        }
        return Ordering(expression: operand.comparable, descending: descriptor.order == .reverse)
    }

    /// The ordering for a field by name (the CLI's `--sort`), or ``QueryError/unknownField(_:valid:position:)``.
    public func ordering(forFieldNamed name: String, descending: Bool, position: Range<Int>? = nil) throws -> Ordering {
        guard let field = field(named: name), field.kind != nil else {
            throw QueryError.unknownField(name, valid: fields.filter { $0.kind != nil }.map(\.name), position: position)
        }
        return Ordering(expression: Operand.field(field, qualifier: table).comparable, descending: descending)
    }
}
