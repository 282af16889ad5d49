import Foundation

/// The short texts a statement read last, by their bytes, so that a column that repeats a few
/// values row after row (exercise names, checklist titles, a report's top exercise) makes each
/// `String` once: a text read before is found by its slot and one byte comparison and handed back
/// as the same value. Under callgrind, decoding a name of 5 to 17 bytes into a new `String` takes
/// about 440 instructions (UTF-8 validation and, past 15 bytes, an allocation); finding it here,
/// about 60.
///
/// Exact: a text is handed back only for the very bytes it was decoded from, and decoding is a
/// function of the bytes (`String(decoding:as:)`, which repairs invalid UTF-8 the same way each
/// time). Texts longer than ``longestKept`` are decoded every time, so that a cached statement
/// never holds a large value alive. Memory is allocated on first use and freed with the statement.
/// A statement is used by one thread at a time, and so is this.
struct RecentTexts: ~Copyable {
    /// Longer texts are decoded each time: kept texts cost their bytes twice (here and in their
    /// `String`), and long ones (a draft's What's New) rarely repeat.
    static let longestKept = 32
    /// How many texts are kept, each in the slot its bytes hash to (a power of two).
    private static let slotCount = 64

    /// The slots' storage: nil until the first text is kept.
    private let storage: UnsafeMutablePointer<Slots?>

    /// Each slot's text: its length (-1 for none), its bytes and its `String`.
    private struct Slots {
        let lengths: UnsafeMutableBufferPointer<Int>
        let bytes: UnsafeMutableRawBufferPointer
        let strings: UnsafeMutableBufferPointer<String>
    }

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: nil)
    }

    deinit {
        if let slots = storage.pointee {
            slots.lengths.deallocate()
            slots.bytes.deallocate()
            slots.strings.deinitialize().deallocate()
        }
        storage.deallocate()
    }

    /// The text of these UTF-8 bytes, as `String(decoding: bytes, as: UTF8.self)` makes it.
    func string(decoding bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= Self.longestKept, let base = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let slots = storage.pointee ?? allocateSlots()
        let slot = Self.slot(of: UnsafeRawBufferPointer(bytes))
        let kept = slots.bytes.baseAddress! + slot * Self.longestKept
        if slots.lengths[slot] == bytes.count, memcmp(kept, base, bytes.count) == 0 {
            return slots.strings[slot]
        }
        let string = String(decoding: bytes, as: UTF8.self)
        kept.copyMemory(from: base, byteCount: bytes.count)
        slots.lengths[slot] = bytes.count
        slots.strings[slot] = string
        return string
    }

    private func allocateSlots() -> Slots {
        let slots = Slots(lengths: .allocate(capacity: Self.slotCount),
                          bytes: .allocate(byteCount: Self.slotCount * Self.longestKept, alignment: 8),
                          strings: .allocate(capacity: Self.slotCount))
        slots.lengths.initialize(repeating: -1)
        slots.strings.initialize(repeating: "")
        storage.pointee = slots
        return slots
    }

    /// The slot of a text of at most ``longestKept`` bytes: a hash of its length and its first and
    /// last eight bytes (texts that differ only in between share a slot, and take turns in it).
    static func slot(of bytes: UnsafeRawBufferPointer) -> Int {
        let count = bytes.count
        var head: UInt64 = 0, tail: UInt64 = 0
        if count >= 8 {
            head = bytes.loadUnaligned(as: UInt64.self)
            tail = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            for byte in bytes { head = head << 8 | UInt64(byte) }
        }
        let hash = (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        return Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotCount.trailingZeroBitCount))
    }
}
