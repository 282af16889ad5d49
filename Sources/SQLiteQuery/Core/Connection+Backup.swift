import CSQLite
import Foundation

extension Connection {
    /// How a backup copies pages and waits for locks.
    public struct BackupOptions: Sendable {
        /// Pages copied by each `sqlite3_backup_step`.
        public var pagesPerStep: Int32 = 1_024
        /// How many times in a row a step that finds a database busy or locked is tried again.
        public var busyRetries = 500
        /// The pause before each retry.
        public var retryDelayMicroseconds: UInt32 = 10_000

        /// The defaults: 1,024 pages per step, and up to 500 retries 10 ms apart (about five seconds).
        public init() {}
    }

    /// Copies this connection's database into a new SQLite file at `path` with SQLite's online
    /// backup API, and returns the number of pages copied.
    ///
    /// ```swift
    /// let pages = try connection.backup(to: "/backups/notes.sqlite.partial")
    /// ```
    ///
    /// The copy is one consistent snapshot: it is taken inside one read transaction on this
    /// connection, so with a WAL journal other connections and processes go on writing while it
    /// runs, and the copy holds exactly the commits made before it began (those still in the
    /// `-wal` file included). Pages go `pagesPerStep` at a time; a step that finds a database busy
    /// or locked is retried after a short pause, a bounded number of times. The destination is
    /// written with a rollback journal and `synchronous = FULL`, so when this returns everything is
    /// in the one file at `path`, on disk. On failure the file may hold part of a copy: the caller
    /// writes to a temporary name and removes it. Inside a write transaction of this connection
    /// (a backup called from inside a write of the same database) it throws `SQLITE_MISUSE` at
    /// once: SQLite locks every step out while the connection writes, so the retries would only
    /// wait.
    @discardableResult
    public func backup(to path: String, options: BackupOptions = BackupOptions()) throws -> Int {
        guard sqlite3_txn_state(handle, "main") != SQLITE_TXN_WRITE else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "a backup cannot run inside a write of the same database "
                                                            + "(its changes are not committed yet); back up once the write has returned")
        }
        var destination: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let openCode = sqlite3_open_v2(Self.nameForOpening(path), &destination, flags, Self.vfsName)
        defer { sqlite3_close_v2(destination) }
        guard openCode == SQLITE_OK, let destination else {
            let message = destination.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(openCode))
            throw SQLiteError(code: openCode, message: "\(message): \(path)")
        }
        guard sqlite3_exec(destination, "PRAGMA synchronous = FULL", nil, nil, nil) == SQLITE_OK else {
            throw SQLiteError(reportedBy: destination)
        }
        return try transaction(.deferred) {
            // Reading starts the read transaction that every step then copies from.
            try validateIsDatabase()
            return try copyPages(into: destination, options: options)
        }
    }

    /// Steps a backup from this connection into `destination` until every page is copied.
    private func copyPages(into destination: OpaquePointer, options: BackupOptions) throws -> Int {
        guard let backup = sqlite3_backup_init(destination, "main", handle, "main") else {
            throw SQLiteError(reportedBy: destination)
        }
        var retries = 0
        while true {
            let code = sqlite3_backup_step(backup, max(1, options.pagesPerStep))
            let isBusy = code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED
            if code == SQLITE_OK || (isBusy && retries < options.busyRetries) {
                retries = isBusy ? retries + 1 : 0
                if isBusy { usleep(options.retryDelayMicroseconds) }
                continue
            }
            let pages = Int(sqlite3_backup_pagecount(backup))
            // Finishing releases the backup and sets the destination's error message.
            let finishCode = sqlite3_backup_finish(backup)
            if code == SQLITE_DONE && finishCode == SQLITE_OK { return pages }
            if isBusy {
                throw SQLiteError(code: code, message: "backup gave up: the database stayed locked through "
                                                       + "\(options.busyRetries) retries")
            }
            throw SQLiteError(reportedBy: destination)
        }
    }
}
