import CSQLite
import Foundation

/// What the first 100 bytes of a database file say about it: whether it is an SQLite database at
/// all, and whether the file is as long as its header says. SQLite itself treats a file shorter
/// than its header as an empty database (and would write a new one over it), and reads a file cut
/// short by a few bytes without complaint, returning changed text.
///
/// The header is read through the connection's own open file (SQLite's VFS), never by opening the
/// file again: closing another descriptor of a file would drop the POSIX locks SQLite holds on it
/// in this process, and with them other connections' view of the write-ahead log.
extension Connection {
    /// The 16 bytes every SQLite database file begins with, `SQLite format 3` and a NUL.
    public static let fileHeaderMagic = Array("SQLite format 3\0".utf8)
}

enum DatabaseFileHeader {

    /// The problems of the main database file of `connection`; empty when it is sound, is empty
    /// (a new database), or is a connection's own (``Connection/isPrivateDatabase(_:)``).
    ///
    /// A file another process is making holds SQLite's reserved lock while its first page is
    /// written, and the file can show its new length before its bytes: a command that read it in
    /// that instant refused a new database as "4096 bytes without an SQLite header"
    /// (`NewDatabaseRaceCLITests`). So a file that shows a problem is read again once no other
    /// connection is writing it (waiting at most the busy timeout), and judged by that reading.
    /// A wait told to stop (``Connection/Options/stopsWaiting``) judges nothing: the statement
    /// that follows meets the same lock and stops there, with `SQLITE_BUSY`, rather than with a
    /// file called damaged from a reading taken mid-write.
    static func problems(of connection: Connection) -> [String] {
        let found = problemsAsRead(of: connection)
        guard !found.isEmpty else { return found }
        guard waitWhileAnotherConnectionWrites(connection) else { return [] }
        return problemsAsRead(of: connection)
    }

    /// Returns once no other connection holds the reserved lock of the main database file
    /// (SQLite's `xCheckReservedLock`, which takes no lock, and sees a rollback journal's writers
    /// only: the first page of a new file is written so), or the wait is over (``LockWait``). The
    /// unix VFS counts this process's connections too, this one included: inside its own write
    /// it does not wait for itself. False when the wait was told to stop.
    private static func waitWhileAnotherConnectionWrites(_ connection: Connection) -> Bool {
        guard sqlite3_txn_state(connection.handle, nil) != SQLITE_TXN_WRITE,
              let file = mainFile(of: connection.handle), let isReserved = file.pointee.pMethods?.pointee.xCheckReservedLock else { return true }
        // Timed by a clock the wall clock's steps do not move (helper-77).
        let start = ContinuousClock.now
        var reserved: Int32 = 0
        while isReserved(file, &reserved) == SQLITE_OK, reserved != 0, !LockWait.isOver(startedAt: start, connection.options) {
            usleep(5_000)
        }
        return connection.options.stopsWaiting?() != true
    }

    /// ``problems(of:)`` as the file reads now.
    private static func problemsAsRead(of connection: Connection) -> [String] {
        var status = stat()
        guard !Connection.isPrivateDatabase(connection.path), stat(connection.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              status.st_size > 0 else { return [] }
        let size = Int(status.st_size)
        guard let header = readHeader(connection.handle), header.count == 100, header.starts(with: Connection.fileHeaderMagic) else {
            return ["it is not an SQLite database (\(size) bytes without an SQLite header)"]
        }
        let pageSizeField = Int(header[16]) << 8 | Int(header[17])
        let pageSize = pageSizeField == 1 ? 65_536 : pageSizeField
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            return ["its header is damaged (page size \(pageSizeField))"]
        }
        var problems: [String] = []
        // With frames in the write-ahead log the file may be caught mid-checkpoint (its header
        // already counting pages not yet written), and with a rollback journal that holds an
        // unfinished write, mid-commit (page 1 written, the pages after it not yet): SQLite
        // recovers both, so the length is judged only when neither is there (a file caught so,
        // and read-only, was called cut short; helper-65).
        var log = stat()
        guard stat(connection.path + "-wal", &log) != 0 || log.st_size == 0,
              !holdsUnfinishedWrite(journal: connection.path + "-journal") else { return [] }
        if size % pageSize != 0 {
            problems.append("its size, \(size) bytes, is not a whole number of \(pageSize)-byte pages: it was cut or extended")
        }
        // The page count in the header is valid when its "version valid for" equals the change counter.
        let field = { (offset: Int) in header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let pages = field(28)
        if field(92) == field(24) && pages > 0 && size < pages * pageSize {
            problems.append("it is \(size) bytes long but its header counts \(pages) pages of \(pageSize) bytes: it was cut short")
        }
        return problems
    }

    /// How a rollback journal that holds a write to roll back begins; a finished one is empty,
    /// gone, or (`journal_mode = PERSIST`) has these bytes zeroed.
    private static let journalMagic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

    /// Whether the rollback journal at `path` holds a write to roll back. (Read with a descriptor
    /// of its own: SQLite holds no lock on a journal.)
    private static func holdsUnfinishedWrite(journal path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: journalMagic.count)).map { Array($0) == journalMagic } ?? false
    }

    /// The first 100 bytes, read with SQLite's handle of the main database file.
    private static func readHeader(_ database: OpaquePointer) -> [UInt8]? {
        guard let file = mainFile(of: database), let read = file.pointee.pMethods?.pointee.xRead else { return nil }
        var bytes = [UInt8](repeating: 0, count: 100)
        let code = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, 100, 0) }
        return code == SQLITE_OK ? bytes : nil
    }

    /// SQLite's open file of the main database of `database`.
    private static func mainFile(of database: OpaquePointer) -> UnsafeMutablePointer<sqlite3_file>? {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(database, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK else { return nil }
        return file
    }
}
