import Foundation
import SQLiteQuery

/// Fetching and counting with `FetchDescriptor`s (a `#Predicate`, `[SortDescriptor]`, limit and
/// offset) or their IR form, shared by both repositories. The predicate and the sort run in
/// SQLite; a predicate that cannot be translated exactly throws ``LogbookError/unsupportedQuery(_:)``.
public protocol QueryableRepository: Sendable {
    /// The record type fetched: ``ReleaseDraft``, ``ExerciseDay``, or an app's own.
    associatedtype Record
    /// Where the records live and how they are declared; opaque outside Logbook.
    var storage: RepositoryStorage<Record> { get }
}

/// The database and the table declaration a repository reads. Its members are Logbook's own:
/// SQL of your own goes through ``Logbook/underlyingDatabase``.
public struct RepositoryStorage<Record> {
    let database: Database
    let table: TableDescription<Record>
    /// The record type's fields for predicates, sorts and `--where` filters.
    var schema: QuerySchema<Record> { table.querySchema }
}

extension QueryableRepository {
    /// The records `descriptor` selects, in its order.
    @inlinable  // so that gathering the records is compiled for the concrete record type (see `fetch(_:)` of a query)
    public func fetch(_ descriptor: FetchDescriptor<Record>) throws -> [Record] {
        try fetch(try query(for: descriptor))
    }

    /// Calls `body` with each record `descriptor` selects, one at a time, in its order and in one read
    /// transaction: what `fetch(_:)` of the descriptor gathers, without the array, so memory stays flat
    /// however many records there are.
    ///
    /// ```swift
    /// try store.drafts.forEach(FetchDescriptor(predicate: #Predicate { $0.submittedAt == nil })) { draft in
    ///     print(draft.version, draft.checklist.doneCount)
    /// }
    /// ```
    public func forEach(_ descriptor: FetchDescriptor<Record>, _ body: (Record) throws -> Void) throws {
        try forEach(try query(for: descriptor), body)
    }

    /// How many records `descriptor`'s predicate matches (its sort, limit and offset are ignored,
    /// as in SwiftData's `fetchCount`).
    public func fetchCount(_ descriptor: FetchDescriptor<Record> = FetchDescriptor()) throws -> Int {
        try count(try query(for: descriptor))
    }

    /// The fetch that a filter in the text language selects (what `logbook … --where` takes):
    ///
    /// ```swift
    /// let query = try store.history.query(where: #"exercises contains "Burpee" && day >= 2026-01-01"#)
    /// let days = try store.history.fetch(query)
    /// ```
    ///
    /// A day compared with a date field means that whole day in `timeZone` (`==` within it). Throws
    /// ``LogbookError/invalidFilter(_:message:position:)`` naming the place of the problem.
    public func query(where filter: String, timeZone: TimeZone = .current) throws -> RecordQuery {
        do {
            return RecordQuery(condition: try storage.schema.condition(for: try FilterParser.parse(filter, timeZone: timeZone), timeZone: timeZone))
        } catch let error as FilterParser.SyntaxError {
            throw LogbookError.invalidFilter(filter, message: error.message, position: error.position)
        } catch let error as QueryError {
            throw LogbookError.invalidFilter(filter, message: error.description, position: error.position)
        }
    }

    /// `descriptor` in IR form; one that cannot be run exactly throws
    /// ``LogbookError/unsupportedQuery(_:)``, naming the construct.
    @usableFromInline
    func query(for descriptor: FetchDescriptor<Record>) throws -> RecordQuery {
        do {
            return try storage.schema.query(for: descriptor)
        } catch {
            throw LogbookError.reported(error, path: storage.database.path)
        }
    }

    /// The records `query` selects (its condition, order, limit and offset), gathered into an array;
    /// `forEach(_:_:)` streams them instead.
    ///
    /// Inlinable: generic at run time, each append to the array looked up its type's metadata.
    @inlinable
    public func fetch(_ query: RecordQuery) throws -> [Record] {
        var records: [Record] = []
        try forEach(query) { records.append($0) }
        return records
    }

    /// Calls `body` with each record `query` selects, one at a time, in one read transaction:
    /// memory stays flat however many records there are. Inside an `async` call (an export, the
    /// `async` form of this method), cancelling the task stops the walk between two records.
    public func forEach(_ query: RecordQuery, _ body: (Record) throws -> Void) throws {
        let storage = self.storage
        let (table, schema) = (storage.table, storage.schema)
        try storage.database.read { connection in
            let cursor = try table.cursor(try table.page(query, schema: schema, in: connection), in: connection)
            let cancellation = Cancellation.current
            try cursor.forEach { record in
                try cancellation?.checkCancellation()
                try body(record)
            }
        }
    }

    /// How many records `query`'s condition matches; its order, limit and offset are ignored.
    public func count(_ query: RecordQuery) throws -> Int {
        try storage.database.read { try storage.table.count(query, in: $0) }
    }
}

extension DraftRepository: QueryableRepository {
    /// The store's database and the `drafts` table declaration.
    public var storage: RepositoryStorage<ReleaseDraft> { RepositoryStorage(database: database, table: table) }
    /// The draft fields that predicates, sorts and `--where` filters can use.
    public static var schema: QuerySchema<ReleaseDraft> { Tables.drafts.querySchema }
}

extension HistoryRepository: QueryableRepository {
    /// The store's database and the `exercise_days` table declaration.
    public var storage: RepositoryStorage<ExerciseDay> { RepositoryStorage(database: database, table: table) }
    /// The exercise-day fields that predicates, sorts and `--where` filters can use.
    public static var schema: QuerySchema<ExerciseDay> { Tables.exerciseDays.querySchema }
}
