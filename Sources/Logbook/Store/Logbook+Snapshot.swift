import Foundation
import SQLiteQuery

extension Logbook {
    /// Runs `body` in one read transaction: every fetch, count, report, export and change-feed
    /// read that `body` makes through this store, on the calling thread, reads the same snapshot
    /// of the file (the one its first statement sees), so that several reads agree with each
    /// other while other connections and programs write (a page of cards and tables made from
    /// several reports, a count beside the rows it counts). ``query(_:parameters:columns:row:)`` is not part
    /// of it: it reads on a connection of its own.
    ///
    /// Other writers go on meanwhile and `body`'s reads do not see them. A write that `body` makes
    /// through the store is refused where the read runs on the store's writer (in memory, a file
    /// not in WAL mode, a store opened with no read connections, a call made inside a write), and
    /// elsewhere commits without being seen by `body`'s reads: write once it returns. A call inside
    /// another reads in the outer one's snapshot.
    public func readingOneSnapshot<Result>(_ body: () throws -> Result) throws -> Result {
        try database.read { _ in try body() }
    }

    /// ``readingOneSnapshot(_:)`` off the caller's actor, on a read connection as other `async`
    /// reads are; cancelling the task stops the SQL `body` runs.
    public func readingOneSnapshot<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await database.performReading { try self.readingOneSnapshot(body) }
    }
}
