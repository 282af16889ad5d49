import Foundation

/// A filter written as text (the CLI's `--where`), parsed but not yet typed: the second front end
/// of the query IR. Positions are character offsets into the text, for error carets.
public indirect enum FilterExpression: Sendable, Equatable {
    /// A field name, as written.
    case field(String, at: Range<Int>)
    /// A value written in the text.
    case literal(FilterLiteral, at: Range<Int>)
    /// A bracketed list of values, such as `["1.0", "1.1"]`: the right side of `in`.
    case list([FilterExpression], at: Range<Int>)
    /// `!operand`; the position is the `!`'s.
    case not(FilterExpression, at: Range<Int>)
    /// `lhs && rhs`.
    case and(FilterExpression, FilterExpression)
    /// `lhs || rhs`.
    case or(FilterExpression, FilterExpression)
    /// A comparison or test; the position is the operator's.
    case binary(FilterOperator, FilterExpression, FilterExpression, at: Range<Int>)

    /// The characters this node covers, for an error caret: its own range, or for `&&` and `||`
    /// from the start of the left side to the end of the right.
    public var position: Range<Int> {
        switch self {
        case .field(_, let at), .literal(_, let at), .list(_, let at), .not(_, let at), .binary(_, _, _, let at): at
        case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.position.lowerBound..<rhs.position.upperBound
        }
    }
}

/// An operator of the `--where` language; the raw value is how it is written.
public enum FilterOperator: String, Sendable, Equatable, CaseIterable {
    /// Comparisons: `==` and `!=` (NULL-safe for optional fields), and the orderings `<`, `<=`, `>`
    /// and `>=`.
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    /// `contains` (a substring of a text field, Character by Character, or an element of a
    /// collection), `icontains` (`localizedStandardContains`: case- and diacritic-insensitive),
    /// `hasPrefix` (Character by Character) and `in` (one of a list).
    case contains, icontains, hasPrefix, `in`

    /// The operator with its sides swapped: `<` for `>`, `==` for `==`.
    var mirrored: FilterOperator {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: self
        }
    }
}

/// A value written in a filter, before it is typed against the field it is compared with.
public enum FilterLiteral: Sendable, Equatable {
    /// Text in double quotes: a text field's value, or a UUID.
    case string(String)
    /// A whole number that fits in 64 bits, compared with a whole-number field; beside a day or
    /// date field it is refused (a year there is ``year(_:)``).
    case integer(Int64)
    /// A whole number written with exactly four digits, 0001 to 9999 (the parser makes `0000`
    /// an ``integer(_:)``): that year beside a day or date field (`day >= 2026`), the number
    /// beside a whole-number field.
    case year(Int)
    /// Any other finite number (a fraction, or a number with an exponent): compared with a
    /// whole-number field as the number it is (`exercises.count > 2.5` holds from 3 on);
    /// refused by the other kinds of field.
    case decimal(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `nil`: accepted only with `==` or `!=` on an optional field.
    case null
    /// An instant: `2026-01-31T08:30:00Z` or with an offset.
    case date(Date)
    /// A calendar day, `2026-01-31`.
    case day(year: Int, month: Int, day: Int)
    /// Whole calendar days, by proleptic Gregorian day number (days since 1970-01-01), first to
    /// last: a month (`2026-11`), an ISO week (`2026-W47`) or a year. Compared with a day or date
    /// field, `==` means within them, `<` before the first, `>` after the last.
    case days(first: Int, last: Int)

    var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .integer(let value): String(value)
        case .year(let year): String(format: "%04d", year)
        case .decimal(let value): String(value)
        case .bool(let value): String(value)
        case .null: "nil"
        case .date: "a date"
        case .day: "a day"
        case .days: "a range of days"
        }
    }
}
