import Foundation

extension QueryableRepository where Record: Sendable {
    /// `fetch(_:)` off the caller's actor, on a read connection of its own; cancelling the task
    /// stops the fetch. Like every read here, it runs in place when called from a task off any
    /// actor and a read connection is free (`Database.performReading(_:)`).
    public func fetch(_ descriptor: FetchDescriptor<Record>) async throws -> [Record] {
        try await storage.database.performReading { try self.fetch(descriptor) }
    }

    /// `fetchCount(_:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetchCount(_ descriptor: FetchDescriptor<Record> = FetchDescriptor()) async throws -> Int {
        try await storage.database.performReading { try self.fetchCount(descriptor) }
    }

    /// `fetch(_:)` of a `RecordQuery` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetch(_ query: RecordQuery) async throws -> [Record] {
        try await storage.database.performReading { try self.fetch(query) }
    }

    /// `count(_:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func count(_ query: RecordQuery) async throws -> Int {
        try await storage.database.performReading { try self.count(query) }
    }
}

extension QueryableRepository where Record: Sendable {
    /// `forEach(_:_:)` off the caller's actor: `body` gets each record `query` selects, one at a
    /// time, in one read transaction on a read connection, so memory stays flat; cancelling the task
    /// stops the walk between two records (`CancellationError`).
    public func forEach(_ query: RecordQuery, _ body: @escaping @Sendable (Record) throws -> Void) async throws {
        try await storage.database.performReading { try self.forEach(query, body) }
    }

    /// `forEach(_:_:)` of a `FetchDescriptor` off the caller's actor: `body` gets each record the
    /// descriptor selects, in its order, one at a time, in one read transaction on a read
    /// connection; cancelling the task stops the walk between two records (`CancellationError`).
    public func forEach(_ descriptor: FetchDescriptor<Record>, _ body: @escaping @Sendable (Record) throws -> Void) async throws {
        try await storage.database.performReading { try self.forEach(descriptor, body) }
    }
}
