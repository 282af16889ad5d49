/// Renders a ``QueryExpression`` as SQL text with `?` placeholders and the values to bind, in order.
/// No value ever reaches the SQL text; identifiers come only from table descriptions.
public struct SQLRenderer {
    /// The SQL rendered so far, with a `?` for each value.
    public private(set) var sql = ""
    /// The values for the `?` placeholders in ``SQLRenderer/sql``, in order.
    public private(set) var arguments: [DatabaseValue] = []

    /// An empty renderer, for SQL built from several pieces with ``SQLRenderer/append(_:)`` and
    /// ``SQLRenderer/appendText(_:)``.
    public init() {}

    /// Renders `expression` on its own.
    public static func render(_ expression: QueryExpression) -> (sql: String, arguments: [DatabaseValue]) {
        var renderer = SQLRenderer()
        renderer.append(expression)
        return (renderer.sql, renderer.arguments)
    }

    /// Appends SQL text as is: for keywords and identifiers, never for values.
    public mutating func appendText(_ text: String) { sql += text }

    /// Appends `expression`, each value as a `?` whose value is added to ``SQLRenderer/arguments``.
    ///
    /// Every compound expression comes out in parentheses or otherwise self-delimited, so the text
    /// can be spliced into a larger statement. A chain of `AND` (or of `OR`) becomes one group, which
    /// keeps long chains within the nesting depth SQLite's parser accepts, and a chain longer than
    /// `termsPerGroup` (64) a group of such groups, which keeps it within the depth of
    /// 1,000 SQLite allows an expression (a flat chain is one level deeper for every term).
    public mutating func append(_ expression: QueryExpression) {
        switch expression {
        case .column(let qualifier, let name):
            // Appended piece by piece: an interpolation builds (and allocates) a string first,
            // and every fetch renders its condition.
            sql += qualifier
            sql += "."
            sql += name
        case .value(let value):
            sql += "?"
            arguments.append(value)
        case .comparison(let op, let lhs, let rhs):
            group { $0.append(lhs); $0.sql += " "; $0.sql += op.rawValue; $0.sql += " "; $0.append(rhs) }
        case .and, .or:
            // A chain of the same operator is one group, `(a AND b AND c)`, not nested parentheses,
            // which SQLite's parser refuses past a depth of about a hundred.
            let isAnd = if case .and = expression { true } else { false }
            appendChain(Self.chain(expression, and: isAnd)[...], and: isAnd)
        case .not(var inner):
            // A run of NOTs is one group, `(NOT NOT x)`, not `(NOT (NOT x))`: SQLite's parser
            // takes about 45 levels of the nested form and twice as many of the flat one.
            group {
                $0.sql += "NOT "
                while case .not(let next) = inner {
                    $0.sql += "NOT "
                    inner = next
                }
                $0.append(inner)
            }
        case .isNull(let inner):
            group { $0.append(inner); $0.sql += " IS NULL" }
        case .coalesce(let items):
            call("COALESCE", items)
        case .conditional(var test, var then, var otherwise):
            // A CASE in the ELSE of another is one more WHEN of it: the same meaning, and no
            // deeper for SQLite's parser however long the chain (`QueryOperations`' guards).
            sql += "CASE"
            while true {
                sql += " WHEN "
                append(test)
                sql += " THEN "
                append(then)
                guard case .conditional(let nextTest, let nextThen, let nextOtherwise) = otherwise else { break }
                (test, then, otherwise) = (nextTest, nextThen, nextOtherwise)
            }
            sql += " ELSE "
            append(otherwise)
            sql += " END"
        case .function(let name, let items):
            call(name, items)
        case .inList(let value, let items):
            group {
                $0.append(value)
                $0.sql += " IN "
                $0.list(items)
            }
        case .exists(let scope, let condition):
            sql += "EXISTS "
            subquery("1", scope, condition)
        case .count(let scope, let condition):
            subquery("count(*)", scope, condition)
        }
    }

    /// The most terms one group of a chain holds.
    static let termsPerGroup = 64

    /// `terms` joined by `AND` (or `OR`) in one group, or, when there are more than
    /// `termsPerGroup`, in a group of up to that many groups (a list of 1,500 days is two levels).
    private mutating func appendChain(_ terms: ArraySlice<QueryExpression>, and isAnd: Bool) {
        group { renderer in
            let size = (terms.count + Self.termsPerGroup - 1) / Self.termsPerGroup
            for (index, start) in stride(from: terms.startIndex, to: terms.endIndex, by: size).enumerated() {
                if index > 0 { renderer.sql += isAnd ? " AND " : " OR " }
                if size == 1 {
                    renderer.append(terms[start])
                } else {
                    renderer.appendChain(terms[start..<min(start + size, terms.endIndex)], and: isAnd)
                }
            }
        }
    }

    /// The terms of a left- or right-leaning chain of `AND` (or `OR`), in order.
    private static func chain(_ expression: QueryExpression, and isAnd: Bool) -> [QueryExpression] {
        switch (expression, isAnd) {
        case (.and(let lhs, let rhs), true), (.or(let lhs, let rhs), false):
            chain(lhs, and: isAnd) + chain(rhs, and: isAnd)
        default:
            [expression]
        }
    }

    private mutating func group(_ body: (inout SQLRenderer) -> Void) {
        sql += "("
        body(&self)
        sql += ")"
    }

    private mutating func call(_ name: String, _ items: [QueryExpression]) {
        sql += name
        list(items)
    }

    private mutating func list(_ items: [QueryExpression]) {
        sql += "("
        for (index, item) in items.enumerated() {
            if index > 0 { sql += ", " }
            append(item)
        }
        sql += ")"
    }

    private mutating func subquery(_ select: String, _ scope: ChildScope, _ condition: QueryExpression?) {
        sql += "(SELECT \(select) FROM \(scope.table) AS \(scope.alias) WHERE \(scope.alias).\(scope.parentColumn) = "
        append(scope.parentKey)
        if let condition {
            sql += " AND "
            append(condition)
        }
        sql += ")"
    }
}
