import CSQLite

/// The value in one result column of the row a statement is on, as SQLite holds it
/// (`sqlite3_column_value`), asked through the `sqlite3_value_*` functions: the column is found
/// once, where each `sqlite3_column_*` call finds it again and enters and leaves the connection's
/// API guard (about 50 instructions a call under `callgrind`; reading a text took three).
///
/// SQLite calls the value unprotected: safe here because a connection is used by one thread at a
/// time (Logbook's connections are opened with `SQLITE_OPEN_NOMUTEX` and handed to one user at a
/// time; a serialized connection shared by threads at once would need its mutex held around these
/// calls, which the `sqlite3_column_*` functions take). Valid until the statement steps, resets or is
/// finalized; converting it (asking an INTEGER for its text) changes it as `sqlite3_column_text`
/// changes the column.
struct ColumnValue {
    private let handle: OpaquePointer

    /// The 0-based column `index` of `statement`'s current row (NULL past the last column).
    @inline(__always)
    init(_ statement: OpaquePointer, _ index: Int32) {
        handle = sqlite3_column_value(statement, index)
    }

    /// `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB` or `SQLITE_NULL`.
    @inline(__always)
    var storageClass: Int32 { sqlite3_value_type(handle) }

    @inline(__always)
    var int64: Int64 { sqlite3_value_int64(handle) }

    @inline(__always)
    var double: Double { sqlite3_value_double(handle) }

    /// The value as UTF-8 text, its bytes (the pointer asked for before the count, the order in
    /// which the count is the text's); nil when SQLite could not make them: it hands back a pointer
    /// for every text, empty text included, and none only when it ran out of memory converting the
    /// text (a UTF-16 file's) to UTF-8.
    @inline(__always)
    var textBytes: UnsafeBufferPointer<UInt8>? {
        guard let text = sqlite3_value_text(handle) else { return nil }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(handle)))
    }

    /// The value as a blob: its bytes' address (nil for an empty one) and count.
    @inline(__always)
    var blob: (bytes: UnsafeRawPointer?, count: Int) {
        let bytes = sqlite3_value_blob(handle)
        return (bytes, bytes == nil ? 0 : Int(sqlite3_value_bytes(handle)))
    }
}
