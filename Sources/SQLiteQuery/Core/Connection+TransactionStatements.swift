import CSQLite

extension Connection {
    /// Runs `body` with statements that begin, end or name a transaction (`BEGIN`, `COMMIT`,
    /// `ROLLBACK`, `SAVEPOINT`, `RELEASE`) refused when prepared: for SQL that must run inside the
    /// transaction around it, such as a migration's, where a `COMMIT` would commit half of it.
    /// `source` names that SQL in the error.
    func refusingTransactionStatements<Result>(in source: String, _ body: () throws -> Result) throws -> Result {
        sqlite3_set_authorizer(handle, { _, action, _, _, _, _ in
            action == SQLITE_TRANSACTION || action == SQLITE_SAVEPOINT ? SQLITE_DENY : SQLITE_OK
        }, nil)
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        do {
            return try body()
        } catch let error as SQLiteError where error.primaryCode == SQLITE_AUTH {
            throw SQLiteError(code: error.code, message: "\(source) begins or ends a transaction (BEGIN, COMMIT, ROLLBACK, SAVEPOINT "
                              + "or RELEASE), which it may not: it runs inside one, and commits whole or not at all")
        }
    }
}
