/// The one expression IR. Both front ends compile to it (Foundation `#Predicate` trees through
/// ``PredicateTranslator``, and the CLI's `--where` text), and ``SQLRenderer`` is the one place that
/// turns it into SQL, with every value a bound `?` parameter.
public indirect enum QueryExpression: Sendable, Equatable {
    /// A column, qualified by its table or alias: `drafts.version_key`.
    case column(qualifier: String, name: String)
    /// A value, always bound as a parameter.
    case value(DatabaseValue)
    case comparison(ComparisonOperator, QueryExpression, QueryExpression)
    case and(QueryExpression, QueryExpression)
    case or(QueryExpression, QueryExpression)
    case not(QueryExpression)
    case isNull(QueryExpression)
    /// `COALESCE(a, b, …)`.
    case coalesce([QueryExpression])
    /// `CASE WHEN test THEN a ELSE b END`.
    case conditional(QueryExpression, then: QueryExpression, else: QueryExpression)
    /// A call of a built-in or registered SQL function.
    case function(String, [QueryExpression])
    /// `expr IN (a, b, …)`.
    case inList(QueryExpression, [QueryExpression])
    /// `EXISTS (SELECT 1 FROM table AS alias WHERE alias.parentColumn = parent AND condition)`.
    case exists(ChildScope, condition: QueryExpression?)
    /// `(SELECT count(*) FROM table AS alias WHERE alias.parentColumn = parent AND condition)`.
    case count(ChildScope, condition: QueryExpression?)

    public static let `true` = QueryExpression.value(.integer(1))
    public static let `false` = QueryExpression.value(.integer(0))
}

public enum ComparisonOperator: String, Sendable, Equatable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// NULL-safe equality: `NULL IS NULL` is true, as `nil == nil` is in Swift.
    case `is` = "IS"
    case isNot = "IS NOT"
}

/// The child rows of one parent row, under an alias: what `EXISTS` and `count` range over.
public struct ChildScope: Sendable, Equatable {
    public let table: String
    public let alias: String
    public let parentColumn: String
    /// The parent's row key, e.g. `.column(qualifier: "drafts", name: "pk")`.
    public let parentKey: QueryExpression

    public init(table: String, alias: String, parentColumn: String, parentKey: QueryExpression) {
        self.table = table
        self.alias = alias
        self.parentColumn = parentColumn
        self.parentKey = parentKey
    }
}
