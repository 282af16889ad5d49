import Foundation
import SQLiteQuery

/// How an observation learns of commits: a connection of its own polls `PRAGMA data_version`,
/// which changes whenever any other connection, in this process or another, commits to the file.
/// A poll is one cheap pragma on an idle connection; results are fetched again only when it moved.
public struct ObservationOptions: Sendable {
    /// How often the data version is read: the latency of an observation.
    public var interval: Duration = .milliseconds(50)

    /// Options that read the data version every `interval` (50 ms by default).
    public init(interval: Duration = .milliseconds(50)) { self.interval = interval }
}

/// Watches the file for commits from any connection or process, from the moment it is made.
public final class ChangeWatcher: @unchecked Sendable {
    // Sendable by this lock: the connection and the version are used by one caller at a time.
    private let lock = NSLock()
    private let connection: Connection
    private var lastVersion: Int

    init(path: String) throws {
        var options = Connection.Options()
        options.readOnly = true
        options.cacheSizeKiB = 64
        connection = try Connection(path: path, options: options)
        lastVersion = try connection.dataVersion
    }

    /// Whether anything was committed since the watcher was made or last asked.
    public func hasChanged() throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let version = try connection.dataVersion
        defer { lastVersion = version }
        return version != lastVersion
    }

    /// Blocks until a commit changes the file (returning true), polling every `interval`, or
    /// until `stop` returns true (returning false).
    @discardableResult
    public func wait(pollingEvery interval: Duration, stop: () -> Bool) throws -> Bool {
        let microseconds = interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000
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
    /// task that iterates (or dropping the sequence) stops all work.
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
        return ObservedValues.stream(path: storage.database.path, options: options) { try await repository.fetch(query) }
    }
}

extension Logbook {
    /// A watcher of this file's commits, from now on: for the CLI's `--watch`.
    public func changeWatcher() throws -> ChangeWatcher { try ChangeWatcher(path: path) }
}
