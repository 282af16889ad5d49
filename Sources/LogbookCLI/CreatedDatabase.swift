import Foundation
import Logbook
import SQLiteQuery

/// The database file, and the folders for it, that one run of a command created (with `O_EXCL`,
/// so that of two runs that start on a missing file only the one that made it owns it). When the
/// command fails, they are removed again while the file holds no record, so that a failed command
/// into a new `--db` leaves nothing behind, as it leaves an existing database unchanged.
///
/// A file that another process wrote a row into meanwhile (a record, or a row of a table of its
/// own) stays, and so does one that cannot be read (nothing is removed that might hold
/// something), and any file at the path other than the one this run made.
final class CreatedDatabase {
    private var path: String?
    /// The device and inode of the file this run made: only that file is removed.
    private var identity: (device: dev_t, inode: ino_t)?
    /// The folders created for the file, the deepest first.
    private var folders: [String] = []

    /// Creates the empty file for the database at `path` (a dangling link's target), and the
    /// folders missing above it, exclusively (`O_EXCL`): true when this run made it, which is
    /// then its own to remove; false when another process made it first, or it cannot be made
    /// (the open that follows says why). SQLite takes an empty file for a new database.
    func create(_ path: String) -> Bool {
        // What SQLite creates: the file a chain of symbolic links ends at (a dangling link's target).
        let file = (try? SymbolicLink.finalTarget(of: path)) ?? path
        let folder = PathParts(file).folder
        var made: [String] = []
        if !folder.isEmpty {
            guard let folders = try? Folders.create(folder) else { return false }
            made = folders
        }
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            Folders.remove(made)
            return false
        }
        var status = stat()
        let known = fstat(descriptor, &status) == 0
        close(descriptor)
        guard known else { return false }
        self.path = file
        identity = (status.st_dev, status.st_ino)
        folders = made
        return true
    }

    /// Removes the file created (with SQLite's `-wal`, `-shm` and `-journal` files beside it) and
    /// the folders made for it, each only if empty, unless the file holds data or another
    /// connection has it open; call it once the command has failed and closed the file.
    ///
    /// The file is read and removed under its write lock, so a process that opens it meanwhile
    /// either wrote first (the file holds its data and stays) or writes after, and then finds the
    /// file gone: Logbook refuses a write to a file removed since it was opened, so no command
    /// reports a write that went to a removed file. Only when SQLite cannot open the file to lock
    /// it (a full disk), not when another connection holds the lock, is an empty file or a bare
    /// header with an empty log removed without the lock.
    func removeUnlessItHoldsData() {
        guard let path, !Self.isOpenElsewhere(path) else { return }
        do {
            var options = Connection.Options()
            options.createIfMissing = false
            let connection = try Connection(path: path, options: options)
            try connection.transaction {
                guard isTheFileMade(path), try !Self.holdsData(connection) else { return }
                // Once the file is gone its log files' paths may be another new database's: the
                // close must leave them.
                connection.keepLogFilesAtClose()
                remove(path)
            }
        } catch let error as SQLiteError where error.isBusy {
            return
        } catch {
            if isTheFileMade(path) && Self.holdsNothingToOpen(path) {
                remove(path)
            } else if access(path, F_OK) != 0 {
                removeFolders()
            }
        }
    }

    /// Whether `path` still names the file this run made.
    private func isTheFileMade(_ path: String) -> Bool {
        var status = stat()
        guard let identity, stat(path, &status) == 0 else { return false }
        return status.st_dev == identity.device && status.st_ino == identity.inode
    }

    private func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        removeFolders()
    }

    /// The folders made for the file, each only if empty.
    private func removeFolders() {
        Folders.remove(folders)
    }

    /// Whether the file at `path` is empty or holds one page (the header SQLite writes first), with
    /// no write-ahead log or an empty one: no table, since each needs a page of its own.
    private static func holdsNothingToOpen(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        if status.st_size > 0 {
            guard let pageSize = headerPageSize(path), status.st_size <= pageSize else { return false }
        }
        return stat(path + "-wal", &status) != 0 || status.st_size == 0
    }

    /// Whether the database holds a row in a table other than those its creation writes. Throws
    /// when it cannot be read to tell.
    private static func holdsData(_ connection: Connection) throws -> Bool {
        for table in try tableNames(in: connection).subtracting(bookkeepingTables)
        where try connection.scalar("SELECT EXISTS (SELECT 1 FROM \(table.quotedSQLIdentifier))", as: Int.self) != 0 {
            return true
        }
        return false
    }

    /// The page size the file header gives (bytes 16 and 17, big-endian; 1 for 65,536), or nil
    /// when the file holds no SQLite header.
    private static func headerPageSize(_ path: String) -> Int? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 18), header.count == 18, header.starts(with: Connection.fileHeaderMagic)
        else { return nil }
        let size = Int(header[16]) << 8 | Int(header[17])
        return size == 1 ? 65_536 : size
    }

    /// Whether another connection has the database open (a command waiting for it to be free, to
    /// write): in WAL mode, each holds a read lock on the `-shm` file's byte 128 (SQLite's DMS
    /// lock) while it is open, and with no `-shm` file none is. This process's own locks do not
    /// show, and its connections are closed by now.
    private static func isOpenElsewhere(_ path: String) -> Bool {
        let descriptor = open(path + "-shm", O_RDONLY)
        guard descriptor >= 0 else { return errno != ENOENT }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return true }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// The tables that creating and migrating a logbook writes rows into: the migrations applied,
    /// the settings, the change feed's start, SQLite's statistics.
    private static let bookkeepingTables: Set<String> = ["schema_migrations", "logbook_settings", "change_log", "sqlite_stat1"]

    private static func tableNames(in connection: Connection) throws -> Set<String> {
        let statement = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        var names = Set<String>()
        while try statement.step() { names.insert(try statement.schemaText(0)) }
        return names
    }
}
