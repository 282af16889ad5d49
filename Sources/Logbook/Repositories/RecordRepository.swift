import Foundation
import SQLiteQuery

/// The records of an app's own type, kept in the store's file beside drafts and days: declared
/// once as a `TableDescription` (columns by key path, child collections), created by the app's
/// migration set (see ``Logbook/init(path:timeZone:now:options:appMigrations:)``), with the
/// repositories' API: save, delete, fetch with `#Predicate` and `SortDescriptor`, count, observe,
/// live queries, and `async` forms of each.
///
/// ```swift
/// let notes = store.records(notesTable)
/// try await notes.save(Note(title: "Pack the bag"))
/// let recent = try await notes.fetch(FetchDescriptor(predicate: #Predicate { $0.createdAt > cutoff }))
/// ```
public struct RecordRepository<Record: Sendable>: QueryableRepository {
    let database: Database
    let table: TableDescription<Record>

    /// The store's database and the record type's table declaration.
    public var storage: RepositoryStorage<Record> { RepositoryStorage(database: database, table: table) }

    /// Inserts `record`, or replaces the stored one with the same identity, child collections included.
    public func save(_ record: Record) throws {
        try database.write { _ = try table.upsert(record, in: $0) }
    }

    /// Saves every record in one transaction: all or none.
    public func save(contentsOf records: some Sequence<Record>) throws {
        try database.write { connection in
            for record in records { try table.upsert(record, in: connection) }
        }
    }

    /// The record whose identity column holds `identity`, or nil.
    public func fetch(identity: some SQLiteValue & Sendable) throws -> Record? {
        try database.read { try table.fetchOne(identity: identity, in: $0) }
    }

    /// Deletes the record whose identity column holds `identity`, and its owned child rows.
    /// Returns whether there was one.
    @discardableResult
    public func delete(identity: some SQLiteValue & Sendable) throws -> Bool {
        try database.write { try table.delete(identity: identity, in: $0) }
    }

    /// `save(_:)` off the caller's thread.
    public func save(_ record: Record) async throws {
        try await database.performWriting { try self.save(record) }
    }

    /// `save(contentsOf:)` off the caller's thread.
    public func save(contentsOf records: [Record]) async throws {
        try await database.performWriting { try self.save(contentsOf: records) }
    }

    /// `fetch(identity:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetch(identity: some SQLiteValue & Sendable) async throws -> Record? {
        try await database.performReading { try self.fetch(identity: identity) }
    }

    /// `delete(identity:)` off the caller's thread.
    @discardableResult
    public func delete(identity: some SQLiteValue & Sendable) async throws -> Bool {
        try await database.performWriting { try self.delete(identity: identity) }
    }
}

extension Logbook {
    /// The repository of an app's own record type, declared by `table`, whose tables the app's
    /// migration set creates.
    public func records<Record: Sendable>(_ table: TableDescription<Record>) -> RecordRepository<Record> {
        RecordRepository(database: database, table: table)
    }
}
