import Foundation
import SQLiteQuery

/// Why SQLite could not write a database, told from its file, its folder and its side files as
/// they are now: a message names the one to change, where "read-only" alone sent a user to a file
/// and folder that could be written.
enum ReadOnlyCause {
    /// The reason the database at `path` cannot be written (or, for a write another program left
    /// unfinished, read): a side file that cannot be written, a write to roll back or recover, or
    /// else the file or its folder.
    static func describe(_ path: String) -> String {
        let (shm, wal, journal) = (path + "-shm", path + "-wal", path + "-journal")
        let generic = "the file or its folder is read-only"
        if let side = sideFileThatIsNoFile(path) {
            return "\(side) is not a file, where SQLite keeps one of the database's side files"
        }
        if isOnReadOnlyFileSystem(path) {
            return "it is on a file system mounted read-only, where SQLite cannot create the -wal and -shm files that a database "
                + "in write-ahead-log mode needs beside it, to read it too: copy it to a place that can be written"
        }
        if isUnrecoverableLog(path) {
            return "its folder is read-only, and \(wal) holds writes a stopped program left, which SQLite recovers through \(shm), "
                + "which it cannot create there: open it once where the folder can be written"
        }
        if access(path, W_OK) != 0 {
            guard hasContent(journal) else { return generic }
            return "the file is read-only, and \(journal) holds a write a stopped program left unfinished, which must be rolled back "
                + "before the file can be read: open it once where it can be written"
        }
        if exists(shm) && access(shm, W_OK) != 0 {
            return "its shared-memory file \(shm) cannot be written (SQLite writes it to read the file, too)"
        }
        return generic
    }

    /// Whether `path`'s write-ahead log holds writes and its shared-memory file, which SQLite needs
    /// to recover them, is missing in a folder where it cannot be made: SQLite then fails to open
    /// the file ("unable to open database file") though it is there.
    static func isUnrecoverableLog(_ path: String) -> Bool {
        hasContent(path + "-wal") && !exists(path + "-shm") && access(PathParts(path).openableFolder, W_OK) != 0
    }

    /// The `-wal`, `-shm` or `-journal` beside `path` that is there but is no regular file (a
    /// folder, say), which SQLite cannot open as its side file: it then says "read-only", "unable
    /// to open database file" or "disk I/O error", naming none (helper-65, helper-67).
    static func sideFileThatIsNoFile(_ path: String) -> String? {
        ["-wal", "-shm", "-journal"].map { path + $0 }.first { side in
            var status = stat()
            return stat(side, &status) == 0 && status.st_mode & S_IFMT != S_IFREG
        }
    }

    /// Whether the folder of `path` is on a file system mounted read-only (`statvfs`'s `ST_RDONLY`).
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var status = statvfs()
        return statvfs(PathParts(path).openableFolder, &status) == 0 && status.f_flag & UInt(ST_RDONLY) != 0
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    private static func hasContent(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_size > 0
    }
}
