import Foundation
import SQLiteQuery

/// The one loop behind every observation (`observe`, ``LiveQuery``): a value fetched now, then
/// fetched again after each commit a ``ChangeWatcher`` sees, and passed on only when it differs
/// from the last one passed on.
enum ObservedValues {
    /// The values of `fetch` for `database`. Values are compared by their encoded
    /// bytes: text that changes only from NFC to NFD is a change, though Swift's `==` calls the two
    /// equal. Keeps only the newest value when the consumer is slower than the commits; cancelling
    /// the consuming task, or dropping the stream, stops all work. The first fetch that fails ends
    /// the stream with its error.
    static func stream<Value: Encodable & Sendable>(database: Database, options: ObservationOptions,
                                                    fetch: @escaping @Sendable () async throws -> Value)
        -> AsyncThrowingStream<Value, Error> {
        watching { continuation in
            try await watch(database: database, options: options, fetch: fetch) { result in
                switch result {
                case .success(let value):
                    continuation.yield(value)
                    return true
                case .failure(let error):
                    continuation.finish(throwing: error)
                    return false
                }
            }
        }
    }

    /// What each fetch of `fetch` for `database` gives, as ``stream(database:options:fetch:)``
    /// passes values on, a failure included: the watching goes on after it, fetching again at each
    /// interval until a fetch succeeds (a value another program stored that Logbook cannot read is
    /// put right by a later commit, a lock held past the busy timeout by its release), and the
    /// first value after a failure is passed on whatever it is. What stops the watching ends the
    /// stream with its error: the file deleted, moved or replaced, or its version unreadable.
    static func results<Value: Encodable & Sendable>(database: Database, options: ObservationOptions,
                                                     fetch: @escaping @Sendable () async throws -> Value)
        -> AsyncThrowingStream<Result<Value, any Error>, Error> {
        watching { continuation in
            try await watch(database: database, options: options, fetch: fetch) { result in
                continuation.yield(result)
                return true
            }
        }
    }

    /// A stream fed by `feed` on a task of its own, which ends the stream when it returns (with the
    /// error it throws, but for cancellation), and which cancelling the consumer or dropping the
    /// stream cancels.
    private static func watching<Element: Sendable>(
        _ feed: @escaping @Sendable (AsyncThrowingStream<Element, Error>.Continuation) async throws -> Void)
        -> AsyncThrowingStream<Element, Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    try await feed(continuation)
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Fetches now and after each commit until cancelled or `pass` returns false, passing on each
    /// failure and each value that differs from the last value passed on (any value after a
    /// failure). Throws what stops the watching (the watcher's errors) and cancellation.
    private static func watch<Value: Encodable & Sendable>(database: Database, options: ObservationOptions,
                                                           fetch: @Sendable () async throws -> Value,
                                                           pass: (Result<Value, any Error>) -> Bool) async throws {
        let watcher = try ChangeWatcher(database: database)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // else the member order varies from call to call
        // The bytes of the last value passed on; nil before the first and after a failure.
        var lastBytes: Data?
        func fetchAndPass() async throws -> Bool {
            do {
                let value = try await fetch()
                let bytes = try encoder.encode(value)
                guard bytes != lastBytes else { return true }
                lastBytes = bytes
                return pass(.success(value))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                lastBytes = nil
                return pass(.failure(error))
            }
        }
        guard try await fetchAndPass() else { return }
        while !Task.isCancelled {
            try await Task.sleep(for: options.interval)
            // After a failure, fetched again at each interval until one succeeds: what failed (a
            // lock held past the busy timeout) may pass without another commit.
            guard try watcher.hasChanged() || lastBytes == nil else { continue }
            guard try await fetchAndPass() else { return }
        }
    }
}
