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

    /// Where in the filter text the problem is, for a caret under it.
    public var position: Range<Int>? {
        switch self {
        case .unsupported: nil
        case .unknownField(_, _, let position), .typeMismatch(_, let position): position
        }
    }
}
