import Foundation

/// A database file with its schema: one connection, migrated on open, shared safely across threads
/// and tasks by running each read or write as one serialized unit of work.
///
/// ```swift
/// let database = try Database(path: "notes.sqlite", migrator: migrator)
/// try database.write { connection in try connection.run("DELETE FROM notes WHERE id = ?", [.text(id)]) }
/// let count = try database.read { try $0.scalar("SELECT count(*) FROM notes", as: Int.self) }
/// ```
public final class Database: @unchecked Sendable {
    /// How ``Database/init(path:options:migrator:mode:reportError:)`` treats the schema.
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

    private let connection: Connection
    /// How a failure inside ``read(_:)``, ``write(_:)`` and ``withConnection(_:)`` reaches the caller.
    private let reportError: @Sendable (Error) -> Error
    // Recursive, so a repository call made inside `write { }` nests (as a savepoint) instead of deadlocking.
    private let lock = NSRecursiveLock()
    /// The migrator the database was opened with, for reading its migration history.
    public let migrator: Migrator
    /// The path the database was opened at (the connection's ``Connection/path``).
    public var path: String { connection.path }

    /// Opens the database at `path`. Before anything is written it checks that the file is an
    /// SQLite database and that its migration history is one this migrator accepts; only then does
    /// it switch the file to WAL and apply pending migrations. Except to inspect, it then refuses
    /// (``MigrationError/schemaDiffers(differences:)``) a file whose tables, indexes or triggers
    /// are not those its migrations create.
    ///
    /// `reportError` turns each failure of the calls below into what the caller sees (a store gives
    /// SQLite's errors its own vocabulary and the file's path); by default errors pass unchanged.
    public init(path: String, options: Connection.Options = .init(), migrator: Migrator,
                mode: OpenMode = .migrate, reportError: @escaping @Sendable (Error) -> Error = { $0 }) throws {
        self.reportError = reportError
        var options = options
        if mode != .migrate { options.createIfMissing = false }
        connection = try Connection(path: path, options: options)
        self.migrator = migrator
        try connection.validateIsDatabase()
        switch mode {
        case .migrate where !options.readOnly:
            _ = try migrator.status(of: connection)
            try connection.enableWriteAheadLog()
            try migrator.migrate(connection)
        case .read:
            let pending = try migrator.status(of: connection).filter { $0.appliedAt == nil }
            if !pending.isEmpty { throw MigrationError.pendingMigrations(identifiers: pending.map(\.migration.identifier)) }
        case .migrate, .inspect:
            break
        }
        if mode != .inspect {
            let differences = try migrator.schemaDifferences(of: connection, upTo: try migrator.currentVersion(of: connection))
            if !differences.isEmpty { throw MigrationError.schemaDiffers(differences: differences) }
        }
    }

    /// Runs `body` in an `IMMEDIATE` transaction: commits when it returns, rolls back when it throws.
    public func write<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try connection.transaction(.immediate) { try body(connection) }
        } catch {
            throw reportError(error)
        }
    }

    /// Runs `body` in a read transaction, so every statement in it sees the same snapshot.
    public func read<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try connection.transaction(.deferred) { try body(connection) }
        } catch {
            throw reportError(error)
        }
    }

    /// Runs `body` with the connection and no transaction: for statements that cannot run inside
    /// one (`VACUUM`, some pragmas) or that manage their own.
    public func withConnection<Result>(_ body: (Connection) throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body(connection)
        } catch {
            throw reportError(error)
        }
    }
}
