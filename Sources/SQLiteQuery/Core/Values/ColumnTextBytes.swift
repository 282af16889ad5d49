import CSQLite

/// Calls `body` with the bytes of the 0-based TEXT column `index` of the row `statement` is on
/// (valid only during the call), or with nil when the column holds another storage class: for a
/// value parsed from text row after row without making a `String` of it.
public func withColumnTextBytes<Result>(of statement: OpaquePointer, at index: Int32,
                                        _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
    guard sqlite3_column_type(statement, index) == SQLITE_TEXT else { return try body(nil) }
    // sqlite3_column_text before sqlite3_column_bytes: the order in which the byte count is the text's.
    let text = sqlite3_column_text(statement, index)
    return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))))
}
