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
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result {
                    try Logbook(path: path, timeZone: timeZone, now: now, options: options, appMigrations: appMigrations)
                })
            }
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
}
