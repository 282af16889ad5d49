/// Why a predicate, sort or filter could not be turned into SQL. Nothing is ever evaluated in
/// memory instead: an expression the store cannot run exactly is refused, naming the construct.
public enum QueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `#Predicate` construct or key path with no exact SQL translation.
    case unsupported(String)
    /// A field name the record does not have (CLI filters and sorts), with the valid ones.
    case unknownField(String, valid: [String], position: Range<Int>?)
    /// Operands of kinds the operator cannot combine (`day > "abc"`, `exercises < 3`).
    case typeMismatch(String, position: Range<Int>?)

    /// The message for people; the position is left to the caller's caret.
    public var description: String {
        switch self {
        case .unsupported(let construct): "cannot translate to SQL: \(construct)"
        case .unknownField(let name, let valid, _):
            "unknown field '\(name)'; valid fields: \(valid.joined(separator: ", "))"
        case .typeMismatch(let message, _): message
        }
    }

    /// The result of `prepare`, which prepares a query's statements, with SQLite's refusal of one
    /// past its parser's limits (``SQLiteError/isBeyondParserLimits``) thrown as ``unsupported(_:)``:
    /// as for a construct with no translation, nothing has run. (A `#Predicate` built in code can
    /// nest far deeper than the macro type-checks; SQLite's parser takes about 17 levels of
    /// `1 + (1 + …)`, 30 of `&&` and `||` in turn and 89 of `!`.)
    static func refusingWhatSQLiteCannotParse<Result>(_ prepare: () throws -> Result) throws -> Result {
        do {
            return try prepare()
        } catch let error as SQLiteError where error.isBeyondParserLimits {
            throw QueryError.unsupported(beyondParserLimits + ", or with more values than it binds (\(error.message)); "
                                         + "write it with fewer levels, or fewer values")
        }
    }

    /// The start of the reason ``refusingWhatSQLiteCannotParse(_:)`` gives.
    private static let beyondParserLimits = "a condition more deeply nested than SQLite's parser takes"

    /// Whether SQLite's parser refused the condition for one of its limits (nesting, values to
    /// bind), when the statement was prepared: the condition's shape is at fault, not the store,
    /// so a command line reports it as a mistake in the filter it was given.
    public var isBeyondParserLimits: Bool {
        guard case .unsupported(let construct) = self else { return false }
        return construct.hasPrefix(Self.beyondParserLimits)
    }

    /// Where in the filter text the problem is, for a caret under it.
    public var position: Range<Int>? {
        switch self {
        case .unsupported: nil
        case .unknownField(_, _, let position), .typeMismatch(_, let position): position
        }
    }
}
