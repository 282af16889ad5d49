/// The bytes of the text bound to a statement's parameters, in buffers reused from one bind to the
/// next, so that SQLite reads the text where it is (`SQLITE_STATIC`) instead of allocating, copying
/// and later freeing a copy of its own on every bind (`SQLITE_TRANSIENT`). Under callgrind,
/// binding a short text the second way takes about 800 instructions with the C API, the first
/// (copy included) about 300; a day of five exercises binds twelve texts, and the derived tallies
/// of each day a few more.
///
/// SQLite reads a bound text until its parameter is bound again, the bindings are cleared, or the
/// statement is finalized, and a bind can fail (SQLite refuses one while the statement runs, or
/// after it finished and before it is reset), leaving the earlier text bound. So each parameter has
/// two buffers: the one bound last, never written while it is, and a spare that the next text is
/// written into; only a bind that succeeds makes the spare the bound one (``didBind(parameter:)``).
/// The buffers are freed after the statement is finalized (a stored property of ``Statement``,
/// destroyed after its `deinit`).
struct ParameterTextBuffers: ~Copyable {
    /// Text longer than this is left for SQLite to copy, so that a cached statement never keeps a
    /// large buffer for having once bound a long text (a draft's What's New); for such text the
    /// copy costs more than the allocation anyway.
    static let largestKept = 512

    /// The smallest buffer allocated, so that most names grow their buffers at most once.
    private static let smallestKept = 32

    /// Two per parameter, from index 0 for parameter 1: parameter `n`'s are `2(n-1)` and `2(n-1)+1`.
    /// Empty (no base address) until first used.
    private let buffers: UnsafeMutableBufferPointer<UnsafeMutableRawBufferPointer>
    /// By parameter, from index 0 for parameter 1: which of its two buffers SQLite may be reading (0 or 1).
    private let bound: UnsafeMutableBufferPointer<Int>

    /// Buffers for a statement of `parameterCount` parameters, none allocated yet.
    init(parameterCount: Int) {
        buffers = .allocate(capacity: 2 * parameterCount)
        buffers.initialize(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        bound = .allocate(capacity: parameterCount)
        bound.initialize(repeating: 0)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
        buffers.deallocate()
        bound.deallocate()
    }

    /// The spare buffer of the 1-based parameter `index`, with room for at least `count` bytes: not
    /// the one SQLite may be reading. Nil when the statement has no such parameter (for SQLite to
    /// report) or `count` is over ``largestKept``.
    func spareBuffer(forParameter index: Int32, count: Int) -> UnsafeMutableRawPointer? {
        guard index >= 1, Int(index) <= bound.count, count <= Self.largestKept else { return nil }
        let slot = 2 * (Int(index) - 1) + (1 - bound[Int(index) - 1])
        if let base = buffers[slot].baseAddress, buffers[slot].count >= count { return base }
        buffers[slot].deallocate()
        var size = Self.smallestKept
        while size < count { size *= 2 }
        buffers[slot] = .allocate(byteCount: size, alignment: 1)
        return buffers[slot].baseAddress
    }

    /// Records that the spare buffer of parameter `index` was bound: SQLite reads it now, and the
    /// other one is the spare.
    func didBind(parameter index: Int32) {
        bound[Int(index) - 1] = 1 - bound[Int(index) - 1]
    }
}
