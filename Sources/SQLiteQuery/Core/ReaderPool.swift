import Foundation

/// The read connections of a ``Database``: opened when reads overlap, at most `maximum` of them,
/// each used by one read transaction at a time. Under WAL each read sees the snapshot of the last
/// commit before it began, while the writer goes on, so reads in a process never wait behind its
/// write, nor a write behind its reads (as GRDB's `DatabasePool`).
///
/// A read that finds every connection in use waits for the next one given back: a thread asleep,
/// handed the connection (threads first, in the order they asked, since each holds a thread), a
/// task suspended, woken to ask again, so a waiting `async` read holds no thread.
final class ReaderPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [Connection] = []
    /// The reads waiting for a connection, first come first.
    private var waiters: [Waiter] = []
    /// The number of the next task to wait, to find it again when it is cancelled.
    private var nextTicket = 0
    /// Connections open or being opened.
    private var openCount = 0
    private let maximum: Int
    private let open: () throws -> Connection

    /// A pool that opens connections with `open`, never more than `maximum` (at least 1).
    init(maximum: Int, open: @escaping () throws -> Connection) {
        self.maximum = max(1, maximum)
        self.open = open
    }

    /// An idle connection, a new one while fewer than `maximum` are open, else the next given
    /// back, the calling thread asleep meanwhile.
    func take() throws -> Connection {
        switch answer(queueing: nil) {
        case .connection(let connection): return connection
        case .openOne: return try openReserved()
        case .queued, .full: break
        }
        let handoff = Handoff()
        switch answer(queueing: handoff) {
        case .connection(let connection): return connection
        case .openOne: return try openReserved()
        case .queued, .full: return try handoff.wait() ?? openReserved()
        }
    }

    /// ``take()`` for a task: it suspends, holding no thread, while every connection is in use.
    ///
    /// A connection given back is handed straight to a waiting thread, which is running or wakes
    /// at once; a waiting task is only woken to ask again, since it may not get a thread to run on
    /// before the threads that need that connection, and a connection reserved for it would then
    /// wait with them.
    /// Cancelling the task stops its wait (`CancellationError`). A task woken to ask again that
    /// is cancelled before it asks passes the wake on to the next waiting task: otherwise that
    /// task slept beside an idle connection until some other read gave one back (helper-83).
    func take() async throws -> Connection {
        while true {
            if Task.isCancelled {
                wakeNextTaskIfAConnectionIsFree()
                throw CancellationError()
            }
            switch answer(queueing: nil) {
            case .connection(let connection): return connection
            case .openOne: return try openReserved()
            case .queued, .full: break
            }
            let ticket = newTicket()
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    if !queueWhileFull(continuation, ticket: ticket) { continuation.resume() }
                }
            } onCancel: {
                wake(ticket)
            }
        }
    }

    /// Makes `connection`, taken from this pool and out of any transaction, available again: to
    /// the thread waiting longest, else to whoever asks next (a waiting task is woken to ask).
    func giveBack(_ connection: Connection) {
        release(connection)
    }

    /// How many read connections are open.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return openCount
    }

    /// A read waiting for a connection.
    private enum Waiter {
        /// A thread asleep until it is handed a connection (nil: a place to open one).
        case thread(Handoff)
        /// A task suspended until it is woken to ask again (or cancelled).
        case task(ticket: Int, CheckedContinuation<Void, Never>)
    }

    /// What a read asking for a connection gets.
    private enum Answer {
        /// An idle connection.
        case connection(Connection)
        /// A place reserved to open a new one.
        case openOne
        /// A place in the queue of waiters.
        case queued
        /// Nothing: every connection is in use (and the read did not offer to wait).
        case full
    }

    private func answer(queueing waiter: Handoff?) -> Answer {
        lock.lock()
        defer { lock.unlock() }
        if let connection = idle.popLast() { return .connection(connection) }
        if openCount < maximum {
            openCount += 1
            return .openOne
        }
        guard let waiter else { return .full }
        waiters.append(.thread(waiter))
        return .queued
    }

    private func newTicket() -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextTicket += 1
        return nextTicket
    }

    /// Queues `continuation` to be woken when a connection is given back, unless one is idle or
    /// may be opened now, or the task is cancelled (false: ask again). Checked under the lock
    /// that ``wake(_:)`` takes, so a cancellation is never missed.
    private func queueWhileFull(_ continuation: CheckedContinuation<Void, Never>, ticket: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard idle.isEmpty && openCount >= maximum && !Task.isCancelled else { return false }
        waiters.append(.task(ticket: ticket, continuation))
        return true
    }

    /// Wakes the task waiting with `ticket`, if it still waits.
    private func wake(_ ticket: Int) {
        lock.lock()
        guard let index = waiters.firstIndex(where: { if case .task(ticket, _) = $0 { true } else { false } }),
              case .task(_, let continuation) = waiters.remove(at: index) else {
            lock.unlock()
            return
        }
        lock.unlock()
        continuation.resume()
    }

    /// Wakes the task waiting longest, if one waits while a connection is idle or may be opened.
    private func wakeNextTaskIfAConnectionIsFree() {
        lock.lock()
        guard !idle.isEmpty || openCount < maximum,
              let index = waiters.firstIndex(where: { if case .task = $0 { true } else { false } }),
              case .task(_, let continuation) = waiters.remove(at: index) else {
            lock.unlock()
            return
        }
        lock.unlock()
        continuation.resume()
    }

    /// Opens a connection in a place reserved for it, giving the place up if that fails.
    private func openReserved() throws -> Connection {
        do {
            return try open()
        } catch {
            release(nil)
            throw error
        }
    }

    /// Hands `connection` (nil: the place of one that failed to open) to the thread waiting
    /// longest, if one waits; otherwise keeps it, and wakes the task waiting longest, if one waits
    /// and no one took the connection meanwhile, to ask again.
    private func release(_ connection: Connection?) {
        lock.lock()
        if let index = waiters.firstIndex(where: { if case .thread = $0 { true } else { false } }),
           case .thread(let handoff) = waiters.remove(at: index) {
            lock.unlock()
            handoff.hand(connection)
            return
        }
        if let connection { idle.append(connection) } else { openCount -= 1 }
        lock.unlock()
        wakeNextTaskIfAConnectionIsFree()
    }
}

/// A connection handed from one thread to another that sleeps until it comes.
private final class Handoff: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var connection: Connection?

    func hand(_ connection: Connection?) {
        self.connection = connection
        ready.signal()
    }

    func wait() -> Connection? {
        ready.wait()
        return connection
    }
}
