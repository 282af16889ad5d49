import Foundation

/// The turns of a ``Database``'s `async` writes: one at a time goes to the queue, and the others
/// wait suspended, in the order they came, holding no thread.
///
/// A write handed to the queue waits there, on a thread, for the writer (behind an import in this
/// process) or for the file's lock (behind another process, up to the busy timeout). On Linux the
/// queue's threads are the ones Swift's tasks run on too, and the pool adds about one a second, so
/// a few blocked writes would stall every task in the process for seconds.
final class WriteTurns: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits, suspended, until no other `async` write has the turn, and takes it.
    func take() async {
        if takeIfFree() { return }
        await withCheckedContinuation { continuation in
            lock.lock()
            if taken {
                waiting.append(continuation)
                lock.unlock()
            } else {
                taken = true
                lock.unlock()
                continuation.resume()
            }
        }
    }

    /// Gives the turn to the write waiting longest, or frees it.
    func giveBack() {
        lock.lock()
        guard !waiting.isEmpty else {
            taken = false
            lock.unlock()
            return
        }
        let next = waiting.removeFirst()
        lock.unlock()
        next.resume()
    }

    private func takeIfFree() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if taken { return false }
        taken = true
        return true
    }
}
