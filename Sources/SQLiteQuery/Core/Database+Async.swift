import Foundation

extension Database {
    /// Runs `work` on the database's own queue, never on the caller's thread or actor, at the
    /// calling task's priority, and returns its result. Cancelling the calling task cancels the work's SQL through a ``Cancellation``:
    /// a statement running is interrupted, a transaction rolls back, and the call throws
    /// `CancellationError`.
    ///
    /// The store's `async` calls that write, or may run long, are each their synchronous form run
    /// this way, so a call from the main actor never waits for the file's lock on the main thread.
    public func perform<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        let queue = workQueues.queue(for: Task.currentPriority)
        return try await cancellable { cancellation in
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, Error>) in
                queue.async {
                    continuation.resume(with: Swift.Result { try Self.run(work, watchedBy: cancellation) })
                }
            }
        }
    }

    /// Runs `work`, which only reads, off the caller's actor, with the same cancellation as
    /// ``perform(_:)``; its reads share one read connection.
    ///
    /// Under WAL a read on its own connection waits for no lock (short of another process
    /// recovering the log after a crash, or holding the file in exclusive locking mode: then up to
    /// the busy timeout), so the work runs where a nonisolated `async` function runs, on Swift's
    /// global concurrent executor: called from an
    /// actor (the main actor), it leaves it and comes back once; called from a task off any actor,
    /// it runs in place, with no hand-off between threads (a hand-off costs 10 to 20 µs each way
    /// on a virtual machine, more than a tenth of a 30-day fetch: README, Performance). While every
    /// read connection is in use the task suspends, holding no thread, until one is given back.
    /// Every 16th read on a thread yields it once when done, so reads awaited in a loop leave other
    /// tasks (a write's caller) a turn.
    /// Without read connections (reads share the writer, and may wait behind its write) the work
    /// goes to the queue, as ``perform(_:)``.
    public func performReading<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        guard let readers else { return try await perform(work) }
        let connection: Connection
        do {
            connection = try await readers.take()
        } catch {
            throw reportError(error)
        }
        defer { readers.giveBack(connection) }
        let result = try await cancellable { cancellation in
            try Self.run({ try self.using(connection, work) }, watchedBy: cancellation)
        }
        // Having run in place, every 16th read on a thread gives it up once before it returns:
        // tasks that await reads in a loop on every thread of the cooperative pool (two on two
        // cores) left no thread for a write's caller to resume on, so a write waited until the
        // loops ended, or for ever when they waited for it (helper-63). A yield costs about as
        // much as a hand-off (17 µs, a fifth of a 30-day fetch, when every read yielded).
        let thread = ThreadState.current
        thread.readsSinceYield += 1
        if thread.readsSinceYield >= Self.readsBetweenYields {
            thread.readsSinceYield = 0
            await Task.yield()
        }
        return result
    }

    /// How many `async` reads run in place on a thread before one yields it (``performReading(_:)``).
    static let readsBetweenYields = 16

    /// Runs `work`, which writes, as ``perform(_:)`` does, one such call at a time: the others
    /// wait suspended, in the order they came, holding no thread, instead of each holding one of
    /// the queue's while it waits for the writer or the file's lock.
    public func performWriting<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await writeTurns.take()
        defer { writeTurns.giveBack() }
        return try await perform(work)
    }

    /// `read(_:)` off the caller's actor, as ``performReading(_:)``: beside other reads and the
    /// write, in a snapshot.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Result) async throws -> Result {
        try await performReading { try self.read(body) }
    }

    /// `write(_:)` off the caller's thread, as ``performWriting(_:)``.
    public func write<Result: Sendable>(_ body: @escaping @Sendable (Connection) throws -> Result) async throws -> Result {
        try await performWriting { try self.write(body) }
    }

    /// Runs `operation` with a ``Cancellation`` that the calling task's cancellation cancels.
    private func cancellable<Result>(_ operation: (Cancellation) async throws -> Result) async throws -> Result {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try await operation(cancellation)
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Runs `work` on this thread watched by `cancellation`; once that is cancelled, throws
    /// `CancellationError` whatever the work threw.
    private static func run<Result>(_ work: () throws -> Result, watchedBy cancellation: Cancellation) throws -> Result {
        do {
            try cancellation.checkCancellation()
            return try cancellation.run(work)
        } catch where cancellation.isCancelled {
            throw CancellationError()
        }
    }
}
