import Foundation

/// What the calling thread is doing with databases: the connection it is inside for each
/// ``Database`` (so nested calls run on it) and the ``Cancellation`` of the operation it runs.
/// Thread-local through one `pthread` key, so reading it takes no lock: every read and write asks.
final class ThreadState {
    /// The connection this thread is inside, by database.
    var connections: [ObjectIdentifier: Connection] = [:]
    /// The operation this thread runs for an `async` call, if any.
    var cancellation: Cancellation?
    /// Why writes are refused on this thread now, by database (``Database/refusingWrites(because:_:)``).
    var writeRefusals: [ObjectIdentifier: String] = [:]
    /// `async` reads that ran in place on this thread since one of them last yielded it
    /// (``Database/performReading(_:)``).
    var readsSinceYield = 0

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // Each thread's state is released with the thread.
        let status = pthread_key_create(&key) { state in releaseState(state) }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// The calling thread's state, made on first use.
    static var current: ThreadState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = ThreadState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}

/// Releases a thread's ``ThreadState`` as the thread ends (the pointer is optional on Linux, not on Darwin).
private func releaseState(_ state: UnsafeMutableRawPointer?) {
    guard let state else { return }
    Unmanaged<ThreadState>.fromOpaque(state).release()
}
