import Foundation

/// The temporary files that Logbook is writing right now (``FileReplacement``), so that a program
/// interrupted by a signal can remove them: ``removeAll()`` is safe to call from a signal handler
/// (it only reads preallocated memory and calls `unlink`). The `logbook` tool calls it on SIGINT,
/// SIGTERM and SIGHUP; an app that installs its own handlers can do the same, having called
/// ``prepareForSignalHandlers()`` first.
public enum TemporaryFiles {
    private static let capacity = 64
    /// The longest path a slot holds, with its terminating NUL (Linux's `PATH_MAX`; a longer path
    /// cannot be opened by name anyway).
    private static let slotLength = 4096
    /// Paths as C strings, in fixed slots of ``slotLength`` bytes, allocated once and never freed
    /// nor moved: a handler that read a slot's address an instant before the slot was given up
    /// still reads memory of this table (at worst an older path of this table, whose file is gone),
    /// never freed memory. A slot is read only once a path was written to it, so the table is not
    /// filled first (that touched its 64 pages in every process: about 0.3 ms of each command).
    nonisolated(unsafe) private static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotLength)
    /// Whether each slot holds a path now.
    nonisolated(unsafe) private static let inUse: UnsafeMutablePointer<Bool> = {
        let inUse = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        inUse.initialize(repeating: false, count: capacity)
        return inUse
    }()
    /// The slot ``register(_:)`` tries first: slots are taken in turn, so that one given up is
    /// taken again only after every other (a handler is never reading a path being overwritten
    /// unless 63 other files came and went meanwhile).
    nonisolated(unsafe) private static var nextSlot = 0
    private static let lock = NSLock()

    /// Remembers `path` until ``unregister(_:)``.
    static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        let bytes = Array(path.utf8CString)
        guard bytes.count <= slotLength,
              let free = (0..<capacity).lazy.map({ (nextSlot + $0) % capacity }).first(where: { !inUse[$0] }) else { return }
        bytes.withUnsafeBufferPointer { (paths + free * slotLength).initialize(from: $0.baseAddress!, count: bytes.count) }
        inUse[free] = true
        nextSlot = (free + 1) % capacity
    }

    /// Forgets `path` (after it was renamed into place or removed).
    static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for index in 0..<capacity where inUse[index] && strcmp(paths + index * slotLength, path) == 0 {
            inUse[index] = false
        }
    }

    /// Allocates what ``removeAll()`` reads, which is otherwise made on first use: call it before
    /// installing a signal handler that calls ``removeAll()``, since a handler that allocates while
    /// the interrupted code was allocating can abort the process (`malloc` assertion failure).
    public static func prepareForSignalHandlers() {
        _ = (paths, inUse)
    }

    /// Removes every registered file. Async-signal-safe once ``prepareForSignalHandlers()`` has
    /// run: no locks, no allocation.
    public static func removeAll() {
        for index in 0..<capacity where inUse[index] { unlink(paths + index * slotLength) }
    }
}
