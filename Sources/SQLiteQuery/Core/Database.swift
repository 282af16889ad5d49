import Foundation
import CSQLite

/// A database file with its schema, migrated on open and shared safely across threads and tasks:
/// one writer connection, whose writes are serialized, and under WAL a small pool of read
/// connections, so reads run beside each other and beside the write, each in a snapshot of the last
/// commit before it began.
///
/// A call made inside another on the same thread (a repository call inside `write(_:)`) runs on
/// the connection of the outer one, as a savepoint, and so sees its uncommitted changes.
///
/// ```swift
/// let database = try Database(path: "notes.sqlite", migrator: migrator)
/// try database.write { connection in try connection.run("DELETE FROM notes WHERE id = ?", [.text(id)]) }
/// let count = try database.read { try $0.scalar("SELECT count(*) FROM notes", as: Int.self) }
/// ```
public final class Database: @unchecked Sendable {
    /// How ``Database/init(path:options:migrator:mode:finishingMigrations:housekeeping:reportError:)`` treats the schema.
    public enum OpenMode: Sendable {
        /// Create the file if needed and apply pending migrations.
        case migrate
        /// Open an existing file, changing nothing; the caller inspects its migration history.
        case inspect
        /// Open an existing, fully migrated file to read it: nothing is created or migrated, and the
        /// caller writes nothing. Refuses (``MigrationError``) a file with pending, unknown or edited
        /// migrations. (The connection is not opened read-only: the last connection to close a WAL
        /// database must be able to remove its `-wal` and `-shm` files, as a writer would.)
        case read
    }

    private let writer: Connection
    /// The read connections; nil when reads share the writer (an in-memory or non-WAL database,
    /// ``Connection/Options/maximumReaders`` 0, or a database opened to inspect).
    private(set) var readers: ReaderPool?
    /// Where ``perform(_:)`` runs work, at its caller's priority.
    let workQueues = WorkQueues()
    /// Which `async` write goes to the queue next (``performWriting(_:)``).
    let writeTurns = WriteTurns()
    /// How a failure inside `read(_:)`, `write(_:)` and ``withConnection(_:)`` reaches the caller.
    package let reportError: @Sendable (Error) -> Error
    // Recursive, so a repository call made inside `write { }` nests (as a savepoint) instead of deadlocking.
    private let lock = NSRecursiveLock()
    /// The migrator the database was opened with, for reading its migration history.
    public let migrator: Migrator
    /// The path the database was opened at (the connection's ``Connection/path``).
    public var path: String { writer.path }
    /// The options the database was opened with (its writer's).
    public var options: Connection.Options { writer.options }
    /// Upkeep that waits for this database's first write that commits a change
    /// (``init(path:options:migrator:mode:finishingMigrations:housekeeping:reportError:)``); nil
    /// once it ran. Read and cleared under `lock`, on the writer.
    private var pendingHousekeeping: ((Connection) throws -> Void)?
    /// How many read connections are open now (0 when reads share the writer).
    public var openReaderCount: Int { readers?.count ?? 0 }

    /// Opens the database at `path`. Before anything is written it checks that the file is an
    /// SQLite database, that (except to inspect) it stores its text as UTF-8
    /// (``Connection/validateTextIsStoredAsUTF8()``), and that its migration history is one this
    /// migrator accepts; only then does it switch the file to WAL and apply pending migrations.
    /// Except to inspect, it then refuses (``MigrationError/schemaDiffers(differences:)``) a file
    /// whose tables, indexes or triggers are not those its migrations create.
    ///
    /// `reportError` turns each failure of the calls below into what the caller sees (a store gives
    /// SQLite's errors its own vocabulary and the file's path); by default errors pass unchanged.
    ///
    /// `finishingMigrations` runs in the migrations' transaction, after them, when any was applied
    /// (``Migrator/migrate(_:now:finishing:)``).
    ///
    /// `housekeeping` (pruning an expired log, say) runs once, after the first `write(_:)` that
    /// committed a change to a row (of any table, a temporary one included), in a transaction of
    /// its own: so opening the file, a write that fails or is rolled back (a dry run) and a write
    /// that changes no row leave the file as it was. Its failure is dropped (the write it follows
    /// has committed), leaving the work to the database's next opening.
    public init(path: String, options: Connection.Options = .init(), migrator: Migrator,
                mode: OpenMode = .migrate, finishingMigrations: ((Connection) throws -> Void)? = nil,
                housekeeping: ((Connection) throws -> Void)? = nil,
                reportError: @escaping @Sendable (Error) -> Error = { $0 }) throws {
        self.reportError = reportError
        pendingHousekeeping = housekeeping
        var options = options
        if mode != .migrate { options.createIfMissing = false }
        let connection = try Connection(path: path, options: options)
        writer = connection
        self.migrator = migrator
        try connection.validateIsDatabase()
        if mode != .inspect { try connection.validateTextIsStoredAsUTF8() }
        switch mode {
        case .migrate where !options.readOnly:
            try connection.refuseWritingAFileOfSeveralNames()
            _ = try migrator.status(of: connection)
            try connection.enableWriteAheadLog()
            try migrator.migrate(connection, finishing: finishingMigrations)
        case .read:
            let pending = try migrator.status(of: connection).filter { $0.appliedAt == nil }
            if !pending.isEmpty { throw MigrationError.pendingMigrations(identifiers: pending.map(\.migration.identifier)) }
        case .migrate, .inspect:
            break
        }
        if mode != .inspect {
            let differences = try migrator.schemaDifferences(of: connection, upTo: try migrator.currentVersion(of: connection))
            if !differences.isEmpty { throw MigrationError.schemaDiffers(differences: differences) }
            if options.maximumReaders > 0, !Connection.isPrivateDatabase(path),
               try connection.scalar("PRAGMA journal_mode", as: String.self)?.lowercased() == "wal" {
                var readerOptions = options
                readerOptions.createIfMissing = false
                readers = ReaderPool(maximum: options.maximumReaders) {
                    let reader = try Connection(path: path, options: readerOptions)
                    try reader.execute("PRAGMA query_only = ON")
                    return reader
                }
            }
        }
    }

    deinit {
        // Readers close first, so the writer is the last connection and removes the -wal and -shm files.
        readers = nil
    }

    /// Runs `body` in an `IMMEDIATE` transaction on the writer: commits when it returns, rolls back
    /// when it throws. Writes wait for each other, never for reads.
    public func write<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        try onWriter { connection in
            if ThreadState.current.connections[ObjectIdentifier(self)] === connection,
               let reason = ThreadState.current.writeRefusals[ObjectIdentifier(self)] {
                throw SQLiteError(code: SQLITE_MISUSE, message: reason)
            }
            let isOutermost = connection.isAutocommit, changesBefore = connection.totalChanges
            let result = try connection.transaction(.immediate) { try body(connection) }
            if isOutermost, connection.totalChanges != changesBefore, let housekeeping = pendingHousekeeping {
                pendingHousekeeping = nil
                // In a transaction of its own, once the write has committed: its failure (a full
                // disk) can neither fail nor enlarge the write, and leaves the work to a later store.
                try? connection.transaction(.immediate) { try housekeeping(connection) }
            }
            return result
        }
    }

    /// Runs `body` in a read transaction, so every statement in it sees the same snapshot: on a
    /// read connection of its own when the pool has one, beside other reads and the write.
    ///
    /// A write that `body` makes on the writer (a read inside a write, or any read of a database
    /// without read connections) is refused: it would be part of the read's transaction.
    public func read<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        if let connection = ThreadState.current.connections[ObjectIdentifier(self)] {
            guard connection === writer else { return try reporting { try connection.transaction(.deferred) { try body(connection) } } }
            return try reporting { try connection.transaction(.deferred) { try refusingWrites(because: Self.writeInsideRead) { try body(connection) } } }
        }
        guard let readers else {
            return try onWriter { connection in
                try connection.transaction(.deferred) { try refusingWrites(because: Self.writeInsideRead) { try body(connection) } }
            }
        }
        let connection = try reporting { try readers.take() }
        defer { readers.giveBack(connection) }
        return try using(connection) { try connection.transaction(.deferred) { try body(connection) } }
    }

    /// Runs `body` with the writer and no transaction: for statements that cannot run inside
    /// one (`VACUUM`, some pragmas) or that manage their own.
    public func withConnection<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        try onWriter(body)
    }

    /// Why a write inside a read on the writer is refused.
    private static let writeInsideRead = "a write from inside a read of the same database (a callback of forEach, an export, a "
        + "report or the change feed) would be part of the read; write once it has returned"

    /// Runs `body`, code that a call inside a write or read hands control to (an import's progress
    /// callback), with this database's writes refused on the calling thread: such a write would
    /// join the transaction around it (on the same connection, as a savepoint) and share its fate,
    /// rolled back with a failed or dry-run import although it returned as committed. A write
    /// (the synchronous `write(_:)`) the thread makes on that connection meanwhile is refused with `reason`;
    /// reads and ``withConnection(_:)`` are not.
    public func refusingWrites<Result>(because reason: String, _ body: () throws -> Result) rethrows -> Result {
        let thread = ThreadState.current
        let outer = thread.writeRefusals.updateValue(reason, forKey: ObjectIdentifier(self))
        defer { thread.writeRefusals[ObjectIdentifier(self)] = outer }
        return try body()
    }

    private func onWriter<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        if ThreadState.current.connections[ObjectIdentifier(self)] === writer { return try reporting { try body(writer) } }
        return try using(writer) { try body(writer) }
    }

    /// Runs `body` as the thread's outermost use of `connection`, watched by the thread's
    /// ``Cancellation``.
    func using<Result>(_ connection: Connection, _ body: () throws -> Result) throws -> Result {
        let thread = ThreadState.current
        let outer = thread.connections.updateValue(connection, forKey: ObjectIdentifier(self))
        defer { thread.connections[ObjectIdentifier(self)] = outer }
        let cancellation = thread.cancellation
        return try reporting {
            try cancellation?.attach(to: connection)
            defer { cancellation?.detach(from: connection) }
            return try body()
        }
    }

    private func reporting<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw reportError(error)
        }
    }
}
