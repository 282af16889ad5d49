import Foundation

extension QueryableRepository where Record: Sendable {
    /// `fetch(_:)` off the caller's thread, on a read connection of its
    /// own; cancelling the task stops the fetch.
    public func fetch(_ descriptor: FetchDescriptor<Record>) async throws -> [Record] {
        try await storage.database.perform { try self.fetch(descriptor) }
    }

    /// `fetchCount(_:)` off the caller's thread.
    public func fetchCount(_ descriptor: FetchDescriptor<Record> = FetchDescriptor()) async throws -> Int {
        try await storage.database.perform { try self.fetchCount(descriptor) }
    }

    /// `fetch(_:)` of a `RecordQuery` off the caller's thread.
    public func fetch(_ query: RecordQuery) async throws -> [Record] {
        try await storage.database.perform { try self.fetch(query) }
    }

    /// `count(_:)` off the caller's thread.
    public func count(_ query: RecordQuery) async throws -> Int {
        try await storage.database.perform { try self.count(query) }
    }
}
