/// A Bloom filter of content ids (``ContentID``): whether an id may have been added, never
/// false for one that was, and true for one that was not in few cases (one in 6,000 with two
/// million ids, one in 25 with ten million), each of which costs a lookup that finds nothing.
/// Its 8 MiB stay the same however many ids are added.
struct SeenContentsFilter {
    /// 2^26 bits.
    private static let bitCount: UInt64 = 1 << 26
    /// How many bits each id sets.
    private static let probes: UInt64 = 4
    private var words = [UInt64](repeating: 0, count: Int(bitCount / 64))

    mutating func add(_ id: (high: Int64, low: Int64)) {
        for probe in 0..<Self.probes {
            let bit = Self.bit(probe, of: id)
            words[Int(bit >> 6)] |= 1 << (bit & 63)
        }
    }

    func mayHold(_ id: (high: Int64, low: Int64)) -> Bool {
        for probe in 0..<Self.probes {
            let bit = Self.bit(probe, of: id)
            if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
        }
        return true
    }

    /// The bit of `id` for probe number `probe`: a content id is a SHA-256 digest, so its two
    /// halves serve as the two hashes of double hashing.
    private static func bit(_ probe: UInt64, of id: (high: Int64, low: Int64)) -> UInt64 {
        (UInt64(bitPattern: id.high) &+ probe &* (UInt64(bitPattern: id.low) | 1)) & (bitCount - 1)
    }
}
