import CSQLite
import Foundation

/// Stops the SQL of one operation from another thread: the `async` forms of a store's calls make
/// one per call and cancel it when their task is cancelled.
///
/// While ``run(_:)`` runs its body, every `Database.read(_:)` and `Database.write(_:)` in it
/// attaches the token to the connection it uses. ``cancel()`` then interrupts the statement running
/// there (`sqlite3_interrupt`), and a progress handler makes every statement the operation steps
/// afterwards fail with `SQLITE_INTERRUPT`, so the transaction rolls back and nothing is written.
/// Loops that run between statements (parsing an import, writing an export) call
/// ``checkCancellation()``.
public final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    /// The connections the operation is inside now, outermost first (a write nested in a read adds the writer).
    private var connections: [Connection] = []
    /// SQLite virtual-machine steps between two checks of a running statement (tens of microseconds:
    /// a check takes a lock, and a fetch makes thousands of steps).
    private static let progressInterval: Int32 = 20_000

    /// A token that has not been cancelled.
    public init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Cancels the operation: the statement running now is interrupted and every later one fails.
    public func cancel() {
        lock.lock()
        defer { lock.unlock() }
        cancelled = true
        for connection in connections { sqlite3_interrupt(connection.handle) }
    }

    /// Throws `CancellationError` once the operation is cancelled.
    public func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `body` on this thread with this token as ``current``.
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        let thread = ThreadState.current
        let previous = thread.cancellation
        thread.cancellation = self
        defer { thread.cancellation = previous }
        return try body()
    }

    /// The token of the operation this thread runs, if it runs one.
    public static var current: Cancellation? { ThreadState.current.cancellation }

    /// Throws `CancellationError` when the operation this thread runs is cancelled.
    public static func checkCurrent() throws {
        try current?.checkCancellation()
    }

    /// Watches the statements of `connection` until ``detach(from:)``.
    func attach(to connection: Connection) throws {
        lock.lock()
        defer { lock.unlock() }
        if cancelled { throw CancellationError() }
        connections.append(connection)
        sqlite3_progress_handler(connection.handle, Self.progressInterval, { context in
            Unmanaged<Cancellation>.fromOpaque(context!).takeUnretainedValue().isCancelled ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops watching `connection`, before another operation may use it.
    func detach(from connection: Connection) {
        lock.lock()
        defer { lock.unlock() }
        sqlite3_progress_handler(connection.handle, 0, nil, nil)
        if let index = connections.lastIndex(where: { $0 === connection }) { connections.remove(at: index) }
    }
}
