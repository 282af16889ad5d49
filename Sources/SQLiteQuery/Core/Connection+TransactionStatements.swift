import CSQLite

extension Connection {
    /// Runs `body` with statements that begin, end or name a transaction (`BEGIN`, `COMMIT`,
    /// `ROLLBACK`, `SAVEPOINT`, `RELEASE`) refused when prepared: for SQL that must run inside the
    /// transaction around it, such as a migration's, where a `COMMIT` would commit half of it.
    /// `source` names that SQL in the error. `noteCreated` is given the name of each table, index,
    /// view and trigger a statement creates, as SQLite tells objects apart (``SchemaObject/nameKey(_:isTrigger:)``).
    func refusingTransactionStatements<Result>(in source: String, noteCreated: ((String) -> Void)? = nil,
                                               _ body: () throws -> Result) throws -> Result {
        let observer = CreationObserver(noteCreated)
        sqlite3_set_authorizer(handle, { context, action, first, _, _, _ in
            if action == SQLITE_TRANSACTION || action == SQLITE_SAVEPOINT { return SQLITE_DENY }
            if [SQLITE_CREATE_TABLE, SQLITE_CREATE_INDEX, SQLITE_CREATE_VIEW, SQLITE_CREATE_TRIGGER].contains(action),
               let context, let first {
                Unmanaged<CreationObserver>.fromOpaque(context).takeUnretainedValue()
                    .note?(SchemaObject.nameKey(String(cString: first), isTrigger: action == SQLITE_CREATE_TRIGGER))
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(observer).toOpaque())
        defer {
            sqlite3_set_authorizer(handle, nil, nil)
            withExtendedLifetime(observer) {}
        }
        do {
            return try body()
        } catch let error as SQLiteError where error.primaryCode == SQLITE_AUTH {
            throw SQLiteError(code: error.code, message: "\(source) begins or ends a transaction (BEGIN, COMMIT, ROLLBACK, SAVEPOINT "
                              + "or RELEASE), which it may not: it runs inside one, and commits whole or not at all")
        }
    }
}

/// What ``Connection/refusingTransactionStatements(in:noteCreated:_:)``'s authorizer calls.
private final class CreationObserver {
    let note: ((String) -> Void)?
    init(_ note: ((String) -> Void)?) { self.note = note }
}
