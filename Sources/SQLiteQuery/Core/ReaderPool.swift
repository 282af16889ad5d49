import Foundation

/// The read connections of a ``Database``: opened when reads overlap, at most `maximum` of them,
/// each used by one read transaction at a time. Under WAL each read sees the snapshot of the last
/// commit before it began, while the writer goes on, so reads in a process never wait behind its
/// write, nor a write behind its reads (as GRDB's `DatabasePool`).
final class ReaderPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var openCount = 0
    private let maximum: Int
    private let open: () throws -> Connection

    /// A pool that opens connections with `open`, never more than `maximum` (at least 1).
    init(maximum: Int, open: @escaping () throws -> Connection) {
        self.maximum = max(1, maximum)
        self.open = open
    }

    /// An idle connection, a new one while fewer than `maximum` are open, else the first returned.
    func take() throws -> Connection {
        condition.lock()
        while idle.isEmpty && openCount >= maximum { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        openCount += 1
        condition.unlock()
        do {
            return try open()
        } catch {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Makes `connection`, taken from this pool and out of any transaction, available again.
    func giveBack(_ connection: Connection) {
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    /// How many read connections are open.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }
}
