import Foundation
import SQLiteQuery

/// How an observation learns of commits: a connection of its own polls `PRAGMA data_version`,
/// which changes whenever any other connection, in this process or another, commits to the file
/// (for a store of SQLite's in-memory or temporary database, which no other connection can open,
/// the rows the store's own connection changed). A poll is one cheap pragma on an idle connection;
/// results are fetched again only when it moved.
public struct ObservationOptions: Sendable {
    /// How often the data version is read: the latency of an observation.
    public var interval: Duration = .milliseconds(50)

    /// Options that read the data version every `interval` (50 ms by default).
    public init(interval: Duration = .milliseconds(50)) { self.interval = interval }
}

/// Watches the store for commits from any connection or process, from the moment it is made.
///
/// Its connection has the store's options (busy timeout, `Connection.Options.stopsWaiting`),
/// read-only; its errors are the store's (``LogbookError``). A file deleted, moved or replaced
/// since the watcher was made is an error of the next ``hasChanged()``: the watcher's connection
/// would go on reading the file it opened, unchanged, while writers change the one at the path.
public final class ChangeWatcher: @unchecked Sendable {
    // Sendable by this lock: the version and what reads it are used by one caller at a time.
    private let lock = NSLock()
    /// Reads what moves with each commit (``ObservationOptions``).
    private let version: () throws -> Int64
    private var lastVersion: Int64
    /// How a failure reaches the caller: as the store's errors do.
    private let reportError: @Sendable (Error) -> Error

    init(database: Database) throws {
        reportError = database.reportError
        do {
            if Connection.isPrivateDatabase(database.path) {
                version = { try database.withConnection { $0.totalChanges } }
            } else {
                var options = database.options
                options.readOnly = true
                // (An immutable connection reads the file as it was, and would see no commit.)
                options.immutable = false
                options.cacheSizeKiB = 64
                let connection = try Connection(path: database.path, options: options)
                version = {
                    try connection.refuseFollowingAMovedFile()
                    return Int64(try connection.dataVersion)
                }
            }
            lastVersion = try version()
        } catch {
            throw database.reportError(error)
        }
    }

    /// Whether anything was committed since the watcher was made or last asked.
    public func hasChanged() throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let current: Int64
        do { current = try version() } catch { throw reportError(error) }
        defer { lastVersion = current }
        return current != lastVersion
    }

    /// Blocks until a commit changes the file (returning true), polling every `interval`, or
    /// until `stop` returns true (returning false).
    @discardableResult
    public func wait(pollingEvery interval: Duration, stop: () -> Bool) throws -> Bool {
        // In microseconds, clamped where that overflows; usleep then clamps to 2^32 µs (over an hour).
        let (seconds, attoseconds) = interval.components
        let microseconds = seconds.magnitude >= UInt64(Int64.max / 1_000_000) ? (seconds < 0 ? 0 : Int64.max)
            : seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        while !stop() {
            if try hasChanged() { return true }
            usleep(UInt32(clamping: microseconds))
        }
        return false
    }
}

extension QueryableRepository where Record: Encodable & Sendable {
    /// The records `descriptor` selects now, then again each time a committed change (from this
    /// process or any other) alters them. Commits that leave the results as they were yield
    /// nothing; when many commits come at once, only the latest state is yielded. Cancelling the
    /// task that iterates (or dropping the sequence) stops all work. A fetch that fails (another
    /// program's value Logbook cannot read) ends the sequence with its error: observe again to go
    /// on; a ``LiveQuery`` keeps watching instead, with the failure in its `error`.
    ///
    /// ```swift
    /// for try await openDrafts in store.drafts.observe(FetchDescriptor(predicate: #Predicate { $0.submittedAt == nil })) {
    ///     render(openDrafts)
    /// }
    /// ```
    public func observe(_ descriptor: FetchDescriptor<Record>,
                        options: ObservationOptions = ObservationOptions()) -> AsyncThrowingStream<[Record], Error> {
        let query: RecordQuery
        do {
            query = try self.query(for: descriptor)
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return observe(query, options: options)
    }

    /// ``observe(_:options:)`` for a query in IR form (the CLI's `--watch`).
    public func observe(_ query: RecordQuery, options: ObservationOptions = ObservationOptions())
        -> AsyncThrowingStream<[Record], Error> {
        let repository = self
        return ObservedValues.stream(database: storage.database, options: options) { try await repository.fetch(query) }
    }
}

extension Logbook {
    /// A watcher of this file's commits, from now on: for the CLI's `--watch`.
    public func changeWatcher() throws -> ChangeWatcher { try ChangeWatcher(database: database) }
}
