import CSQLite
import Foundation

/// An error reported by SQLite, with everything needed to understand it.
///
/// `code` is SQLite's *extended* result code (for example `SQLITE_CONSTRAINT_UNIQUE`, 2067),
/// `message` is `sqlite3_errmsg` at the time of failure, and `sql` is the statement that failed,
/// when there was one.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, LocalizedError {
    /// SQLite's extended result code (2067 for `SQLITE_CONSTRAINT_UNIQUE`); an error this library
    /// raises itself carries a primary code, such as `SQLITE_MISUSE` or `SQLITE_NOTADB`.
    public let code: Int32
    /// SQLite's message (`sqlite3_errmsg`), or this library's own for an error it raises itself.
    public let message: String
    /// The statement that failed, when the error came from one.
    public let sql: String?

    /// An error with SQLite's `code` and `message`, and the statement that failed, if any.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The error `database` (a connection handle) reports now, for the statement `sql`, with
    /// `message` in place of SQLite's when given (`sqlite3_exec`'s own). An
    /// input or output error (`SQLITE_IOERR`, `SQLITE_FULL`, `SQLITE_CANTOPEN`) says what the
    /// system said (`disk I/O error: No space left on device`): SQLite's message alone names no cause.
    init(reportedBy database: OpaquePointer, message: String? = nil, sql: String? = nil) {
        let code = sqlite3_extended_errcode(database)
        var text = message ?? String(cString: sqlite3_errmsg(database))
        if [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN].contains(code & 0xFF), let reason = Self.systemReason(reportedBy: database) {
            text += ": " + reason
        } else if [ResultCode.writeError, ResultCode.truncateError].contains(code), let limit = Self.fileSizeLimit {
            // SQLite reads the system's error after later calls may have cleared it; a failed write
            // under a limit on file size is most likely that limit (EFBIG).
            text += ": most likely File too large (this process may write files of at most \(limit) bytes: ulimit -f)"
        }
        self.init(code: code, message: text, sql: sql)
    }

    /// The system's words for the error SQLite last saw on `database`'s files (`No space left on
    /// device`), or nil when it saw none.
    static func systemReason(reportedBy database: OpaquePointer) -> String? {
        let number = sqlite3_system_errno(database)
        guard number != 0, let reason = strerror(number) else { return nil }
        return String(cString: reason)
    }

    /// The most bytes this process may write to a file (`RLIMIT_FSIZE`, `ulimit -f`), or nil for no limit.
    private static var fileSizeLimit: UInt64? {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)  // glibc declares the resources as an enum
        #else
        let resource = RLIMIT_FSIZE
        #endif
        // RLIM_INFINITY is all ones on Linux, 2^63 - 1 on Darwin.
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int64.max) else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// The primary result code (the low byte of the extended code), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { code & 0xFF }

    /// SQLite's own English name for the result code, e.g. "constraint failed".
    public var codeDescription: String { String(cString: sqlite3_errstr(code)) }

    /// The code and SQLite's message, for people: the statement stays out (it is in ``debugDescription``).
    public var description: String { "SQLite error \(code) (\(codeDescription)): \(message)" }

    /// The description with the statement that failed, for logs and debugging.
    public var debugDescription: String { description + (sql.map { " in `\($0)`" } ?? "") }

    /// The same as ``SQLiteError/description``, so that `localizedDescription` shows it.
    public var errorDescription: String? { description }

    /// Whether the database was locked by another connection (`SQLITE_BUSY` or `SQLITE_LOCKED`).
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// Whether the file is not a database or is damaged (`SQLITE_NOTADB` or `SQLITE_CORRUPT`).
    public var isNotADatabaseOrCorrupt: Bool { primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_CORRUPT }

    /// Whether the file, or the folder SQLite must create its `-wal` and `-shm` files in, cannot be
    /// written (`SQLITE_READONLY` and its extended codes, but for `SQLITE_READONLY_DBMOVED`: the
    /// file was removed or replaced since it was opened, which no permission explains).
    public var isReadOnly: Bool { primaryCode == SQLITE_READONLY && code != ResultCode.movedFile }

    /// Whether the folder of the database cannot be written (`SQLITE_READONLY_DIRECTORY`).
    public var isReadOnlyDirectory: Bool { code == ResultCode.readOnlyDirectory }

    /// Whether the file could not be opened at all (`SQLITE_CANTOPEN`).
    public var isCannotOpen: Bool { primaryCode == SQLITE_CANTOPEN }

    /// Whether the operating system failed a read or write SQLite asked of it (`SQLITE_IOERR_*`).
    public var isIOError: Bool { primaryCode == SQLITE_IOERR }

    /// Whether a write found no room (`SQLITE_FULL`): the disk of the database, of its journal, or
    /// of SQLite's temporary files was full, or the file reached its largest page count.
    public var isFull: Bool { primaryCode == SQLITE_FULL }

    /// Whether a value was not of the type its place needs (`SQLITE_MISMATCH`): in a read, a
    /// `LIMIT` or `OFFSET` that is not a whole number.
    public var isDatatypeMismatch: Bool { primaryCode == SQLITE_MISMATCH }

    /// Whether SQLite's parser refused the statement for one of its limits: nested too deeply
    /// ("parser stack overflow", "Expression tree is too large"), too many values bound, or too
    /// many arguments to a function.
    public var isBeyondParserLimits: Bool {
        primaryCode == SQLITE_ERROR && (message == "parser stack overflow" || message.hasPrefix("Expression tree is too large")
                                        || message.hasPrefix("too many SQL variables") || message.hasPrefix("too many arguments on function"))
    }

    /// Whether the statement names a table, column, index or trigger the schema does not have.
    public var isMissingSchemaObject: Bool {
        primaryCode == SQLITE_ERROR && ["no such table", "no such column", "no such index", "no such trigger"]
            .contains { message.hasPrefix($0) }
    }

    /// Whether an authorizer refused the statement: `SQLITE_AUTH` (which a `pragma_…` table-valued
    /// function returns when stepped), or the `SQLITE_ERROR` "not authorized" that
    /// `sqlite3_prepare` returns for some refusals ("not authorized to use function: …" for a
    /// function refused).
    public var isNotAuthorized: Bool {
        primaryCode == SQLITE_AUTH || (primaryCode == SQLITE_ERROR && message.hasPrefix("not authorized"))
    }

    static let noStatementMessage = "no SQL statement to prepare"
    static let severalStatementsMessage = "only one SQL statement may be prepared at a time"

    /// Whether `Connection.prepare` was given text with no statement (only whitespace and comments).
    public var isNoStatement: Bool { primaryCode == SQLITE_MISUSE && message == Self.noStatementMessage }

    /// Whether `Connection.prepare` was given more than one statement.
    public var isSeveralStatements: Bool { primaryCode == SQLITE_MISUSE && message == Self.severalStatementsMessage }

    /// Whether a `UNIQUE` constraint refused a row (`SQLITE_CONSTRAINT_UNIQUE`).
    public var isUniqueConstraint: Bool { code == ResultCode.uniqueConstraint }
}

/// The extended result codes this library tells apart, by name: SQLite defines them as C macros
/// that compose other macros (`SQLITE_CONSTRAINT | (8<<8)`), which Swift does not import.
public enum ResultCode {
    /// `SQLITE_READONLY_DIRECTORY`: the database's folder cannot be written.
    public static let readOnlyDirectory: Int32 = SQLITE_READONLY | (6 << 8)
    /// `SQLITE_READONLY_DBMOVED`: the database file was deleted, moved or replaced since the
    /// connection opened it, so a write would go to a file no path leads to.
    public static let movedFile: Int32 = SQLITE_READONLY | (4 << 8)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a `PRIMARY KEY` refused a row.
    public static let primaryKeyConstraint: Int32 = SQLITE_CONSTRAINT | (6 << 8)
    /// `SQLITE_CONSTRAINT_NOTNULL`: a `NOT NULL` constraint refused a row.
    public static let notNullConstraint: Int32 = SQLITE_CONSTRAINT | (5 << 8)
    /// `SQLITE_CONSTRAINT_UNIQUE`: a `UNIQUE` constraint refused a row.
    public static let uniqueConstraint: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a foreign key refused a row, or a commit that leaves a
    /// deferred one broken.
    public static let foreignKeyConstraint: Int32 = SQLITE_CONSTRAINT | (3 << 8)
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    public static let cannotOpen: Int32 = SQLITE_CANTOPEN
    /// `SQLITE_IOERR_WRITE`: a write to a file failed.
    public static let writeError: Int32 = SQLITE_IOERR | (3 << 8)
    /// `SQLITE_IOERR_TRUNCATE`: making a file shorter or longer failed.
    public static let truncateError: Int32 = SQLITE_IOERR | (6 << 8)
}

/// A value read from a column could not be converted to the Swift type asked for.
public struct ColumnConversionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The column's name, or `#N of the result` when the column is an expression.
    public let column: String
    /// What the Swift type needs: `INTEGER`, `0 or 1`, `an uppercase UUID string` and the like.
    public let expected: String
    /// The storage class the row holds: `INTEGER`, `REAL`, `TEXT`, `BLOB` or `NULL`.
    public let found: String

    /// An error for `column`, which held `found` where `expected` was needed.
    public init(column: String, expected: String, found: String) {
        self.column = column
        self.expected = expected
        self.found = found
    }

    /// `column <name>: expected <expected>, found <found>`.
    public var description: String {
        "column \(column): expected \(expected), found \(found)"
    }
}
