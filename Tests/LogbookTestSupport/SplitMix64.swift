import Foundation

/// SplitMix64: a small, fast random number generator that gives the same sequence for a seed on
/// every platform, so a failing run can be repeated.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// A random element of a non-empty collection.
    public mutating func pick<C: Collection>(_ values: C) -> C.Element {
        values[values.index(values.startIndex, offsetBy: Int.random(in: 0..<values.count, using: &self))]
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A UUID of 16 random bytes (any version and variant bits), one `next()` a byte.
    public mutating func uuid() -> UUID {
        var bytes = UUID().uuid
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in raw.indices { raw[index] = UInt8(truncatingIfNeeded: next()) }
        }
        return UUID(uuid: bytes)
    }
}

/// Seeds and sizes of the property tests, from the environment so that a failure can be repeated
/// and a longer run asked for.
public enum PropertyTestSettings {
    /// The seed in environment variable `name`, or `defaultSeed`; printed, so every run can be
    /// repeated with `name=<seed> swift test --filter …`.
    public static func seed(_ name: String, default defaultSeed: UInt64, test: String = #function) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) } ?? defaultSeed
        print("\(test): seed \(name)=\(seed)")
        return seed
    }

    /// `count` times the factor in environment variable `name` (default 1), at least 1.
    public static func scaled(_ count: Int, by name: String) -> Int {
        let factor = ProcessInfo.processInfo.environment[name].flatMap { Double($0) } ?? 1
        return max(1, Int((Double(count) * factor).rounded()))
    }
}
