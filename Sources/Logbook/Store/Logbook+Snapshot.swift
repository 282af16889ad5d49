import Foundation
import SQLiteQuery

extension Logbook {
    /// Runs `body` in one read transaction: every fetch, count, report and export that `body`
    /// makes through this store, on the calling thread, reads the same snapshot of the file, so
    /// that several reads agree with each other while other connections and programs write (a
    /// page of cards and tables made from several reports, a count beside the rows it counts).
    ///
    /// Other writers go on meanwhile and `body`'s reads do not see them. A write `body` makes
    /// through the store is refused on a store without read connections (in memory, or a file
    /// that is not in WAL mode), and elsewhere commits without being seen by `body`'s reads:
    /// write once it returns.
    public func readingOneSnapshot<Result>(_ body: () throws -> Result) throws -> Result {
        try database.read { _ in try body() }
    }

    /// ``readingOneSnapshot(_:)`` off the caller's thread; cancelling the task stops the SQL
    /// `body` runs.
    public func readingOneSnapshot<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await database.perform { try self.readingOneSnapshot(body) }
    }
}
