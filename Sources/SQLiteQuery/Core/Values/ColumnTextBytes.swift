import CSQLite

/// Calls `body` with the bytes of the 0-based TEXT column `index` of the row `statement` is on
/// (valid only during the call), or with nil when the column holds another storage class: for a
/// value parsed from text row after row without making a `String` of it.
public func withColumnTextBytes<Result>(of statement: OpaquePointer, at index: Int32,
                                        _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
    let value = ColumnValue(statement, index)
    guard value.storageClass == SQLITE_TEXT else { return try body(nil) }
    return try body(value.textBytes)
}
