import CSQLite
import Foundation

extension Connection {
    /// Throws `SQLITE_READONLY_DBMOVED` when the database file this connection opened has been
    /// deleted since, or its path now names another file or none (moved, replaced, a folder above
    /// it renamed): SQLite's own test (`SQLITE_FCNTL_HAS_MOVED`). A write to a deleted or replaced
    /// file would be lost when the connection closes, and one to a file renamed without its log
    /// would stay in that log, beside the old name; SQLite cannot tell these from a renamed
    /// folder, which is refused too. SQLite refuses such writes itself only with a rollback
    /// journal; with a write-ahead log it writes. Called with the write lock held, so that a
    /// process that removes a file holding no record under that same lock (the `logbook` tool
    /// after a failed command that created it) is seen. Private databases never move.
    func refuseWritingToAMovedFile() throws {
        try refuseIfTheFileMoved(since: "after it was opened (or a folder above it was renamed),",
                                 "so nothing was written: the write could have been lost; open it again")
    }

    /// Refuses (`SQLITE_CANTOPEN`) to write a file that has more than one name (hard links):
    /// SQLite keeps a file's write-ahead log and its shared memory by name, so writers through two
    /// names miss each other's log, and each overwrites the other's changes while both report
    /// success (two processes adding 60 days each through two links kept 80 to 117 of the 120,
    /// every command exiting 0: helper-76). A reader through another name than a writer's writes
    /// nothing, but may miss the writer's latest commits. Only hard links show: a file mounted
    /// under a second name (a single-file bind mount) has one link, and is not refused.
    public func refuseWritingAFileOfSeveralNames() throws {
        var status = stat()
        guard !Self.isPrivateDatabase(path), stat(path, &status) == 0, status.st_nlink > 1 else { return }
        throw SQLiteError(code: SQLITE_CANTOPEN,
                          message: "the file has \(status.st_nlink) names (hard links), and SQLite keeps its write-ahead log by "
                              + "name: writes through two names would overwrite each other's changes; give the file one name "
                              + "(copy it where another is needed), or write through a symbolic link")
    }

    /// Throws `SQLITE_READONLY_DBMOVED` when the database file this connection opened has been
    /// deleted since, or its path names another file or none: for a connection that follows the
    /// file (a change watcher), whose reads would otherwise go on answering from the file it
    /// opened, unchanged for ever, while writers work on the one now at the path.
    public func refuseFollowingAMovedFile() throws {
        try refuseIfTheFileMoved(since: "after it was opened (or a folder above it was renamed),",
                                 "so its changes can no longer be followed; open it again")
    }

    /// Throws `SQLITE_READONLY_DBMOVED` when the file moved while a transaction ran or committed
    /// (after ``refuseWritingToAMovedFile()`` passed as it began): the change is in the file this
    /// connection opened, which the path no longer names (a backup put back with `mv` during an
    /// import), so it must not be reported as written there.
    func refuseReportingAMovedFileAsWritten() throws {
        try refuseIfTheFileMoved(since: "while a write ran:", "the change went to the file that was at the path when it began, "
                                    + "not to the one there now; open it again and check")
    }

    /// Throws `SQLITE_READONLY_DBMOVED`, saying when the file moved and what follows, when it has.
    private func refuseIfTheFileMoved(since when: String, _ consequence: String) throws {
        guard hasFileMoved else { return }
        throw SQLiteError(code: ResultCode.movedFile, message: "the database file was deleted, moved or replaced \(when) \(consequence)")
    }

    /// Whether the file this connection opened was deleted since, or its path names another file
    /// or none (SQLite's `SQLITE_FCNTL_HAS_MOVED`).
    private var hasFileMoved: Bool {
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// When the file this connection opened has moved (``refuseWritingToAMovedFile()``), copies
    /// what its write-ahead log holds into the file and empties the log (`wal_checkpoint(TRUNCATE)`),
    /// before the connection closes. SQLite's close skips its own checkpoint for a moved file and
    /// leaves the log, full, at the old path, where it does not belong to whatever file is there
    /// now: the next connection to open that file would read this one's pages through it (a
    /// backup put back with `mv` came out damaged). Emptied, the log is ignored; and the pages go
    /// to the file this connection opened, wherever it is now (a moved file keeps what was written
    /// to it). Best effort: a checkpoint that cannot run (another connection reading, a read-only
    /// file) leaves the log as SQLite would.
    func emptyTheLogOfAMovedFile() {
        guard hasFileMoved else { return }
        sqlite3_exec(handle, "PRAGMA main.wal_checkpoint(TRUNCATE)", nil, nil, nil)
    }

    /// Makes closing this connection leave the write-ahead log and shared-memory files where they
    /// are (`SQLITE_FCNTL_PERSIST_WAL`), for a connection whose own file is removed while it is
    /// open: by then those paths may name another database's files, which a close would delete.
    public func keepLogFilesAtClose() {
        var keep: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &keep)
    }
}
