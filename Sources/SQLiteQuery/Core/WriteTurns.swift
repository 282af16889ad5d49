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
    /// The writes waiting, first come first, each with a number to find it by when it is cancelled.
    private var waiting: [(ticket: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextTicket = 0

    /// Waits, suspended, until no other `async` write has the turn, and takes it. Cancelling the
    /// task stops the wait (`CancellationError`).
    func take() async throws {
        guard let ticket = takeOrTicket() else { return }
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                lock.lock()
                if !taken {
                    taken = true
                    lock.unlock()
                    continuation.resume(returning: true)
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: false)
                } else {
                    // Checked under the lock `withdraw` takes, so a cancellation is never missed.
                    waiting.append((ticket, continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            withdraw(ticket)
        }
        if !granted { throw CancellationError() }
    }

    /// Takes the turn if it is free (nil), else gives a number to wait with.
    private func takeOrTicket() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        if !taken {
            taken = true
            return nil
        }
        nextTicket += 1
        return nextTicket
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
        next.continuation.resume(returning: true)
    }

    /// Ends the wait of the write with `ticket`, cancelled, if it still waits.
    private func withdraw(_ ticket: Int) {
        lock.lock()
        guard let index = waiting.firstIndex(where: { $0.ticket == ticket }) else {
            lock.unlock()
            return
        }
        let withdrawn = waiting.remove(at: index)
        lock.unlock()
        withdrawn.continuation.resume(returning: false)
    }
}
