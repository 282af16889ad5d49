import Foundation
import SQLiteQuery

/// A Logbook database: release drafts and exercise-day history in one SQLite file.
///
/// ```swift
/// let store = try Logbook(path: "history.sqlite")   // creates, opens and migrates
/// try store.history.addDoneExercise("Burpee", at: .now)
/// ```
///
/// A store is `Sendable`: share one across tasks and threads. Each call is one transaction;
/// writes wait for each other, reads run beside them on read connections of their own (under WAL),
/// and other processes may read and write the same file at the same time (busy timeout). Every
/// call has an `async` form that runs on the store's own queue.
public final class Logbook: Sendable {
    let database: Database
    /// The escape hatch: the `SQLiteQuery` database underneath, for SQL Logbook has no call for
    /// (`ANALYZE`, an app's own tables in the same file, a `Connection` function of your own).
    ///
    /// Logbook's own tables written through it must follow the contract for other writers in the
    /// article <doc:TheDatabaseFile> (comparison keys, positions, foreign keys on); `check()` tells what went wrong.
    public var underlyingDatabase: Database { database }
    /// The time zone that decides which calendar day an exercise belongs to.
    public let timeZone: TimeZone
    /// The database file's path as given at open (`:memory:` for an in-memory database, `""` for
    /// SQLite's temporary one); errors name it.
    public var path: String { database.path }
    /// Release drafts.
    public let drafts: DraftRepository
    /// Exercise-day history.
    public let history: HistoryRepository

    /// Opens the database at `path`, creating the file and its folder if needed, and applies
    /// pending migrations. Refuses, changing nothing, a file that is not a database, one written
    /// by a newer Logbook, or one that stores its text as UTF-16 (``LogbookError/cannotOpen(path:reason:)``:
    /// SQLite would not keep its text byte for byte).
    ///
    /// `now` is the clock for `createdAt`, `updatedAt` and exercises recorded without a date.
    /// `options` tune the connection (page cache, memory map, busy timeout).
    ///
    /// `appMigrations` is an app's own migration set (`Migrator(migrations:set:)` with a name),
    /// for its own tables in the same file: applied after Logbook's, each once, checksummed and
    /// recorded under its name in `app_migrations`, so that neither is taken for a newer version of
    /// the other. A file holding migrations of the set that the app does not know (written by a newer
    /// version of the app) is refused, changing nothing.
    public convenience init(path: String, timeZone: TimeZone = .current,
                            now: @escaping @Sendable () -> Date = Date.init,
                            options: Connection.Options = Connection.Options(),
                            appMigrations: Migrator? = nil) throws {
        try self.init(path: path, timeZone: timeZone, now: now, options: options, mode: .migrate,
                      appMigrations: appMigrations)
    }

    /// Opens an existing database for reading only: no file is created, nothing is migrated, and
    /// the store is for reading (a call that writes is not prevented). Throws ``LogbookError/noDatabase(path:)`` when
    /// there is no file, and refuses one that is not a Logbook database, whose migrations are
    /// pending, unknown or edited (``LogbookError/migration(path:_:)``), or that stores its text as
    /// UTF-16.
    public static func openForReading(path: String, timeZone: TimeZone = .current,
                                      options: Connection.Options = Connection.Options()) throws -> Logbook {
        try Logbook(path: path, timeZone: timeZone, now: Date.init, options: options, mode: .read)
    }

    /// Opens an existing database without creating or migrating it, whatever its migration history
    /// or text encoding: for inspection (`migrate --status`, `check`, whose file problems name a
    /// UTF-16 file, which every other way of opening refuses).
    public static func inspect(path: String, timeZone: TimeZone = .current) throws -> Logbook {
        try Logbook(path: path, timeZone: timeZone, now: Date.init, options: Connection.Options(), mode: .inspect)
    }

    /// Whether the system says nothing is at `path`. A path it will not look along (a folder on
    /// it this process may not enter) is not missing: the open then says why (it was called "no
    /// database at", with `logbook init` to run, and a dry run ran on an empty database; helper-86).
    package static func isMissing(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) != 0 else { return false }
        return errno == ENOENT || errno == ENOTDIR
    }

    private init(path: String, timeZone: TimeZone, now: @escaping @Sendable () -> Date,
                 options: Connection.Options, mode: Database.OpenMode, appMigrations: Migrator? = nil) throws {
        if mode != .migrate && path != ":memory:" && Self.isMissing(path) {
            throw LogbookError.noDatabase(path: path)
        }
        do {
            database = try Database(path: path, options: options, migrator: try Schema.migrator(), mode: mode,
                                    finishingMigrations: { try ComparisonKeyRefresh.refresh(in: $0) },
                                    housekeeping: { try Self.pruneChangeLogIfNeeded(in: $0, now: now()) },
                                    reportError: { LogbookError.reported($0, path: path) })
            if mode == .migrate && !options.readOnly {
                try ComparisonKeyRefresh.refreshIfNeeded(database)
            }
            if let appMigrations {
                guard appMigrations.setName != nil else { throw MigrationError.invalidSetName("") }
                try database.withConnection { connection in
                    if mode == .migrate && !options.readOnly { try appMigrations.migrate(connection) } else { _ = try appMigrations.status(of: connection) }
                }
            }
        } catch {
            throw LogbookError(openingPath: path, error)
        }
        self.timeZone = timeZone
        drafts = DraftRepository(database: database, now: now)
        history = HistoryRepository(database: database, timeZone: timeZone, now: now)
    }

    /// The version of the SQLite library Logbook runs with: `3.40.1`.
    public static var sqliteVersion: String { Connection.sqliteVersion }

    /// The version of the newest migration applied to the file.
    public func schemaVersion() throws -> Int {
        try database.read { try database.migrator.currentVersion(of: $0) }
    }

    /// Each known migration and when it was applied (nil when pending).
    public func migrationStatus() throws -> [Migrator.Status] {
        try database.read { try database.migrator.status(of: $0) }
    }

    /// The migrations apps' own sets recorded in the file, by set name and version, whichever app
    /// applied them (this binary need not know them).
    public func appMigrationHistory() throws -> [(set: String, migration: Migrator.AppliedMigration)] {
        try database.read { try Migrator.appliedAppMigrations(in: $0) }
    }
}

extension LogbookError {
    /// Translates a failure to open `path` into the case that says what is wrong with it.
    init(openingPath path: String, _ error: Error) {
        switch error {
        case let error as LogbookError:
            self = error
        case MigrationError.pendingMigrations(let identifiers) where identifiers.count == (try? Schema.migrator().migrations.count):
            self = .notADatabase(path: path, reason: "it has no Logbook tables: an empty file or an empty database; "
                                 + "'logbook init' makes it one")
        case MigrationError.schemaDiffers(let differences):
            self = .schemaChanged(path: path, detail: differences.prefix(3).joined(separator: "; ") + (differences.count > 3 ? "; …" : ""))
        case let error as MigrationError:
            self = .migration(path: path, error)
        case let error as SQLiteError where error.isNotADatabaseOrCorrupt:
            self = .notADatabase(path: path, reason: error.message)
        case let error as SQLiteError where error.isCannotOpen:
            // SQLite says "unable to open database file" of a file that is there when it cannot
            // make the -shm file it needs to recover a write-ahead log.
            let isReadOnly = ReadOnlyCause.isUnrecoverableLog(path) || ReadOnlyCause.isOnReadOnlyFileSystem(path)
                || ReadOnlyCause.sideFileThatIsNoFile(path) != nil
            self = .cannotOpen(path: path, reason: isReadOnly ? ReadOnlyCause.describe(path) : error.message)
        case let error as SQLiteError where error.isReadOnlyDirectory:
            self = .cannotOpen(path: path, reason: "its folder cannot be written, and SQLite must create the "
                                                   + "database's -wal and -shm files there")
        default:
            self = LogbookError.reported(error, path: path) as? LogbookError ?? .cannotOpen(path: path, reason: "\(error)")
        }
    }
}
