import CSQLite
import Foundation

/// A Swift type that can be bound to a statement parameter and read back from a result column.
///
/// Storage classes, chosen so that the file reads naturally in the `sqlite3` shell:
///
/// | Swift | SQLite | notes |
/// |---|---|---|
/// | `Int`, `Int64` | INTEGER | |
/// | `Bool` | INTEGER | 0 or 1 |
/// | `Double` | REAL | NaN is stored by SQLite as NULL; -0.0 comes back as 0.0 |
/// | `String` | TEXT | UTF-8, byte for byte: never normalized |
/// | `Data` | BLOB | empty data stays an empty blob, not NULL |
/// | `Date` | REAL | seconds since 2001-01-01T00:00:00Z, exactly `timeIntervalSinceReferenceDate` |
/// | `UUID` | TEXT | `uuidString`, 36 uppercase characters |
/// | `Optional` | NULL when nil | |
///
/// Conformers read and write the C statement directly, so no intermediate value is allocated
/// per column on the hot path.
public protocol SQLiteValue {
    /// Binds `self` to the 1-based parameter `index` of `statement`.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
    /// Reads the 0-based column `index` of the current row of `statement`.
    static func read(from statement: OpaquePointer, at index: Int32) throws -> Self
    /// The value as SQLite stores it: what the query layer binds for a captured Swift value.
    var databaseValue: DatabaseValue { get }
}

/// Tells SQLite to copy bound text and blobs before the call returns.
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

private func typeName(of statement: OpaquePointer, at index: Int32) -> String {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: "INTEGER"
    case SQLITE_FLOAT: "REAL"
    case SQLITE_TEXT: "TEXT"
    case SQLITE_BLOB: "BLOB"
    default: "NULL"
    }
}

/// The result column's name when it is a plain name (`day`, `submitted_at`); an expression's
/// text (`json_group_array(…)`) would show SQL in a message, so it is named by its place instead.
private func columnName(of statement: OpaquePointer, at index: Int32) -> String {
    let name = sqlite3_column_name(statement, index).map { String(cString: $0) } ?? ""
    let isPlainName = !name.isEmpty && name.utf8.count <= 64
        && name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF) }
    return isPlainName ? name : "#\(index + 1) of the result"
}

func conversionError(_ statement: OpaquePointer, _ index: Int32, expected: String) -> ColumnConversionError {
    ColumnConversionError(column: columnName(of: statement, at: index), expected: expected,
                          found: typeName(of: statement, at: index))
}

extension Int64: SQLiteValue {
    public var databaseValue: DatabaseValue { .integer(self) }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Int64 {
        guard sqlite3_column_type(statement, index) == SQLITE_INTEGER else {
            throw conversionError(statement, index, expected: "INTEGER")
        }
        return sqlite3_column_int64(statement, index)
    }
}

extension Int: SQLiteValue {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Int {
        Int(try Int64.read(from: statement, at: index))
    }
}

extension Bool: SQLiteValue {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self ? 1 : 0)
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Bool {
        switch try Int64.read(from: statement, at: index) {
        case 0: false
        case 1: true
        default: throw conversionError(statement, index, expected: "0 or 1")
        }
    }
}

extension Double: SQLiteValue {
    public var databaseValue: DatabaseValue { isNaN ? .null : .real(self) }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Double {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_FLOAT, SQLITE_INTEGER: sqlite3_column_double(statement, index)
        default: throw conversionError(statement, index, expected: "REAL")
        }
    }
}

extension String: SQLiteValue {
    public var databaseValue: DatabaseValue { .text(self) }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                // "" rather than a nil pointer, so that the empty string is bound as text, not NULL.
                return sqlite3_bind_text(statement, index, "", 0, transientDestructor)
            }
            let characters = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            return sqlite3_bind_text64(statement, index, characters, UInt64(bytes.count), transientDestructor,
                                       UInt8(SQLITE_UTF8))
        }
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> String {
        guard sqlite3_column_type(statement, index) == SQLITE_TEXT else {
            throw conversionError(statement, index, expected: "TEXT")
        }
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Data: SQLiteValue {
    public var databaseValue: DatabaseValue { .blob(self) }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        if isEmpty { return sqlite3_bind_zeroblob(statement, index, 0) }
        return withUnsafeBytes { bytes in
            sqlite3_bind_blob64(statement, index, bytes.baseAddress, UInt64(bytes.count), transientDestructor)
        }
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Data {
        guard sqlite3_column_type(statement, index) == SQLITE_BLOB else {
            throw conversionError(statement, index, expected: "BLOB")
        }
        guard let bytes = sqlite3_column_blob(statement, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, index)))
    }
}

extension Date: SQLiteValue {
    public var databaseValue: DatabaseValue { .real(timeIntervalSinceReferenceDate) }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, timeIntervalSinceReferenceDate)
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Date {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_FLOAT, SQLITE_INTEGER:
            return Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, index))
        default:
            throw conversionError(statement, index, expected: "REAL (seconds since 2001-01-01)")
        }
    }
}

extension UUID: SQLiteValue {
    public var databaseValue: DatabaseValue { .text(text) }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        text.bind(to: statement, at: index)
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> UUID {
        guard sqlite3_column_type(statement, index) == SQLITE_TEXT, let bytes = sqlite3_column_text(statement, index),
              let uuid = UUIDText.parse(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))))
        else {
            throw conversionError(statement, index, expected: "a UUID string")
        }
        return uuid
    }
}

extension Optional: SQLiteValue where Wrapped: SQLiteValue {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .none: sqlite3_bind_null(statement, index)
        case .some(let value): value.bind(to: statement, at: index)
        }
    }
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Wrapped? {
        if sqlite3_column_type(statement, index) == SQLITE_NULL { return nil }
        return try Wrapped.read(from: statement, at: index)
    }
}
