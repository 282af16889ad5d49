import Foundation

/// The temporary files that Logbook is writing right now (``FileReplacement``), so that a program
/// interrupted by a signal can remove them: ``removeAll()`` is safe to call from a signal handler
/// (it only reads preallocated memory and calls `unlink`). The `logbook` tool calls it on SIGINT,
/// SIGTERM and SIGHUP; an app that installs its own handlers can do the same, having called
/// ``prepareForSignalHandlers()`` first.
public enum TemporaryFiles {
    private static let capacity = 64
    /// Paths as C strings, in fixed slots; nil slots are free. Allocated once, never freed.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    private static let lock = NSLock()

    /// Remembers `path` until ``unregister(_:)``.
    static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        guard let free = (0..<capacity).first(where: { slots[$0] == nil }) else { return }
        slots[free] = strdup(path)
    }

    /// Forgets `path` (after it was renamed into place or removed).
    static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for index in 0..<capacity {
            if let slot = slots[index], strcmp(slot, path) == 0 {
                slots[index] = nil
                free(slot)
            }
        }
    }

    /// Allocates what ``removeAll()`` reads, which is otherwise made on first use: call it before
    /// installing a signal handler that calls ``removeAll()``, since a handler that allocates while
    /// the interrupted code was allocating can abort the process (`malloc` assertion failure).
    public static func prepareForSignalHandlers() {
        _ = slots
    }

    /// Removes every registered file. Async-signal-safe once ``prepareForSignalHandlers()`` has
    /// run: no locks, no allocation.
    public static func removeAll() {
        for index in 0..<capacity {
            if let slot = slots[index] { unlink(slot) }
        }
    }
}
