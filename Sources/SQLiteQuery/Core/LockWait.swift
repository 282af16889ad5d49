import CSQLite
import Foundation

/// How a connection waits for another connection's lock, when its ``Connection/Options`` give
/// ``Connection/Options/stopsWaiting``: up to the busy timeout, as SQLite's own busy timeout
/// waits, but asking every few milliseconds whether to stop, and failing with `SQLITE_BUSY` at
/// once when told to. (SQLite's busy timeout cannot be cut short: `sqlite3_interrupt` stops
/// statements, not the wait for a lock, so a `--watch` stopped by Ctrl-C while another program
/// held the file waited out the timeout and then failed.)
///
/// It is SQLite's busy handler, so it serves the waits SQLite hands to one: for a rollback
/// journal's locks and a write-ahead log's write lock, not the few retries SQLite makes on its
/// own while a log is recovered. `PRAGMA busy_timeout` or `sqlite3_busy_timeout` on the
/// connection afterwards replaces it, and the stop with it.
final class LockWait {
    private let timeout: Duration
    private let stopsWaiting: @Sendable () -> Bool
    /// When the wait under way gives up.
    private var deadline = ContinuousClock.now

    /// The longest sleep between two looks at the lock, and so the longest a stop waits to be seen.
    private static let longestSleep = Duration.milliseconds(10)

    private init(timeout: Duration, stopsWaiting: @escaping @Sendable () -> Bool) {
        self.timeout = timeout
        self.stopsWaiting = stopsWaiting
    }

    /// Makes `handle` wait for locks as `options` say: SQLite's busy timeout, or, with
    /// `stopsWaiting`, a wait of this type's, returned for the connection to keep as long as the
    /// handle is open (SQLite holds it unretained).
    static func install(on handle: OpaquePointer, options: Connection.Options) -> LockWait? {
        guard let stopsWaiting = options.stopsWaiting else {
            sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds)
            return nil
        }
        let wait = LockWait(timeout: .milliseconds(options.busyTimeoutMilliseconds), stopsWaiting: stopsWaiting)
        sqlite3_busy_handler(handle, { context, attempts in
            Unmanaged<LockWait>.fromOpaque(context!).takeUnretainedValue().shouldRetry(afterAttempts: attempts)
        }, Unmanaged.passUnretained(wait).toOpaque())
        return wait
    }

    /// SQLite's busy handler: called each time an attempt found the lock taken, `attempts` times
    /// before in the same wait (0 starts the wait's timeout). Sleeps 1, 2, 4, 8, then 10 ms at a
    /// time, and answers 1 to try again, 0 to fail with `SQLITE_BUSY`.
    private func shouldRetry(afterAttempts attempts: Int32) -> Int32 {
        let now = ContinuousClock.now
        if attempts == 0 { deadline = now + timeout }
        guard now < deadline, !stopsWaiting() else { return 0 }
        let sleep = min(Self.longestSleep, .milliseconds(1 << min(attempts, 4)), deadline - now)
        Thread.sleep(forTimeInterval: Self.seconds(sleep))
        return stopsWaiting() ? 0 : 1
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// Whether a wait of Logbook's own for a lock (one SQLite does not wait for) that started at
    /// `start` is over under `options`: the busy timeout has passed, or it was told to stop.
    static func isOver(startedAt start: ContinuousClock.Instant, _ options: Connection.Options) -> Bool {
        ContinuousClock.now >= start + .milliseconds(options.busyTimeoutMilliseconds) || options.stopsWaiting?() == true
    }
}
