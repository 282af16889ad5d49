import CSQLite

/// Calls `body` with the bytes of the 0-based TEXT column `index` of the row `statement` is on
/// (valid only during the call), or with nil when the column holds another storage class: for a
/// value parsed from text row after row without making a `String` of it. Throws an
/// ``SQLiteError`` with `SQLITE_NOMEM` when SQLite ran out of memory making the bytes (never
/// empty text in their place), and what `body` throws.
public func withColumnTextBytes<Result>(of statement: OpaquePointer, at index: Int32,
                                        _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) throws -> Result {
    let value = ColumnValue(statement, index)
    guard value.storageClass == SQLITE_TEXT else { return try body(nil) }
    guard let bytes = value.textBytes else {
        throw SQLiteError(code: SQLITE_NOMEM, message: "out of memory reading \(columnName(of: statement, at: index)) as text",
                          sql: sqlite3_sql(statement).map { String(cString: $0) })
    }
    return try body(bytes)
}
