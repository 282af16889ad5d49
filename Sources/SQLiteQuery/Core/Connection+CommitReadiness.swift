import CSQLite
import Foundation

extension Connection {
    /// Inside a write transaction, meets now what would otherwise refuse its commit, so that a
    /// caller can act on the write (print the id of what it created) with only the commit's last
    /// write left:
    ///
    /// - a deferred foreign key still broken (another program's `DEFERRABLE INITIALLY DEFERRED`
    ///   reference) throws `SQLITE_CONSTRAINT_FOREIGNKEY`, as the commit would;
    /// - the transaction's changed pages are written to the write-ahead log (or, with a rollback
    ///   journal, to the file), where a full disk refuses them now (`sqlite3_db_cacheflush`; a
    ///   page in use, page 1 among them, stays for the commit);
    /// - in write-ahead logging, room for the frame the commit still appends (a page and its
    ///   header; no padding, at `synchronous = NORMAL`) is taken now, through SQLite's own size
    ///   hint on the log file, from the log's end: after a checkpoint restarted the log, whose
    ///   file keeps its length, that is a frame more than the commit needs, so such a log grows
    ///   by a frame a call until its frames reach its end. A log longer than its frames is one
    ///   SQLite makes itself, and reads no further than its last valid frame. The room is taken
    ///   by writing into each block, which reserves it on a file system that overwrites in place,
    ///   not on one that copies on write (Btrfs, ZFS, APFS).
    public func prepareToCommit() throws {
        var deferred: Int32 = 0, highest: Int32 = 0
        try throwUnlessOK(sqlite3_db_status(handle, SQLITE_DBSTATUS_DEFERRED_FKS, &deferred, &highest, 0))
        guard deferred == 0 else {
            throw SQLiteError(code: ResultCode.foreignKeyConstraint, message: "FOREIGN KEY constraint failed")
        }
        try throwUnlessOK(sqlite3_db_cacheflush(handle))
        var log: UnsafeMutablePointer<sqlite3_file>?
        guard try scalar("PRAGMA journal_mode", as: String.self)?.lowercased() == "wal",
              sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) == SQLITE_OK,
              let log, let methods = log.pointee.pMethods, let fileSize = methods.pointee.xFileSize,
              let control = methods.pointee.xFileControl else { return }
        var size: sqlite3_int64 = 0
        try throwUnlessOK(fileSize(log, &size))
        let frameHeaderBytes = 24
        var wanted = size + sqlite3_int64(frameHeaderBytes + (try scalar("PRAGMA page_size", as: Int.self) ?? 4_096))
        // The size hint allocates only for a file with a chunk size: one byte, for exactly that
        // size. Nothing else sets one on the log, so none is put back after.
        var chunk: Int32 = 1
        try throwUnlessOK(control(log, SQLITE_FCNTL_CHUNK_SIZE, &chunk))
        errno = 0
        let hinted = control(log, SQLITE_FCNTL_SIZE_HINT, &wanted)
        let allocationError = errno
        chunk = 0
        _ = control(log, SQLITE_FCNTL_CHUNK_SIZE, &chunk)
        guard hinted == SQLITE_OK else {
            // SQLite keeps the system's error of a write on the file (`SQLITE_FCNTL_LAST_ERRNO`);
            // `posix_fallocate`, where SQLite is built to use it, leaves it in errno.
            var lastError: Int32 = 0
            _ = control(log, SQLITE_FCNTL_LAST_ERRNO, &lastError)
            let reason = lastError != 0 ? lastError : allocationError
            let code = reason == ENOSPC || reason == EDQUOT ? SQLITE_FULL : hinted
            throw SQLiteError(code: code, message: String(cString: sqlite3_errstr(code)) + (reason == 0 ? "" : ": " + String(cString: strerror(reason))))
        }
    }

    /// Throws SQLite's words for `code` unless it is `SQLITE_OK`, for a call that returns its
    /// result without recording it on the connection.
    private func throwUnlessOK(_ code: Int32) throws {
        guard code != SQLITE_OK else { return }
        throw SQLiteError(code: code, message: String(cString: sqlite3_errstr(code)))
    }
}
