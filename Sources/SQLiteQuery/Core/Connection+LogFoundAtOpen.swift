import Foundation
import CSQLite

/// The write-ahead log a connection found beside its file when it opened, holding more than its
/// header: pages another connection committed (or a process killed before it folded them in)
/// that are not yet in the database file itself. Identified by the log file's device, inode, size
/// and modification time, so that a later write to it, by any connection, tells.
struct LogFoundAtOpen: Equatable {
    private let device: dev_t
    private let inode: ino_t
    private let size: off_t
    private let modified: timespec

    /// The log beside the database at `path` as it is now; nil when there is none, or it holds
    /// no more than the 32-byte header a log starts with (nothing to fold in).
    init?(besideDatabaseAt path: String) {
        guard !Connection.isPrivateDatabase(path) else { return nil }
        // SQLite keeps the log beside the file a symbolic link leads to.
        let file = realpath(path, nil).map { resolved in defer { free(resolved) }; return String(cString: resolved) } ?? path
        var status = stat()
        guard stat(file + "-wal", &status) == 0, status.st_size > 32 else { return nil }
        device = status.st_dev
        inode = status.st_ino
        size = status.st_size
        modified = status.st_mtim
    }

    static func == (left: LogFoundAtOpen, right: LogFoundAtOpen) -> Bool {
        left.device == right.device && left.inode == right.inode && left.size == right.size
            && left.modified.tv_sec == right.modified.tv_sec && left.modified.tv_nsec == right.modified.tv_nsec
    }
}

extension Connection {
    /// Keeps closing this connection from folding the log it found at open into the database
    /// file, when it committed no change and the log is still as it found it: SQLite's last
    /// connection to close checkpoints the log and deletes it, which rewrites the file's bytes
    /// (its content stays the same). So a command that only reads, or refuses a file that is not
    /// its own (another program's database left with a full log), leaves the file and its log
    /// byte for byte as they were (helper-44: every command rewrote such a file); a connection
    /// that wrote, or that finds the log written since, closes as SQLite would.
    func keepTheLogFoundAtOpenIfUnwritten() {
        guard let logFoundAtOpen, !hasCommittedChanges, LogFoundAtOpen(besideDatabaseAt: path) == logFoundAtOpen else { return }
        _ = logbook_sqlite3_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
    }
}
