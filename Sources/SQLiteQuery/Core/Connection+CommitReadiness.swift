import CSQLite
import Foundation

extension Connection {
    /// Inside a write transaction, meets now what would otherwise refuse its commit, so that a
    /// caller can act on the write (print the id of what it created) with only the commit's sync
    /// left to fail:
    ///
    /// - a deferred foreign key still broken (another program's `DEFERRABLE INITIALLY DEFERRED`
    ///   reference) throws `SQLITE_CONSTRAINT_FOREIGNKEY`, as the commit would;
    /// - the transaction's changed pages are written to the write-ahead log (or, with a rollback
    ///   journal, to the file), where a full disk refuses them now (`sqlite3_db_cacheflush`);
    /// - in write-ahead logging, room for the one frame the commit still appends (a page and its
    ///   header) is taken in the log now (SQLite's own size hint on the log file): a log longer
    ///   than its frames is one SQLite makes itself, and reads no further than its last valid frame.
    public func prepareToCommit() throws {
        var deferred: Int32 = 0, highest: Int32 = 0
        guard sqlite3_db_status(handle, SQLITE_DBSTATUS_DEFERRED_FKS, &deferred, &highest, 0) == SQLITE_OK, deferred == 0 else {
            throw SQLiteError(code: ResultCode.foreignKeyConstraint, message: "FOREIGN KEY constraint failed")
        }
        try check(sqlite3_db_cacheflush(handle))
        var log: UnsafeMutablePointer<sqlite3_file>?
        guard try scalar("PRAGMA journal_mode", as: String.self)?.lowercased() == "wal",
              sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) == SQLITE_OK,
              let log, let methods = log.pointee.pMethods, let fileSize = methods.pointee.xFileSize,
              let control = methods.pointee.xFileControl else { return }
        var size: sqlite3_int64 = 0
        try check(fileSize(log, &size))
        let frameHeaderBytes = 24
        var wanted = size + sqlite3_int64(frameHeaderBytes + (try scalar("PRAGMA page_size", as: Int.self) ?? 4_096))
        // The size hint allocates only for a file with a chunk size: one byte, for exactly that size.
        var chunk: Int32 = 1
        try check(control(log, SQLITE_FCNTL_CHUNK_SIZE, &chunk))
        errno = 0
        let hinted = control(log, SQLITE_FCNTL_SIZE_HINT, &wanted)
        let reason = errno
        chunk = 0
        _ = control(log, SQLITE_FCNTL_CHUNK_SIZE, &chunk)
        guard hinted == SQLITE_OK else {
            // SQLite keeps no system error for this call; the allocation's own is in errno.
            let isFull = reason == ENOSPC || reason == EDQUOT
            throw SQLiteError(code: isFull ? SQLITE_FULL : hinted,
                              message: String(cString: sqlite3_errstr(isFull ? SQLITE_FULL : hinted))
                                + (reason == 0 ? "" : ": " + String(cString: strerror(reason))))
        }
    }

    /// Throws for a result code other than `SQLITE_OK` from a call that does not record its error
    /// on the connection: SQLite's words for the code, with the system's for a full disk.
    private func check(_ code: Int32) throws {
        guard code != SQLITE_OK else { return }
        var message = String(cString: sqlite3_errstr(code))
        if [SQLITE_IOERR, SQLITE_FULL].contains(code & 0xFF), let reason = SQLiteError.systemReason(reportedBy: handle) {
            message += ": " + reason
        }
        throw SQLiteError(code: code, message: message)
    }
}
