import Foundation

/// The read connections of a ``Database``: opened when reads overlap, at most `maximum` of them,
/// each used by one read transaction at a time. Under WAL each read sees the snapshot of the last
/// commit before it began, while the writer goes on, so reads in a process never wait behind its
/// write, nor a write behind its reads (as GRDB's `DatabasePool`).
///
/// A read that finds every connection in use waits for the next one given back, in the order the
/// reads asked: a thread asleep, a task suspended, so a waiting `async` read holds no thread.
final class ReaderPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [Connection] = []
    /// The reads waiting for a connection, first come first.
    private var waiters: [Waiter] = []
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
        switch answer(queueing: .thread(handoff)) {
        case .connection(let connection): return connection
        case .openOne: return try openReserved()
        case .queued, .full: return try handoff.wait() ?? openReserved()
        }
    }

    /// ``take()`` for a task: it suspends, holding no thread, while every connection is in use.
    func take() async throws -> Connection {
        switch answer(queueing: nil) {
        case .connection(let connection): return connection
        case .openOne: return try openReserved()
        case .queued, .full: break
        }
        let handed = await withCheckedContinuation { (continuation: CheckedContinuation<Handed, Never>) in
            switch answer(queueing: .task(continuation)) {
            case .connection(let connection): continuation.resume(returning: Handed(connection: connection))
            case .openOne: continuation.resume(returning: Handed(connection: nil))
            case .queued, .full: break
            }
        }
        return try handed.connection ?? openReserved()
    }

    /// Makes `connection`, taken from this pool and out of any transaction, available again: to
    /// the read waiting longest, if one waits.
    func giveBack(_ connection: Connection) {
        release(connection)
    }

    /// How many read connections are open.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return openCount
    }

    /// A read waiting for a connection; given nil, it opens one in the place reserved for it.
    private enum Waiter {
        case thread(Handoff)
        case task(CheckedContinuation<Handed, Never>)

        func hand(_ connection: Connection?) {
            switch self {
            case .thread(let handoff): handoff.hand(connection)
            case .task(let continuation): continuation.resume(returning: Handed(connection: connection))
            }
        }
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

    private func answer(queueing waiter: Waiter?) -> Answer {
        lock.lock()
        defer { lock.unlock() }
        if let connection = idle.popLast() { return .connection(connection) }
        if openCount < maximum {
            openCount += 1
            return .openOne
        }
        guard let waiter else { return .full }
        waiters.append(waiter)
        return .queued
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

    /// Hands `connection` (nil: the place of one that failed to open) to the read waiting
    /// longest, or keeps it for the next.
    private func release(_ connection: Connection?) {
        lock.lock()
        guard waiters.isEmpty else {
            let waiter = waiters.removeFirst()
            lock.unlock()
            waiter.hand(connection)
            return
        }
        if let connection { idle.append(connection) } else { openCount -= 1 }
        lock.unlock()
    }
}

/// A connection handed to a waiting read (nil: a place to open one). The pool gives each
/// connection to one read at a time, so handing it over races with nothing.
private struct Handed: @unchecked Sendable {
    let connection: Connection?
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
