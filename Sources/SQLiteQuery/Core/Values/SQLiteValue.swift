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
/// | `String` | TEXT | UTF-8, byte for byte: never normalized; stored bytes that are not UTF-8 are refused, never repaired |
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
    /// Binds `self` to the 1-based parameter `index` of `statement`: what ``Statement/bind(_:at:)``
    /// calls. By default ``bind(to:at:)-(OpaquePointer,_)`` with the statement's handle; a type
    /// stored as text binds its bytes with ``Statement/bindText(_:at:)``, which keeps them in the
    /// statement instead of having SQLite allocate a copy of them on each bind.
    func bind(to statement: Statement, at index: Int32) -> Int32
    /// Reads the 0-based column `index` of the current row of `statement`. The built-in types read
    /// through `sqlite3_column_value`, without the connection's mutex: `statement`'s connection
    /// must be used by one thread at a time while they do (as every ``Connection`` is).
    static func read(from statement: OpaquePointer, at index: Int32) throws -> Self
    /// Reads the 0-based column `index` of the current row of `statement`: what
    /// ``Statement/column(_:as:)`` calls. By default ``read(from:at:)-(OpaquePointer,_)`` with the
    /// statement's handle; `String` finds a short text the statement read before among its recent
    /// texts instead of decoding it again.
    static func read(from statement: Statement, at index: Int32) throws -> Self
    /// The value as SQLite stores it: what the query layer binds for a captured Swift value.
    var databaseValue: DatabaseValue { get }
}

extension SQLiteValue {
    /// Binds through ``bind(to:at:)-(OpaquePointer,_)`` with the statement's handle.
    public func bind(to statement: Statement, at index: Int32) -> Int32 {
        bind(to: statement.handle, at: index)
    }

    /// Reads through ``read(from:at:)-(OpaquePointer,_)`` with the statement's handle.
    public static func read(from statement: Statement, at index: Int32) throws -> Self {
        try read(from: statement.handle, at: index)
    }
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
func columnName(of statement: OpaquePointer, at index: Int32) -> String {
    let name = sqlite3_column_name(statement, index).map { String(cString: $0) } ?? ""
    let isPlainName = !name.isEmpty && name.utf8.count <= 64
        && name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF) }
    return isPlainName ? name : "#\(index + 1) of the result"
}

func conversionError(_ statement: OpaquePointer, _ index: Int32, expected: String) -> ColumnConversionError {
    ColumnConversionError(statement: statement, column: index, expected: expected, found: typeName(of: statement, at: index))
}

extension ColumnConversionError {
    /// The error for the 0-based result `column` of `statement`, named as the result names it
    /// (`first_day`), or by its place when that name is an expression: for a type of your own's
    /// ``SQLiteValue/read(from:at:)-(OpaquePointer,_)``.
    public init(statement: OpaquePointer, column: Int32, expected: String, found: String) {
        self.init(column: columnName(of: statement, at: column), expected: expected, found: found)
    }
}

extension Int64: SQLiteValue {
    /// `.integer(self)`.
    public var databaseValue: DatabaseValue { .integer(self) }
    /// Binds the integer with `sqlite3_bind_int64`; returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
    /// Reads an INTEGER column; throws ``ColumnConversionError`` for any other storage class, so a
    /// REAL is never truncated.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Int64 {
        let value = ColumnValue(statement, index)
        guard value.storageClass == SQLITE_INTEGER else { throw conversionError(statement, index, expected: "INTEGER") }
        return value.int64
    }
}

extension Int: SQLiteValue {
    /// `.integer` of the value as `Int64`.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    /// Binds the value as a 64-bit integer; returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
    /// Reads an INTEGER column; throws ``ColumnConversionError`` for any other storage class.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Int {
        Int(try Int64.read(from: statement, at: index))
    }
}

extension Bool: SQLiteValue {
    /// `.integer(1)` for true, `.integer(0)` for false.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    /// Binds 1 for true and 0 for false; returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self ? 1 : 0)
    }
    /// Reads an INTEGER column holding 0 or 1; throws ``ColumnConversionError`` for any other value
    /// or storage class.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Bool {
        switch try Int64.read(from: statement, at: index) {
        case 0: false
        case 1: true
        default: throw conversionError(statement, index, expected: "0 or 1")
        }
    }
}

extension Double: SQLiteValue {
    /// `.real(self)`, or `.null` for NaN, which SQLite would store as NULL anyway.
    public var databaseValue: DatabaseValue { isNaN ? .null : .real(self) }
    /// Binds the value with `sqlite3_bind_double` (SQLite stores NaN as NULL); returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }
    /// Reads a REAL column, or an INTEGER one converted to `Double` (exactly up to 2^53); throws
    /// ``ColumnConversionError`` for TEXT, BLOB and NULL.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Double {
        let value = ColumnValue(statement, index)
        switch value.storageClass {
        case SQLITE_FLOAT, SQLITE_INTEGER: return value.double
        default: throw conversionError(statement, index, expected: "REAL")
        }
    }
}

/// Binds `bytes`, UTF-8 text, to the 1-based parameter `index` of `statement` for SQLite to copy:
/// for a value that writes its text into a buffer of its own (a day, a UUID) rather than a `String`.
/// Empty bytes bind as empty text, not NULL. Returns SQLite's result code.
public func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to statement: OpaquePointer, at index: Int32) -> Int32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
        // "" rather than a nil pointer, so that the empty string is bound as text, not NULL.
        return sqlite3_bind_text(statement, index, "", 0, transientDestructor)
    }
    let characters = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
    return sqlite3_bind_text64(statement, index, characters, UInt64(bytes.count), transientDestructor, UInt8(SQLITE_UTF8))
}

extension String: SQLiteValue {
    /// `.text(self)`.
    public var databaseValue: DatabaseValue { .text(self) }
    /// Binds the UTF-8 bytes as they are, never normalized, for SQLite to copy; the empty string
    /// is bound as empty text, not NULL. Returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { bindText($0, to: statement, at: index) }
    }
    /// Binds the UTF-8 bytes as they are with ``Statement/bindText(_:at:)``; returns SQLite's result code.
    public func bind(to statement: Statement, at index: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { statement.bindText($0, at: index) }
    }
    /// Reads a TEXT column's bytes, which must be valid UTF-8: exactly the text stored, never
    /// repaired. Throws ``ColumnConversionError`` for any other storage class, BLOB included, and
    /// for bytes that are not UTF-8 (another program's: SQLite stores what it is given), and an
    /// ``SQLiteError`` with `SQLITE_NOMEM` when SQLite ran out of memory making the bytes (never
    /// empty text).
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> String {
        try withTextBytes(of: statement, at: index, UTF8Validation.string)
    }
    /// Reads as ``read(from:at:)-(OpaquePointer,_)`` does, a short text the statement read before
    /// (the same bytes) handed back without decoding it again.
    public static func read(from statement: Statement, at index: Int32) throws -> String {
        try withTextBytes(of: statement.handle, at: index) { statement.recentTexts.string(validating: $0) }
    }
    /// `decode` of the bytes of the TEXT column `index`; throws for any other storage class, for
    /// bytes that `decode` refuses (nil), and when SQLite ran out of memory making the bytes.
    private static func withTextBytes(of statement: OpaquePointer, at index: Int32,
                                      _ decode: (UnsafeBufferPointer<UInt8>) -> String?) throws -> String {
        switch try withColumnTextBytes(of: statement, at: index, { $0.map(decode) }) {
        case .some(.some(let text)): return text
        case .some(.none):
            throw ColumnConversionError(statement: statement, column: index, expected: "valid UTF-8 text", found: "TEXT that is not UTF-8")
        case .none: throw conversionError(statement, index, expected: "TEXT")
        }
    }
}

extension Data: SQLiteValue {
    /// `.blob(self)`.
    public var databaseValue: DatabaseValue { .blob(self) }
    /// Binds the bytes as a blob for SQLite to copy; empty data is bound as a zero-length blob,
    /// not NULL. Returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        if isEmpty { return sqlite3_bind_zeroblob(statement, index, 0) }
        return withUnsafeBytes { bytes in
            sqlite3_bind_blob64(statement, index, bytes.baseAddress, UInt64(bytes.count), transientDestructor)
        }
    }
    /// Reads a BLOB column (a zero-length blob gives empty data); throws ``ColumnConversionError``
    /// for any other storage class, TEXT included.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Data {
        let value = ColumnValue(statement, index)
        guard value.storageClass == SQLITE_BLOB else { throw conversionError(statement, index, expected: "BLOB") }
        let blob = value.blob
        guard let bytes = blob.bytes else { return Data() }
        return Data(bytes: bytes, count: blob.count)
    }
}

extension Date: SQLiteValue {
    /// `.real` of `timeIntervalSinceReferenceDate`: seconds since 2001-01-01T00:00:00Z, exactly.
    public var databaseValue: DatabaseValue { .real(timeIntervalSinceReferenceDate) }
    /// Binds `timeIntervalSinceReferenceDate` as a REAL, exactly; returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, timeIntervalSinceReferenceDate)
    }
    /// Reads seconds since 2001-01-01T00:00:00Z from a REAL or INTEGER column; throws
    /// ``ColumnConversionError`` for any other storage class.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Date {
        let value = ColumnValue(statement, index)
        switch value.storageClass {
        case SQLITE_FLOAT, SQLITE_INTEGER:
            return Date(timeIntervalSinceReferenceDate: value.double)
        default:
            throw conversionError(statement, index, expected: "REAL (seconds since 2001-01-01)")
        }
    }
}

extension UUID: SQLiteValue {
    /// `.text` of the 36 uppercase characters of `uuidString`.
    public var databaseValue: DatabaseValue { .text(text) }
    /// Binds the 36 uppercase characters of `uuidString` as text, written on the stack (no `String`
    /// made); returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withText { bindText($0, to: statement, at: index) }
    }
    /// Binds the 36 characters with ``Statement/bindText(_:at:)``; returns SQLite's result code.
    public func bind(to statement: Statement, at index: Int32) -> Int32 {
        withText { statement.bindText($0, at: index) }
    }
    /// Calls `body` with the 36 characters, written on the stack.
    private func withText(_ body: (UnsafeBufferPointer<UInt8>) -> Int32) -> Int32 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: UUIDText.length) { buffer in
            UUIDText.write(self, into: buffer)
            return body(UnsafeBufferPointer(buffer))
        }
    }
    /// Parses a TEXT column of exactly 36 characters in the 8-4-4-4-12 form, uppercase, as
    /// ``bind(to:at:)-(OpaquePointer,_)`` writes it; throws ``ColumnConversionError`` for anything
    /// else, a lowercase spelling too (which no lookup by id would find), and `SQLITE_NOMEM` as
    /// `String` reads do.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> UUID {
        guard let uuid = try withColumnTextBytes(of: statement, at: index, { $0.flatMap { UUIDText.parse($0, uppercaseOnly: true) } }) else {
            throw conversionError(statement, index, expected: "an uppercase UUID string")
        }
        return uuid
    }
}

extension Optional: SQLiteValue where Wrapped: SQLiteValue {
    /// The wrapped value's, or `.null` for nil.
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    /// Binds NULL for nil, else the wrapped value; returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .none: sqlite3_bind_null(statement, index)
        case .some(let value): value.bind(to: statement, at: index)
        }
    }
    /// Binds NULL for nil, else the wrapped value as it binds to a ``Statement``; returns SQLite's result code.
    public func bind(to statement: Statement, at index: Int32) -> Int32 {
        switch self {
        case .none: sqlite3_bind_null(statement.handle, index)
        case .some(let value): value.bind(to: statement, at: index)
        }
    }
    /// nil for a NULL column, else the wrapped type's reading, which throws as it does.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> Wrapped? {
        if ColumnValue(statement, index).storageClass == SQLITE_NULL { return nil }
        return try Wrapped.read(from: statement, at: index)
    }
    /// nil for a NULL column, else the wrapped type's reading from `statement`.
    public static func read(from statement: Statement, at index: Int32) throws -> Wrapped? {
        if ColumnValue(statement.handle, index).storageClass == SQLITE_NULL { return nil }
        return try Wrapped.read(from: statement, at: index)
    }
}
