import Foundation
import SQLiteQuery

/// The one loop behind every observation (`observe`, ``LiveQuery``): a value fetched now, then
/// fetched again after each commit a ``ChangeWatcher`` sees, and passed on only when it differs
/// from the last one passed on.
enum ObservedValues {
    /// The values of `fetch` for `database`. Values are compared by their encoded
    /// bytes: text that changes only from NFC to NFD is a change, though Swift's `==` calls the two
    /// equal. Keeps only the newest value when the consumer is slower than the commits; cancelling
    /// the consuming task, or dropping the stream, stops all work.
    static func stream<Value: Encodable & Sendable>(database: Database, options: ObservationOptions,
                                                    fetch: @escaping @Sendable () async throws -> Value)
        -> AsyncThrowingStream<Value, Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    let watcher = try ChangeWatcher(database: database)
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = .sortedKeys  // else the member order varies from call to call
                    let first = try await fetch()
                    var lastBytes = try encoder.encode(first)
                    continuation.yield(first)
                    while !Task.isCancelled {
                        try await Task.sleep(for: options.interval)
                        guard try watcher.hasChanged() else { continue }
                        let current = try await fetch()
                        let currentBytes = try encoder.encode(current)
                        if currentBytes != lastBytes {
                            lastBytes = currentBytes
                            continuation.yield(current)
                        }
                    }
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
}
