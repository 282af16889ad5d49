import Foundation

/// A filter written as text (the CLI's `--where`), parsed but not yet typed: the second front end
/// of the query IR. Positions are character offsets into the text, for error carets.
public indirect enum FilterExpression: Sendable, Equatable {
    case field(String, at: Range<Int>)
    case literal(FilterLiteral, at: Range<Int>)
    case list([FilterExpression], at: Range<Int>)
    case not(FilterExpression, at: Range<Int>)
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    /// A comparison or test; the position is the operator's.
    case binary(FilterOperator, FilterExpression, FilterExpression, at: Range<Int>)

    public var position: Range<Int> {
        switch self {
        case .field(_, let at), .literal(_, let at), .list(_, let at), .not(_, let at), .binary(_, _, _, let at): at
        case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.position.lowerBound..<rhs.position.upperBound
        }
    }
}

public enum FilterOperator: String, Sendable, Equatable, CaseIterable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case contains, icontains, hasPrefix, `in`
}

public enum FilterLiteral: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case decimal(Double)
    case bool(Bool)
    case null
    /// An instant: `2026-01-31T08:30:00Z` or with an offset.
    case date(Date)
    /// A calendar day, `2026-01-31`.
    case day(year: Int, month: Int, day: Int)

    var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .integer(let value): String(value)
        case .decimal(let value): String(value)
        case .bool(let value): String(value)
        case .null: "nil"
        case .date: "a date"
        case .day: "a day"
        }
    }
}
