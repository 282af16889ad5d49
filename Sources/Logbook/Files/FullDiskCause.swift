import Foundation
import SQLiteQuery

/// Which disk was full when SQLite said "database or disk is full": SQLite writes its temporary
/// files (an import's counts of records without ids, the sorts of a large statement, statement
/// journals) to a folder of its own, and when that folder is on another disk than the database,
/// "disk is full" sent a user to the wrong one.
enum FullDiskCause {
    /// The room a disk that filled can have left: less than the next write needed, a few pages.
    /// A database's disk with more than this free was not the full one.
    static let roomOfAFullDisk: UInt64 = 4 << 20

    /// What to add to SQLite's "database or disk is full" for the database at `path` (empty for
    /// SQLite's temporary database): the folder of SQLite's temporary files, what chose it and the
    /// room on both disks, when that folder is most likely the full one: it holds the temporary
    /// database, or it is on another disk than the database's real file (symbolic links followed,
    /// as SQLite follows them) while that disk has clear room (more than ``roomOfAFullDisk``) and
    /// more than the temporary folder's. Nil otherwise: the message then names the right disk.
    /// Both disks' room is read after the failed write gave back what it held (a sort's files, a
    /// statement journal's, a rolled-back journal's and the file's growth; a temporary table's
    /// only as the connection closes), so the disk with less room left is the likelier full one:
    /// a migration that filled the database's disk of 200 MiB and gave back 157 MiB was blamed
    /// on a temporary folder with 57 GiB free (helper-85).
    static func temporaryFolderNote(_ path: String) -> String? {
        guard path != ":memory:", let temporary = temporaryFolder, let temporaryDisk = disk(of: temporary.path) else { return nil }
        let room = describe(bytes: temporaryDisk.freeBytes)
        guard !path.isEmpty else {
            return "SQLite keeps its temporary database in \(temporary.path) (\(temporary.source)), with \(room) free there now: "
                + "set SQLITE_TMPDIR to a folder with room"
        }
        guard let databaseDisk = disk(of: PathParts(DatabaseFiles.resolvedPath(path)).openableFolder),
              databaseDisk.device != temporaryDisk.device, databaseDisk.freeBytes > roomOfAFullDisk,
              temporaryDisk.freeBytes < databaseDisk.freeBytes else { return nil }
        return "the database's disk has \(describe(bytes: databaseDisk.freeBytes)) free, and SQLite writes its temporary files "
            + "to \(temporary.path) (\(temporary.source)), another disk, with \(room) free there now: "
            + "set SQLITE_TMPDIR to a folder with room"
    }

    /// The folder SQLite's Unix build writes temporary files to, and what chose it: the first of
    /// `SQLITE_TMPDIR`, `TMPDIR`, `/var/tmp`, `/usr/tmp`, `/tmp` and `.` that is a folder this
    /// process may write and enter (SQLite's `unixTempFileDir`). SQLite reads the variables once,
    /// as it starts, and takes `sqlite3_temp_directory` first when a program sets it (this does
    /// not see it); the `logbook` tool sets none of them.
    static var temporaryFolder: (path: String, source: String)? {
        let environment = ProcessInfo.processInfo.environment
        let candidates: [(path: String?, source: String)] = [
            (environment["SQLITE_TMPDIR"], "from SQLITE_TMPDIR"), (environment["TMPDIR"], "from TMPDIR"),
            ("/var/tmp", "SQLite's first choice without SQLITE_TMPDIR or TMPDIR"), ("/usr/tmp", "SQLite's choice"),
            ("/tmp", "SQLite's choice"), (".", "the working folder, SQLite's last choice"),
        ]
        return candidates.lazy.compactMap { candidate in
            guard let path = candidate.path, !path.isEmpty else { return nil }
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, access(path, W_OK | X_OK) == 0 else { return nil }
            return (path, candidate.source)
        }.first
    }

    /// The device a folder is on and the bytes this process may still write there.
    private static func disk(of folder: String) -> (device: dev_t, freeBytes: UInt64)? {
        var status = stat()
        var room = statvfs()
        guard stat(folder, &status) == 0, statvfs(folder, &room) == 0 else { return nil }
        return (status.st_dev, UInt64(room.f_bavail) * UInt64(room.f_frsize))
    }

    /// `bytes` in the largest binary unit that keeps a whole number before the point (`1.9 MiB`).
    private static func describe(bytes: UInt64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f", value) + " " + units[unit]
    }
}
