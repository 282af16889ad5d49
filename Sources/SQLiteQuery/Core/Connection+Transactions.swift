import CSQLite

/// How a transaction takes its locks (SQLite's `BEGIN DEFERRED|IMMEDIATE|EXCLUSIVE`).
public enum TransactionKind: String, Sendable {
    /// Takes locks when first needed: for reads that must see one consistent snapshot.
    case deferred = "DEFERRED"
    /// Takes the write lock at once, so a writer waits on the busy timeout at `BEGIN` and never
    /// fails with `SQLITE_BUSY` half-way through: the kind every write uses.
    case immediate = "IMMEDIATE"
    /// Takes an exclusive lock at once. With a WAL journal it is the same as `IMMEDIATE`; with a
    /// rollback journal it also keeps other connections from reading until it ends.
    case exclusive = "EXCLUSIVE"

    /// The `BEGIN` statement of this kind, a literal, so that no string is built for each
    /// transaction (the statement cache finds such short text by its bytes).
    var beginSQL: String {
        switch self {
        case .deferred: "BEGIN DEFERRED"
        case .immediate: "BEGIN IMMEDIATE"
        case .exclusive: "BEGIN EXCLUSIVE"
        }
    }
}

extension Connection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Called inside another transaction, it runs `body` in a savepoint instead, so nested work
    /// can fail and roll back alone while the outer transaction goes on.
    ///
    /// A write transaction (`.immediate` or `.exclusive`) on a file deleted, moved or replaced
    /// since the connection opened it throws `SQLITE_READONLY_DBMOVED` before `body` runs; one
    /// whose file is moved while it runs throws it once committed, the change being in the file
    /// the connection opened rather than in the one at the path.
    public func transaction<Result>(_ kind: TransactionKind = .immediate,
                                    _ body: () throws -> Result) throws -> Result {
        if !isAutocommit { return try savepoint(body) }
        let changesBefore = totalChanges
        try cachedStatement(kind.beginSQL).execute()
        let result: Result
        do {
            if kind != .deferred { try refuseWritingToAMovedFile() }
            result = try body()
        } catch {
            rollbackIfOpen()
            throw error
        }
        // A transaction SQLite ended on its own (a failed savepoint rollback swallowed by `body`)
        // is not committed statement by statement: it failed.
        guard !isAutocommit else {
            throw SQLiteError(code: SQLITE_ABORT, message: "the transaction was rolled back before it could commit")
        }
        do {
            try cachedStatement("COMMIT").execute()
            if totalChanges != changesBefore { hasCommittedChanges = true }
        } catch {
            rollbackIfOpen()
            throw error
        }
        // Again once committed: a file moved while `body` ran or the commit was written (a backup
        // put back with `mv` during an import) holds the change no longer at its path, so the
        // caller must not take it as written there. (The log this commit went to, at the path,
        // is emptied into this connection's own file as it closes: emptyTheLogOfAMovedFile.)
        if kind != .deferred { try refuseReportingAMovedFileAsWritten() }
        return result
    }

    /// Runs `body` inside a savepoint, released when it returns and rolled back when it throws.
    /// When SQLite has already rolled the whole transaction back (a full disk), it throws SQLite's
    /// error, and the transaction around it cannot commit.
    public func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
        let name = "logbook_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        do {
            let result = try body()
            try execute("RELEASE \(name)")
            return result
        } catch {
            // SQLite may have rolled the whole transaction back already, savepoints and all (after
            // SQLITE_FULL, SQLITE_NOMEM or SQLITE_IOERR in a statement with no statement journal):
            // SQLite's error is then the one to report, not the savepoint that went with it; any
            // other error is reported as the rollback it met. The outer transaction cannot commit.
            if isAutocommit {
                throw error as? SQLiteError
                    ?? SQLiteError(code: SQLITE_ABORT, message: "the transaction ended inside a savepoint (\(error))")
            }
            try execute("ROLLBACK TO \(name); RELEASE \(name)")
            throw error
        }
    }

    private func rollbackIfOpen() {
        // SQLite may already have rolled back on its own (for example after SQLITE_FULL).
        if !isAutocommit { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }
}
