import Foundation
import SQLiteQuery

/// The `async` forms of the store's own calls: each runs its synchronous namesake on the store's
/// queue, never on the caller's thread or actor, and stops its SQL when the task is cancelled (an
/// import or repair then rolls back and writes nothing).
extension Logbook {
    /// Opens (creating and migrating) the database at `path` off the caller's thread, as
    /// ``init(path:timeZone:now:options:appMigrations:)`` does: what an app calls at launch.
    public static func open(path: String, timeZone: TimeZone = .current,
                            now: @escaping @Sendable () -> Date = Date.init,
                            options: Connection.Options = Connection.Options(),
                            appMigrations: Migrator? = nil) async throws -> Logbook {
        try await opening { try Logbook(path: path, timeZone: timeZone, now: now, options: options, appMigrations: appMigrations) }
    }

    /// Runs `open` on a thread of Dispatch's, off the caller's thread (a store has no queue of its
    /// own before it exists).
    private static func opening(_ open: @escaping @Sendable () throws -> Logbook) async throws -> Logbook {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try open() }) }
        }
    }

    /// `check()` off the caller's thread.
    public func check() async throws -> CheckReport {
        try await database.perform { try self.check() }
    }

    /// `repair(dryRun:)` off the caller's thread.
    public func repair(dryRun: Bool = false) async throws -> RepairReport {
        try await database.performWriting { try self.repair(dryRun: dryRun) }
    }

    /// `backup(to:)` off the caller's thread.
    public func backup(to path: String) async throws -> BackupSummary {
        try await database.perform { try self.backup(to: path) }
    }

    /// Imports the file at `url` off the caller's thread; cancelling the task rolls it back.
    public func importRecords(from url: URL, options: ImportOptions = ImportOptions()) async throws -> ImportSummary {
        try await database.performWriting { try self.importRecords(from: url, options: options) }
    }

    /// Imports `data` (the content of a file called `name`) off the caller's thread; cancelling
    /// the task rolls it back.
    public func importRecords(from data: Data, named name: String, options: ImportOptions = ImportOptions()) async throws -> ImportSummary {
        try await database.performWriting { try self.importRecords(from: data, named: name, options: options) }
    }

    /// The drafts `query` selects in `format`, off the caller's thread.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                             options: ExportOptions = ExportOptions()) async throws -> Data {
        try await database.perform { try self.exportDrafts(query, format: format, options: options) }
    }

    /// The days `query` selects in `format`, off the caller's thread.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                             options: ExportOptions = ExportOptions()) async throws -> Data {
        try await database.perform { try self.exportHistory(query, format: format, options: options) }
    }

    /// Writes the drafts `query` selects to the file at `url`, replaced whole, off the caller's thread.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat, options: ExportOptions = ExportOptions(),
                             to url: URL) async throws {
        try await database.perform { try self.exportDrafts(query, format: format, options: options, to: url) }
    }

    /// Writes the days `query` selects to the file at `url`, replaced whole, off the caller's thread.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat, options: ExportOptions = ExportOptions(),
                             to url: URL) async throws {
        try await database.perform { try self.exportHistory(query, format: format, options: options, to: url) }
    }

    /// The changes since `token` (every record without one) and the token to give next time,
    /// read off the caller's thread, as ``changes(since:_:)`` reads them.
    public func changes(since token: ChangeToken?) async throws -> (changes: [LoggedChange], token: ChangeToken) {
        try await database.perform {
            var changes: [LoggedChange] = []
            let next = try self.changes(since: token) { changes.append($0) }
            return (changes, next)
        }
    }

    /// Opens an existing database for reading only off the caller's thread, as
    /// ``openForReading(path:timeZone:options:)`` does.
    public static func openForReading(path: String, timeZone: TimeZone = .current,
                                      options: Connection.Options = Connection.Options()) async throws -> Logbook {
        try await opening { try Logbook.openForReading(path: path, timeZone: timeZone, options: options) }
    }

    /// Opens an existing database for inspection off the caller's thread, as
    /// ``inspect(path:timeZone:)`` does.
    public static func inspect(path: String, timeZone: TimeZone = .current) async throws -> Logbook {
        try await opening { try Logbook.inspect(path: path, timeZone: timeZone) }
    }

    /// `schemaVersion()` off the caller's thread.
    public func schemaVersion() async throws -> Int {
        try await database.perform { try self.schemaVersion() }
    }

    /// `migrationStatus()` off the caller's thread.
    public func migrationStatus() async throws -> [Migrator.Status] {
        try await database.perform { try self.migrationStatus() }
    }

    /// `appMigrationHistory()` off the caller's thread.
    public func appMigrationHistory() async throws -> [(set: String, migration: Migrator.AppliedMigration)] {
        try await database.perform { try self.appMigrationHistory() }
    }

    /// Imports `handle`'s content (named `file` in messages) off the caller's thread, reading it as
    /// the import goes; cancelling the task rolls it back.
    public func importRecords(from handle: FileHandle, file: String, options: ImportOptions = ImportOptions()) async throws -> ImportSummary {
        try await database.performWriting { try self.importRecords(from: handle, file: file, options: options) }
    }

    /// Writes the drafts `query` selects to `handle` at its current position, streaming, off the
    /// caller's thread; cancelling the task stops it between two records.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat, options: ExportOptions = ExportOptions(),
                             to handle: FileHandle) async throws {
        try await database.perform { try self.exportDrafts(query, format: format, options: options, to: handle) }
    }

    /// Writes the days `query` selects to `handle` at its current position, streaming, off the
    /// caller's thread; cancelling the task stops it between two records.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat, options: ExportOptions = ExportOptions(),
                              to handle: FileHandle) async throws {
        try await database.perform { try self.exportHistory(query, format: format, options: options, to: handle) }
    }

    /// `query(_:parameters:columns:row:)` off the caller's thread, its rows gathered: the column
    /// names and every row's values.
    public func query(_ sql: String, parameters: [String: DatabaseValue] = [:]) async throws
        -> (columns: [String], rows: [[DatabaseValue]]) {
        try await database.perform {
            var columns: [String] = [], rows: [[DatabaseValue]] = []
            try self.query(sql, parameters: parameters, columns: { columns = $0 }, row: { rows.append($0) })
            return (columns, rows)
        }
    }

    /// `logbookID()` off the caller's thread.
    public func logbookID() async throws -> String {
        try await database.perform { try self.logbookID() }
    }

    /// `changeLogRetentionDays()` off the caller's thread.
    public func changeLogRetentionDays() async throws -> Int {
        try await database.perform { try self.changeLogRetentionDays() }
    }

    /// `setChangeLogRetention(days:)` off the caller's thread.
    public func setChangeLogRetention(days: Int) async throws {
        try await database.performWriting { try self.setChangeLogRetention(days: days) }
    }
}
