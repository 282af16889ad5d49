import CSQLite
import Foundation

/// One open SQLite database connection.
///
/// Opening writes nothing: a file that is not a database fails at open (`SQLITE_NOTADB`, when the
/// per-connection pragmas first read it) or at ``validateIsDatabase()``, and is left as it was.
///
/// Every connection gets the same per-connection settings: foreign keys on, a busy timeout,
/// `synchronous=NORMAL` (durable at every WAL checkpoint, never corrupt), and the page cache and
/// memory map sizes in ``Options``. The WAL journal mode is a property of the file, set by
/// ``enableWriteAheadLog()``.
///
/// A connection is not thread-safe: use it from one thread or task at a time.
public final class Connection {
    /// How a connection is opened and set up. The defaults open a writable file, creating it when missing.
    public struct Options: Sendable {
        /// Open without write access; the file must exist.
        public var readOnly = false
        /// Create the file when it does not exist (ignored for read-only connections).
        public var createIfMissing = true
        /// With ``readOnly``: read the file as one nothing changes meanwhile (SQLite's `immutable`
        /// URI parameter), taking no lock and creating nothing beside it (no `-wal`, no `-shm`),
        /// and reading no write-ahead log: for a look at a file that no connection has open.
        public var immutable = false
        /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        /// Asked every few milliseconds while a statement waits for another connection's lock:
        /// true ends the wait at once with `SQLITE_BUSY`, before the busy timeout (a command
        /// stopped by a signal). Nil: the wait is SQLite's own busy timeout.
        public var stopsWaiting: (@Sendable () -> Bool)?
        /// Page cache size in KiB (`PRAGMA cache_size = -N`): the most memory SQLite holds for
        /// pages, whatever the database's size. 2 MiB: measured on a million exercises, 16 and
        /// 64 MiB were no faster for exports or range fetches, nor for imports of that size (the OS
        /// caches the file under WAL), and only raised the peak memory (the Logbook article "The
        /// database file"); longer imports use ``bulkWriteCacheSizeKiB``.
        public var cacheSizeKiB = 2_048
        /// Page cache size in KiB for one large write transaction (an import), through
        /// ``Database/withBulkWriteCache(_:)``. 64 MiB: measured importing ten million exercises,
        /// 16.0 µs each against 18.1 µs with 2 MiB, whose spills to the log make every row slower
        /// than the last; the peak memory of an import of a million or more is 97 to 99 MiB. The
        /// transaction's temporary tables get a quarter of it besides.
        public var bulkWriteCacheSizeKiB = 65_536
        /// Bytes of the file read through `mmap` (`PRAGMA mmap_size`); 0 (the default) turns memory
        /// mapping off, so a process's memory stays bounded by the page cache however large the
        /// file it reads (mapped pages count in its resident size).
        public var mmapSizeBytes = 0
        /// For a ``Database``: how many read connections it may open beside its writer, so reads run
        /// concurrently with each other and with a write. 0 reads on the writer, serialized with
        /// writes, and opens no other connection (what a one-shot command wants).
        public var maximumReaders = 4

        /// The defaults: writable, created when missing, a 5-second busy timeout, a 2 MiB page cache
        /// (64 MiB for bulk writes) and no memory mapping.
        public init() {}
    }

    /// The version of the SQLite library the process runs with: `3.40.1`.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// The `sqlite3` handle, for code that needs the C API directly.
    public let handle: OpaquePointer
    /// The path given at open (`:memory:` or `""` for a database of the connection's own:
    /// ``isPrivateDatabase(_:)``).
    public let path: String
    /// The options the connection was opened with.
    public let options: Options
    private var statementCache = StatementCache()
    /// The wait for locks SQLite calls, with ``Options/stopsWaiting`` (kept while the handle is open).
    private let lockWait: LockWait?
    var savepointDepth = 0
    /// Whether a transaction of this connection committed changes (so closing it runs `PRAGMA optimize`).
    var hasCommittedChanges = false
    /// The write-ahead log with pages in it that was beside the file before this connection
    /// opened it, if any (``keepTheLogFoundAtOpenIfUnwritten()``).
    let logFoundAtOpen: LogFoundAtOpen?
    /// Collations registered for sort comparators (see `collationName(for:)`).
    var registeredCollations: Set<String> = []
    /// The values of ``valueWhileUnchanged(_:_:)`` by key, with the file's stamp when each was computed.
    var unchangedValues: [String: (stamp: FileStamp, value: Any)] = [:]

    /// Whether `path` names a database of one connection's own rather than a file: `:memory:`, or
    /// `""`, SQLite's temporary database, kept in the page cache and, once it outgrows it, in a
    /// temporary file that SQLite deletes when the connection closes.
    public static func isPrivateDatabase(_ path: String) -> Bool {
        path == ":memory:" || path.isEmpty
    }

    /// Opens (and for a writable connection, creates) the database at `path`, creating its folder
    /// and removing again, each only while empty, the folders it made when the open fails.
    /// Refuses a path that names no file (a folder's path such as `data/`, or `..` after a folder
    /// that does not exist), which SQLite would read otherwise than the system.
    public init(path: String, options: Options = Options()) throws {
        // A C string ends at a NUL: SQLite would open the file named by the path's first part.
        guard !path.utf8.contains(0) else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "a path holds a NUL character, which no file name can: \(path.debugDescription)")
        }
        if !Self.isPrivateDatabase(path), let refusal = DatabasePath.refusal(of: path) {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "\(refusal): \(path)")
        }
        let creates = options.createIfMissing && !options.readOnly
        // The folders made for the file, removed again when it cannot be opened.
        var foldersMade: [String] = []
        if !Self.isPrivateDatabase(path) && creates {
            // Relative stays relative: made absolute with Foundation's spelling of a working folder
            // whose path is not UTF-8 (U+FFFD for each bad byte), it named another folder, which
            // was made (helper-76).
            let folder = PathParts(path).openableFolder
            do {
                foldersMade = try Folders.create(folder)
            } catch let refusal as Folders.Refusal {
                throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create folder \(folder): \(refusal.reason)")
            }
        }
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if creates { flags |= SQLITE_OPEN_CREATE }
        var name = Self.nameForOpening(path)
        if options.immutable && options.readOnly && !Self.isPrivateDatabase(path) {
            flags |= SQLITE_OPEN_URI
            // An absolute path after an empty authority: `file://` and `//x` would read `x` as a host.
            name = (path.hasPrefix("/") ? "file://" : "file:") + Self.uriPath(path) + "?immutable=1"
        }
        logFoundAtOpen = LogFoundAtOpen(besideDatabaseAt: path)
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, Self.vfsName)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            let problem = Self.openProblem(path, openFailedWith: code, handle: handle)
            sqlite3_close_v2(handle)
            Folders.remove(foldersMade)
            throw SQLiteError(code: code, message: "\(message): \(path)\(problem)")
        }
        self.handle = handle
        self.path = path
        self.options = options
        sqlite3_extended_result_codes(handle, 1)
        lockWait = LockWait.install(on: handle, options: options)
        // Defensive: no SQL can corrupt the file on purpose (writable_schema, raw page writes);
        // no extension can be loaded; fts3_tokenizer cannot replace a tokenizer with a pointer;
        // a file's own views and triggers cannot call functions that are not innocuous.
        for (option, value) in [(SQLITE_DBCONFIG_DEFENSIVE, 1), (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0),
                                (SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0), (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0)] {
            _ = logbook_sqlite3_db_config_int(handle, option, Int32(value))
        }
        // Every stored property is set, so if these throw, deinit runs and closes the handle (once).
        do {
            try execute("""
                PRAGMA foreign_keys = ON;
                PRAGMA synchronous = NORMAL;
                PRAGMA cache_size = -\(options.cacheSizeKiB);
                PRAGMA mmap_size = \(options.mmapSizeBytes);
                """)
        } catch {
            // `cache_size` reads the schema; when that fails on a file cut short (its last page
            // read as zeros), the cut is the cause to name, not the schema it garbled.
            if let problem = DatabaseFileHeader.problems(of: self).first { throw SQLiteError(code: SQLITE_NOTADB, message: problem) }
            throw error
        }
        try registerStandardFunctions()
    }

    /// Why SQLite could not open `path`, which its "unable to open database file" does not say:
    /// a full path longer than SQLite's unix VFS takes (504 bytes, far below the system's 4,096;
    /// helper-76), or else the system's reason (`File name too long`, `Too many open files`;
    /// helper-86). Empty for another failure.
    private static func openProblem(_ path: String, openFailedWith code: Int32, handle: OpaquePointer?) -> String {
        guard code & 0xFF == SQLITE_CANTOPEN else { return "" }
        var length = path.utf8.count
        if !path.hasPrefix("/") {
            var folder = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            length += getcwd(&folder, folder.count) != nil ? strlen(folder) + 1 : 0
        }
        // 512 bytes, less the room SQLite keeps for "-journal" after the file's name.
        let limit = 512 - "-journal".utf8.count
        if length > limit { return " (its full path has \(length) bytes, and SQLite opens paths of at most \(limit))" }
        return handle.flatMap(SQLiteError.systemReason(reportedBy:)).map { " (\($0))" } ?? ""
    }

    /// `path` as `sqlite3_open_v2` must be given it to open that file: a relative path that begins
    /// with `file:` with `./` before it, since a SQLite built to read URIs everywhere (Debian's,
    /// `USE_URI`) takes `file:data.sqlite` for a URI and opened `data.sqlite`, while Logbook made,
    /// checked and named `file:data.sqlite` (helper-65).
    static func nameForOpening(_ path: String) -> String {
        path.unicodeScalars.starts(with: "file:".unicodeScalars) ? "./" + path : path
    }

    /// `path` as the path of a `file:` URI: `%`, `?` and `#` escaped, the rest as it is.
    private static func uriPath(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    deinit {
        // Let SQLite refresh its planner statistics if this connection changed enough to need it;
        // never after only rolled-back changes, since a failed command must leave the file as it was.
        if !options.readOnly && hasCommittedChanges {
            sqlite3_exec(handle, "PRAGMA optimize", nil, nil, nil)
        }
        statementCache.removeAll()
        emptyTheLogOfAMovedFile()
        keepTheLogFoundAtOpenIfUnwritten()
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    /// Runs one or more SQL statements separated by semicolons, with no parameters and no results.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(reportedBy: handle, message: message.map { String(cString: $0) }, sql: sql)
        }
    }

    /// Prepares a statement that is not cached: for SQL that runs once.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: handle, sql: sql)
    }

    /// Returns the prepared statement for `sql`, preparing it on first use, reset and ready to bind.
    ///
    /// Statements are cached by their exact SQL text for the life of the connection. The same
    /// statement object comes back each time, so finish with one before asking for it again.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache.statement(for: sql) {
            // One that is being stepped (a cursor's, or an outer loop's when a callback runs the
            // same SQL again) is never handed out: resetting it would restart that loop.
            guard sqlite3_stmt_busy(statement.handle) == 0 else { return try Statement(database: handle, sql: sql) }
            statement.reset()
            return statement
        }
        let statement = try Statement(database: handle, sql: sql)
        statementCache.insert(statement, for: sql)
        return statement
    }

    /// Returns the statements prepared for the SQL texts `sql` makes, reset and ready to bind,
    /// cached under `key` for the life of the connection: the first call runs `sql`, later ones
    /// with the same key (compared byte for byte) return the same statements without running it,
    /// so `key` must determine every text `sql` returns. For a fetch whose statements are built
    /// from several pieces of SQL (its parent and child statements), building them again on every
    /// call costs more than finding them. When one of the statements is being stepped, the call
    /// returns new ones, as ``cachedStatement(_:)`` does.
    public func cachedStatements(key: [String], sql: () throws -> [String]) throws -> [Statement] {
        let exactKey = key.map(ExactText.init)
        if let group = statementCache.group(for: exactKey) {
            guard group.statements.allSatisfy({ sqlite3_stmt_busy($0.handle) == 0 }) else {
                return try group.sql.map { try Statement(database: handle, sql: $0) }
            }
            for statement in group.statements { statement.reset() }
            return group.statements
        }
        let texts = try sql()
        let statements = try texts.map { try cachedStatement($0) }
        statementCache.insert(StatementGroup(sql: texts, statements: statements), for: exactKey)
        return statements
    }

    /// The number of statements in the cache.
    public var cachedStatementCount: Int { statementCache.count }

    /// Reads the first column of the first row of `sql`, or nil when there is no row.
    public func scalar<Value: SQLiteValue>(_ sql: String, _ arguments: [DatabaseValue] = [],
                                           as type: Value.Type = Value.self) throws -> Value? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return try statement.column(0, as: Value.self)
    }

    /// Runs one statement with positional arguments, ignoring any rows.
    public func run(_ sql: String, _ arguments: [DatabaseValue] = []) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.execute()
    }

    // MARK: State

    /// The rowid of the last row inserted by this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Whether no transaction is open.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Reads the schema, which fails with `SQLITE_NOTADB` for a file that is not an SQLite database.
    public func validateIsDatabase() throws {
        if let problem = DatabaseFileHeader.problems(of: self).first {
            throw SQLiteError(code: SQLITE_NOTADB, message: problem)
        }
        _ = try scalar("SELECT count(*) FROM sqlite_master", as: Int.self)
    }

    /// Refuses (`SQLITE_CANTOPEN`) a file that stores its text as UTF-16 (another program made it
    /// with `PRAGMA encoding`): SQLite converts each text written there and writes U+FFFE and
    /// U+FFFF as U+FFFD, and its `BINARY` order there is that of the stored UTF-16 bytes, not the
    /// UTF-8 byte order that queries here sort and pick by. A new or empty file is UTF-8, as
    /// SQLite makes it; the message says how to copy a UTF-16 file into one.
    public func validateTextIsStoredAsUTF8() throws {
        if let problem = try textEncodingProblem() { throw SQLiteError(code: SQLITE_CANTOPEN, message: problem) }
    }

    /// What is wrong with the file's text encoding, nil for UTF-8.
    func textEncodingProblem() throws -> String? {
        let encoding = try scalar("PRAGMA encoding", as: String.self) ?? "UTF-8"
        guard encoding != "UTF-8" else { return nil }
        return "it stores text as \(encoding), which SQLite neither keeps byte for byte (it writes U+FFFE and U+FFFF as U+FFFD) "
            + "nor orders by UTF-8 bytes; 'sqlite3 FILE .dump | sqlite3 NEW' copies it into a UTF-8 file"
    }

    /// Switches the file to write-ahead logging, so readers in other processes never block the
    /// writer. This is a property of the file: it writes the database header once.
    ///
    /// SQLite does not wait on the busy timeout for this switch (two processes opening a new file
    /// at once would fail with `SQLITE_BUSY`), so it is retried here until the timeout has passed.
    public func enableWriteAheadLog() throws {
        // Timed by a clock the wall clock's steps do not move: set back an hour, it waited an hour (helper-77).
        let start = ContinuousClock.now
        var mode: String?
        while true {
            do {
                mode = try scalar("PRAGMA journal_mode = WAL", as: String.self)
                break
            } catch let error as SQLiteError where error.isBusy && !LockWait.isOver(startedAt: start, options) {
                usleep(10_000)
            }
        }
        guard mode?.lowercased() == "wal" || Self.isPrivateDatabase(path) else {
            throw SQLiteError(code: SQLITE_ERROR, message: "could not enable WAL journal mode (got \(mode ?? "nil"))")
        }
    }

    /// `PRAGMA data_version`: changes whenever another connection commits to the file.
    public var dataVersion: Int {
        get throws { try scalar("PRAGMA data_version", as: Int.self) ?? 0 }
    }

    /// The rows this connection inserted, updated or deleted since it opened (`sqlite3_total_changes64`,
    /// trigger programs' rows included, rolled back or not): what moves when it writes.
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }
}
