import CSQLite
import Foundation

/// One SQLite value of any storage class: what a dynamic query reads and what the query IR binds.
public enum DatabaseValue: Sendable, Hashable, SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    public var databaseValue: DatabaseValue { self }

    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let value): value.bind(to: statement, at: index)
        case .real(let value): value.bind(to: statement, at: index)
        case .text(let value): value.bind(to: statement, at: index)
        case .blob(let value): value.bind(to: statement, at: index)
        }
    }

    public static func read(from statement: OpaquePointer, at index: Int32) throws -> DatabaseValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: .text(try String.read(from: statement, at: index))
        case SQLITE_BLOB: .blob(try Data.read(from: statement, at: index))
        default: .null
        }
    }
}
