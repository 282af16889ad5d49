import Foundation
import CSQLite

/// The write-ahead log a connection found beside its file when it opened, holding more than its
/// header: pages another connection committed (or a process killed before it folded them in)
/// that are not yet in the database file itself. Identified by the log file's device, inode and
/// size and its 32-byte header, so that a later commit to it, by any connection, tells: a commit
/// either appends frames (the size grows) or starts the log over (new salts in the header).
struct LogFoundAtOpen: Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let header: [UInt8]

    /// The log beside the database at `path` as it is now; nil when there is none, or it holds
    /// no more than the 32-byte header a log starts with (nothing to fold in).
    init?(besideDatabaseAt path: String) {
        guard !Connection.isPrivateDatabase(path) else { return nil }
        // SQLite keeps the log beside the file a symbolic link leads to.
        let file = realpath(path, nil).map { resolved in defer { free(resolved) }; return String(cString: resolved) } ?? path
        let descriptor = open(file + "-wal", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        var header = [UInt8](repeating: 0, count: 32)
        guard fstat(descriptor, &status) == 0, status.st_size > 32,
              pread(descriptor, &header, header.count, 0) == header.count else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        self.header = header
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
    ///
    /// Call it before closing, once the cached statements are finalized. A change of the option
    /// expires every prepared statement, which then prepares itself again on its next step; a
    /// statement that outlives its connection (closed as a zombie) cannot, and fails as a misuse
    /// (found by `CrashSafetyTests`), so with a statement still open the close is left as SQLite's.
    func keepTheLogFoundAtOpenIfUnwritten() {
        guard let logFoundAtOpen, !hasCommittedChanges, sqlite3_next_stmt(handle, nil) == nil,
              LogFoundAtOpen(besideDatabaseAt: path) == logFoundAtOpen else { return }
        _ = logbook_sqlite3_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
    }
}
