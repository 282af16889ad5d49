import SQLiteQuery

extension DatabaseValue {
    /// The value as an error about a stored value shows what it found: a number as written, text
    /// quoted (its first 64 characters), `NULL`, `a BLOB`.
    var foundText: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "\(value)"
        case .real(let value): "\(value)"
        case .text(let value): "\"\(value.prefix(64))\""
        case .blob: "a BLOB"
        }
    }
}
