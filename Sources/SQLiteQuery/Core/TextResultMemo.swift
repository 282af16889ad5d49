import Foundation

/// The results of a costly yes-or-no function of a text and one constant argument, kept for the
/// texts one statement gives it, by their exact bytes: an SQL function that compares every row
/// of a column with a value the statement binds (`swift_same_letters(name, ?)`) computes once per
/// distinct text instead of once per row. At most ``capacity`` texts are kept; any other is
/// computed every time it comes.
final class TextResultMemo {
    /// How many texts are kept at most (three quarters of the slots, so that probes stay short).
    static let capacity = 768
    private static let slotCount = 1_024

    /// The constant argument's bytes, which every result is for.
    let argument: [UInt8]
    private var keys: [[UInt8]?] = Array(repeating: nil, count: TextResultMemo.slotCount)
    private var results: [Bool] = Array(repeating: false, count: TextResultMemo.slotCount)
    private var count = 0

    init(argument: UnsafeBufferPointer<UInt8>) {
        self.argument = Array(argument)
    }

    /// Whether the results are for `bytes` as the constant argument.
    func isFor(argument bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        Self.equal(argument, bytes)
    }

    /// The result for `text`, computed by `compute` when not kept.
    func result(for text: UnsafeBufferPointer<UInt8>, compute: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(text))
        var slot = hasher.finalize() & (Self.slotCount - 1)
        while let key = keys[slot] {
            if Self.equal(key, text) { return results[slot] }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        let result = compute(text)
        if count < Self.capacity {
            keys[slot] = Array(text)
            results[slot] = result
            count += 1
        }
        return result
    }

    private static func equal(_ key: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.count == bytes.count else { return false }
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return true }
        return key.withUnsafeBufferPointer { memcmp($0.baseAddress!, start, bytes.count) == 0 }
    }
}
