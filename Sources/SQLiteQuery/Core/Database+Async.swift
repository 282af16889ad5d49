import Foundation

extension Database {
    /// Runs `work` on the database's own queue, never on the caller's thread or actor, at the
    /// calling task's priority, and returns its result. Cancelling the calling task cancels the work's SQL through a ``Cancellation``:
    /// a statement running is interrupted, a transaction rolls back, and the call throws
    /// `CancellationError`.
    ///
    /// The store's `async` calls are each their synchronous form run this way, so a call from the
    /// main actor never waits for the file's lock on the main thread.
    public func perform<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        let cancellation = Cancellation()
        let queue = workQueues.queue(for: Task.currentPriority)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, Error>) in
                queue.async {
                    continuation.resume(with: Swift.Result {
                        do {
                            try cancellation.checkCancellation()
                            return try cancellation.run(work)
                        } catch where cancellation.isCancelled {
                            throw CancellationError()
                        }
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// `read(_:)` off the caller's thread: beside other reads and the write, in a snapshot.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Result) async throws -> Result {
        try await perform { try self.read(body) }
    }

    /// `write(_:)` off the caller's thread.
    public func write<Result: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Result) async throws -> Result {
        try await perform { try self.write(body) }
    }
}
