import CSQLite
import Foundation

/// One SQLite value of any storage class: what a dynamic query reads and what the query IR binds.
public enum DatabaseValue: Sendable, Hashable, SQLiteValue {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double; SQLite stores NaN as NULL.
    case real(Double)
    /// Text, bound as its UTF-8 bytes, never normalized.
    case text(String)
    /// Bytes; empty data is a zero-length blob, not NULL.
    case blob(Data)

    /// The value itself.
    public var databaseValue: DatabaseValue { self }

    /// Binds the value in its own storage class; returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let value): value.bind(to: statement, at: index)
        case .real(let value): value.bind(to: statement, at: index)
        case .text(let value): value.bind(to: statement, at: index)
        case .blob(let value): value.bind(to: statement, at: index)
        }
    }

    /// Binds the value in its own storage class, text with ``Statement/bindText(_:at:)``; returns
    /// SQLite's result code.
    public func bind(to statement: Statement, at index: Int32) -> Int32 {
        if case .text(let value) = self { return value.bind(to: statement, at: index) }
        return bind(to: statement.handle, at: index)
    }

    /// Reads the column in whatever storage class the row holds, so no conversion of storage class
    /// can fail: the value of any SQL's result (`logbook query`'s). Text is decoded as UTF-8, an
    /// invalid sequence as U+FFFD (where reading as `String` refuses it); blobs come back byte for
    /// byte. Throws `SQLITE_NOMEM` when SQLite ran out of memory making a text's UTF-8.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> DatabaseValue {
        let value = ColumnValue(statement, index)
        switch value.storageClass {
        case SQLITE_INTEGER: return .integer(value.int64)
        case SQLITE_FLOAT: return .real(value.double)
        case SQLITE_TEXT: return .text(try withColumnTextBytes(of: statement, at: index) { String(decoding: $0 ?? .init(start: nil, count: 0), as: UTF8.self) })
        case SQLITE_BLOB: return .blob(try Data.read(from: statement, at: index))
        default: return .null
        }
    }
}
