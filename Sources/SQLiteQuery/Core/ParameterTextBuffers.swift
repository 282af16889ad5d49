/// The bytes of the text bound to a statement's parameters: one buffer per parameter, reused from
/// one bind to the next, so that SQLite reads the text where it is (`SQLITE_STATIC`) instead of
/// allocating, copying and later freeing a copy of its own on every bind (`SQLITE_TRANSIENT`).
/// Under callgrind, binding a short text the second way takes about 800 instructions with the C
/// API, the first (copy included) about 300; a day of five exercises binds twelve texts, and the
/// derived tallies of each day a few more.
///
/// SQLite reads a buffer until its parameter is bound again, the bindings are cleared, or the
/// statement is finalized. So ``Statement/bindText(_:at:)`` rewrites a buffer only right before
/// binding it again, never while the statement runs, and the buffers are freed only after the
/// statement is finalized (a stored property of ``Statement``, destroyed after its `deinit`).
struct ParameterTextBuffers: ~Copyable {
    /// Text longer than this is left for SQLite to copy, so that a cached statement never keeps a
    /// large buffer for having once bound a long text (a draft's What's New); for such text the
    /// copy costs more than the allocation anyway.
    static let largestKept = 512

    /// The smallest buffer allocated, so that most names grow their parameter's buffer at most once.
    private static let smallestKept = 32

    /// By parameter, from index 0 for parameter 1; empty (no base address) until first used.
    private let buffers: UnsafeMutableBufferPointer<UnsafeMutableRawBufferPointer>

    /// Buffers for a statement of `parameterCount` parameters, none allocated yet.
    init(parameterCount: Int) {
        buffers = .allocate(capacity: parameterCount)
        buffers.initialize(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0))
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        buffers.deallocate()
    }

    /// The buffer of the 1-based parameter `index`, with room for at least `count` bytes; nil when
    /// the statement has no such parameter (for SQLite to report) or `count` is over ``largestKept``.
    func buffer(forParameter index: Int32, count: Int) -> UnsafeMutableRawPointer? {
        guard index >= 1, Int(index) <= buffers.count, count <= Self.largestKept else { return nil }
        let slot = Int(index) - 1
        if let base = buffers[slot].baseAddress, buffers[slot].count >= count { return base }
        buffers[slot].deallocate()
        var size = Self.smallestKept
        while size < count { size *= 2 }
        buffers[slot] = .allocate(byteCount: size, alignment: 1)
        return buffers[slot].baseAddress
    }
}
