import CSQLite

/// An error reported by SQLite, with everything needed to understand it.
///
/// `code` is SQLite's *extended* result code (for example `SQLITE_CONSTRAINT_UNIQUE`, 2067),
/// `message` is `sqlite3_errmsg` at the time of failure, and `sql` is the statement that failed,
/// when there was one.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended code), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { code & 0xFF }

    /// SQLite's own English name for the result code, e.g. "constraint failed".
    public var codeDescription: String { String(cString: sqlite3_errstr(code)) }

    public var description: String {
        var text = "SQLite error \(code) (\(codeDescription)): \(message)"
        if let sql { text += " in `\(sql)`" }
        return text
    }

    /// Whether the database was locked by another connection (`SQLITE_BUSY` or `SQLITE_LOCKED`).
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// Whether the file is not a database or is damaged (`SQLITE_NOTADB` or `SQLITE_CORRUPT`).
    public var isNotADatabaseOrCorrupt: Bool { primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_CORRUPT }
}

/// A value read from a column could not be converted to the Swift type asked for.
public struct ColumnConversionError: Error, Equatable, Sendable, CustomStringConvertible {
    public let column: String
    public let expected: String
    public let found: String

    public init(column: String, expected: String, found: String) {
        self.column = column
        self.expected = expected
        self.found = found
    }

    public var description: String {
        "column \(column): expected \(expected), found \(found)"
    }
}
