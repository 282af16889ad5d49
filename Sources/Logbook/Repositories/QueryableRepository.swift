import Foundation
import SQLiteQuery

/// Fetching and counting with `FetchDescriptor`s (a `#Predicate`, `[SortDescriptor]`, limit and
/// offset) or their IR form, shared by both repositories. The predicate and the sort run in
/// SQLite; a predicate that cannot be translated exactly throws ``LogbookError/unsupportedQuery(_:)``.
public protocol QueryableRepository: Sendable {
    associatedtype Record
    var database: Database { get }
    var table: TableDescription<Record> { get }
    static var schema: QuerySchema<Record> { get }
}

extension QueryableRepository {
    /// The records `descriptor` selects, in its order.
    public func fetch(_ descriptor: FetchDescriptor<Record>) throws -> [Record] {
        try fetch(try query(for: descriptor))
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
    /// A day compared with a date field means the start of that day in `timeZone`. Throws
    /// ``LogbookError/invalidFilter(_:message:position:)`` naming the place of the problem.
    public func query(where filter: String, timeZone: TimeZone = .current) throws -> RecordQuery {
        do {
            return RecordQuery(condition: try Self.schema.condition(for: try FilterParser.parse(filter), timeZone: timeZone))
        } catch let error as FilterParser.SyntaxError {
            throw LogbookError.invalidFilter(filter, message: error.message, position: error.position)
        } catch let error as QueryError {
            throw LogbookError.invalidFilter(filter, message: error.description, position: error.position)
        }
    }

    /// `descriptor` in IR form; one that cannot be run exactly throws
    /// ``LogbookError/unsupportedQuery(_:)``, naming the construct.
    func query(for descriptor: FetchDescriptor<Record>) throws -> RecordQuery {
        do {
            return try Self.schema.query(for: descriptor)
        } catch {
            throw LogbookError.reported(error, path: database.path)
        }
    }

    public func fetch(_ query: RecordQuery) throws -> [Record] {
        var records: [Record] = []
        try forEach(query) { records.append($0) }
        return records
    }

    /// Calls `body` with each record `query` selects, one at a time, in one read transaction:
    /// memory stays flat however many records there are.
    public func forEach(_ query: RecordQuery, _ body: (Record) throws -> Void) throws {
        try database.read { connection in
            let cursor = try table.cursor(try table.page(query, schema: Self.schema, in: connection), in: connection)
            while let record = try cursor.next() { try body(record) }
        }
    }

    public func count(_ query: RecordQuery) throws -> Int {
        try database.read { try table.count(query, in: $0) }
    }
}

extension DraftRepository: QueryableRepository {
    public static var schema: QuerySchema<ReleaseDraft> { Tables.drafts.querySchema }
}

extension HistoryRepository: QueryableRepository {
    public static var schema: QuerySchema<ExerciseDay> { Tables.exerciseDays.querySchema }
}
