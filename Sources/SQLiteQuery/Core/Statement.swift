import CSQLite

/// A prepared SQL statement: bind parameters, step through rows, read typed columns.
///
/// ```swift
/// let statement = try connection.cachedStatement("SELECT name FROM exercises WHERE day_pk = ?")
/// try statement.bind(dayKey, at: 1)
/// while try statement.step() {
///     names.append(try statement.column(0, as: String.self))
/// }
/// ```
///
/// A statement belongs to the connection that prepared it and is used from one thread at a time.
public final class Statement {
    /// The `sqlite3_stmt` handle, for code that needs the C API directly.
    public let handle: OpaquePointer
    /// The SQL text the statement was prepared from, exactly as given.
    public let sql: String
    private let database: OpaquePointer
    /// Where ``bindText(_:at:)`` keeps the text bound to each parameter.
    private let textBuffers: ParameterTextBuffers
    /// The short texts read last (``SQLiteValue/read(from:at:)-(Statement,_)``).
    let recentTexts = RecentTexts()

    init(database: OpaquePointer, sql: String) throws {
        var handle: OpaquePointer?
        var hasMoreSQL = false
        // The tail points into the C string, which lives only inside this closure.
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(database, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, &tail)
            if code == SQLITE_OK, handle != nil, let tail, tail.pointee != 0 {
                // What follows the statement is allowed only if it is whitespace, comments and semicolons,
                // which SQLite prepares to no statement at all.
                var next: OpaquePointer?
                hasMoreSQL = sqlite3_prepare_v3(database, tail, -1, 0, &next, nil) != SQLITE_OK || next != nil
                sqlite3_finalize(next)
            }
            return code
        }
        guard code == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            if code == SQLITE_OK {
                throw SQLiteError(code: SQLITE_MISUSE, message: SQLiteError.noStatementMessage, sql: sql)
            }
            throw SQLiteError(reportedBy: database, sql: sql)
        }
        if hasMoreSQL {
            sqlite3_finalize(handle)
            throw SQLiteError(code: SQLITE_MISUSE, message: SQLiteError.severalStatementsMessage, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.database = database
        textBuffers = ParameterTextBuffers(parameterCount: Int(sqlite3_bind_parameter_count(handle)))
    }

    // The text buffers, a stored property, are freed after this: once SQLite no longer reads them.
    deinit { sqlite3_finalize(handle) }

    // MARK: Binding

    /// Binds `value` to the 1-based parameter `index`.
    public func bind(_ value: some SQLiteValue, at index: Int) throws {
        try check(value.bind(to: self, at: Int32(index)))
    }

    /// Binds `value` to the parameter called `name`, written with its prefix (`:day`, `@day`, `$day`).
    public func bind(_ value: some SQLiteValue, named name: String) throws {
        let index = sqlite3_bind_parameter_index(handle, name)
        guard index > 0 else {
            throw SQLiteError(code: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
        }
        try check(value.bind(to: self, at: index))
    }

    /// Binds `bytes`, UTF-8 text, to the 1-based parameter `index`, copied into a buffer that this
    /// statement keeps for the parameter and SQLite reads in place, which spares SQLite allocating
    /// a copy of its own on every bind: how `String`, `UUID` and other text values bind through
    /// ``SQLiteValue/bind(to:at:)-(Statement,_)``. Empty bytes bind as empty text, not NULL.
    /// Returns SQLite's result code.
    public func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        guard let buffer = textBuffers.spareBuffer(forParameter: index, count: bytes.count) else {
            return SQLiteQuery.bindText(bytes, to: handle, at: index)
        }
        if let base = bytes.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) }
        // A nil destructor is SQLITE_STATIC: SQLite reads the bytes where they are.
        let code = sqlite3_bind_text64(handle, index, buffer.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), nil,
                                       UInt8(SQLITE_UTF8))
        if code == SQLITE_OK { textBuffers.didBind(parameter: index) }
        return code
    }

    /// Binds `values` to parameters 1, 2, … in order: one value for each parameter, so that a cached
    /// statement never runs with a value left from its previous use. Throws `SQLITE_RANGE` otherwise.
    public func bind(_ values: [DatabaseValue]) throws {
        guard values.count == parameterCount else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(values.count) values for \(parameterCount) parameters", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// The number of parameters: the largest parameter index, which exceeds the number of distinct
    /// parameters when `?NNN` leaves gaps.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The name of the 1-based parameter `index` with its prefix, or nil for a `?` parameter.
    public func parameterName(at index: Int) -> String? {
        sqlite3_bind_parameter_name(handle, Int32(index)).map { String(cString: $0) }
    }

    // MARK: Stepping

    /// Advances to the next row. Returns true when a row is available, false when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = currentError()
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring any rows, then resets it.
    public func execute() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Rewinds the statement so it can run again. Bindings are kept.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Rewinds the statement and sets every parameter back to NULL.
    public func resetAndClearBindings() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Whether the statement leaves the database unchanged (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    // MARK: Columns

    /// The number of columns in each result row; 0 for a statement that returns no rows.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of the 0-based result column `index`: its `AS` alias, else a name SQLite chooses;
    /// empty when `index` is out of range.
    public func columnName(at index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// Reads the 0-based column `index` of the current row.
    @inline(__always)
    public func column<Value: SQLiteValue>(_ index: Int, as type: Value.Type = Value.self) throws -> Value {
        try Value.read(from: self, at: Int32(index))
    }

    /// Whether the 0-based column `index` of the current row is NULL.
    public func isNull(at index: Int) -> Bool {
        ColumnValue(handle, Int32(index)).storageClass == SQLITE_NULL
    }

    // MARK: Errors

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw currentError() }
    }

    private func currentError() -> SQLiteError {
        SQLiteError(reportedBy: database, sql: sql)
    }
}
