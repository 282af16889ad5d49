import Foundation

/// The short texts decoded last, by their bytes, so that text that repeats a few values row after
/// row (exercise names, checklist titles, a report's top exercise; a statement's column or an
/// import's names) makes each `String` once: a text decoded before is found by its slot and one
/// byte comparison and handed back as the same value. Under callgrind, decoding a name of 5 to 17
/// bytes into a new `String` takes about 440 instructions (UTF-8 validation and, past 15 bytes,
/// an allocation); finding it here, under 180.
///
/// Exact: a text is handed back only for the very bytes it was decoded from, and the decoding
/// must be a function of the bytes alone (as ``UTF8Validation/string(_:)`` is); a decoding that
/// refuses the bytes (nil: they are not UTF-8) keeps nothing. Texts longer
/// than ``longestKept`` are decoded every time, so that nothing large is held alive. Memory is
/// allocated on first use and freed with this. One thread at a time: a statement's, or an import's.
package final class RecentTexts {
    /// Longer texts are decoded each time: kept texts cost their bytes twice (here and in their
    /// `String`), and long ones (a draft's What's New) rarely repeat.
    package static let longestKept = 32
    /// How many texts are kept, each in the slot its bytes hash to (a power of two).
    private static let slotCount = 64

    /// The slots: nil until the first text is kept. Read for every text (as a class's property,
    /// exempt from the run-time exclusivity check each access would otherwise make).
    @exclusivity(unchecked) private var slots: Slots?

    /// Each slot's text: its length (-1 for none), its bytes and its `String`.
    private struct Slots {
        let lengths: UnsafeMutableBufferPointer<Int>
        let bytes: UnsafeMutableRawBufferPointer
        let strings: UnsafeMutableBufferPointer<String>
    }

    package init() {}

    deinit {
        guard let slots else { return }
        slots.lengths.deallocate()
        slots.bytes.deallocate()
        slots.strings.deinitialize().deallocate()
    }

    /// The text of these bytes, or nil when they are not UTF-8 (``UTF8Validation``).
    package func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        string(bytes, orDecode: UTF8Validation.string)
    }

    /// `decode(bytes)`, or the text it gave for the same bytes before. `decode` must depend on
    /// the bytes alone, and be the same decoding at every call on one instance (a text kept by one
    /// decoding would be handed back where another refuses or repairs it); a text it refuses (nil)
    /// is not kept.
    package func string(_ bytes: UnsafeBufferPointer<UInt8>, orDecode decode: (UnsafeBufferPointer<UInt8>) -> String?) -> String? {
        guard bytes.count <= Self.longestKept, let base = bytes.baseAddress else { return decode(bytes) }
        let slots = self.slots ?? allocateSlots()
        let slot = Self.slot(of: UnsafeRawBufferPointer(bytes))
        let kept = slots.bytes.baseAddress! + slot * Self.longestKept
        if slots.lengths[slot] == bytes.count, memcmp(kept, base, bytes.count) == 0 {
            return slots.strings[slot]
        }
        guard let string = decode(bytes) else { return nil }
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
        self.slots = slots
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
