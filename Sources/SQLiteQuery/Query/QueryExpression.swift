/// The one expression IR. Both front ends compile to it (Foundation `#Predicate` trees through
/// `PredicateTranslator`, and the CLI's `--where` text), and ``SQLRenderer`` is the one place that
/// turns it into SQL, with every value a bound `?` parameter.
public indirect enum QueryExpression: Sendable, Equatable {
    /// A column, qualified by its table or alias: `drafts.version_key`.
    case column(qualifier: String, name: String)
    /// A value, always bound as a parameter.
    case value(DatabaseValue)
    /// `lhs op rhs`, in parentheses.
    case comparison(ComparisonOperator, QueryExpression, QueryExpression)
    /// `lhs AND rhs`; a chain of them renders as one parenthesized group.
    case and(QueryExpression, QueryExpression)
    /// `lhs OR rhs`; a chain of them renders as one parenthesized group.
    case or(QueryExpression, QueryExpression)
    /// `NOT operand`, in parentheses; a run of them renders as one group, `(NOT NOT operand)`.
    case not(QueryExpression)
    /// `operand IS NULL`, in parentheses.
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

    /// True as SQLite has it: the integer 1, bound as a parameter.
    public static let `true` = QueryExpression.value(.integer(1))
    /// False as SQLite has it: the integer 0, bound as a parameter.
    public static let `false` = QueryExpression.value(.integer(0))

    /// Whether the expression reads only its own row's columns and values, with no subquery and
    /// no function call: cheap to run again, as a fetch's child statements may.
    public var isPlain: Bool {
        switch self {
        case .column, .value: true
        case .comparison(_, let lhs, let rhs), .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.isPlain && rhs.isPlain
        case .not(let operand), .isNull(let operand): operand.isPlain
        case .coalesce(let operands): operands.allSatisfy(\.isPlain)
        case .conditional(let test, let then, let otherwise): test.isPlain && then.isPlain && otherwise.isPlain
        case .inList(let operand, let list): operand.isPlain && list.allSatisfy(\.isPlain)
        case .function, .exists, .count: false
        }
    }
}

/// The operator of a `QueryExpression.comparison`; the raw value is its SQL spelling.
public enum ComparisonOperator: String, Sendable, Equatable {
    /// `=`: NULL, not false, when either side is NULL.
    case equal = "="
    /// `<>`: NULL, not true, when either side is NULL.
    case notEqual = "<>"
    /// `<`.
    case less = "<"
    /// `<=`.
    case lessOrEqual = "<="
    /// `>`.
    case greater = ">"
    /// `>=`.
    case greaterOrEqual = ">="
    /// NULL-safe equality: `NULL IS NULL` is true, as `nil == nil` is in Swift.
    case `is` = "IS"
    /// NULL-safe inequality: `1 IS NOT NULL` is true, as `1 != nil` is in Swift.
    case isNot = "IS NOT"
}

/// The child rows of one parent row, under an alias: what `EXISTS` and `count` range over.
public struct ChildScope: Sendable, Equatable {
    /// The child table.
    public let table: String
    /// The name the child table goes by inside the subquery (`c1`, `c2`, …), one per scope.
    public let alias: String
    /// The child table's column that holds its parent's row key.
    public let parentColumn: String
    /// The parent's row key, e.g. `.column(qualifier: "drafts", name: "pk")`.
    public let parentKey: QueryExpression

    /// The rows of `table`, named `alias`, whose `parentColumn` equals `parentKey`.
    public init(table: String, alias: String, parentColumn: String, parentKey: QueryExpression) {
        self.table = table
        self.alias = alias
        self.parentColumn = parentColumn
        self.parentKey = parentKey
    }
}
