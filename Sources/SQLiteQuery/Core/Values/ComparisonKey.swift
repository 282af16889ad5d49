import Foundation

extension String {
    /// The form of this string whose UTF-8 bytes compare the way Swift compares strings: its NFC.
    ///
    /// Swift's `==` is canonical equivalence and its `<` orders the NFC forms by Unicode scalar;
    /// UTF-8 preserves scalar order, so SQLite's byte-wise `BINARY` comparison of NFC text gives
    /// Swift's answers. Stored text is never rewritten: tables keep the original bytes and an
    /// indexed `…_key` column with this value beside them.
    ///
    /// The normalization is the Swift standard library's own, the one its `==` uses, so keys agree
    /// with `==` for every scalar the running Swift knows, the newest combining marks included
    /// (Foundation's and ICU's data can be older). Keys therefore depend on the Unicode version of
    /// the running Swift: see ``ComparisonKeyVersion``.
    public var comparisonKey: String {
        // Pure ASCII is already in NFC; most names and versions take this path without allocating.
        if utf8.withContiguousStorageIfAvailable(Self.isASCII) ?? utf8.allSatisfy({ $0 < 0x80 }) { return self }
        // So is any text below U+0300, where combining marks begin: no character there changes
        // under NFC, and none composes with another (checked for every scalar by the tests).
        if unicodeScalars.allSatisfy({ $0.value < 0x300 }) { return self }
        return String(decoding: _nfcCodeUnits, as: UTF8.self)
    }

    /// Whether every byte of `bytes` is below 0x80, eight at a time (a byte-by-byte walk of the
    /// `UTF8View` cost about 27 instructions a byte in a bulk import).
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(start)
        var offset = 0
        while offset + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if bytes[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }
}

/// The Unicode version whose data computes ``Swift/String/comparisonKey`` in this process: the
/// running Swift standard library's. A database records the version that wrote its keys, and keys
/// written under another version are recomputed when it is opened for writing, because a newer
/// version can give combining marks that were unassigned before a place in the canonical order.
public enum ComparisonKeyVersion {
    /// `"17.0"` and the like: the newest Unicode version one of whose scalars the standard library
    /// knows to be assigned.
    public static let current: String = {
        sentinels.first { Unicode.Scalar($0.scalar)?.properties.age != nil }?.version ?? "older than 10.0"
    }()

    /// For each Unicode version, newest first, a scalar first assigned in it. A test checks these
    /// against the standard library's data, and fails when the running Swift knows a version that
    /// is not listed here.
    static let sentinels: [(version: String, scalar: UInt32)] = [
        ("17.0", 0x088F), ("16.0", 0x0897), ("15.1", 0x2FFC), ("15.0", 0x0CF3), ("14.0", 0x061D),
        ("13.0", 0x08BE), ("12.1", 0x32FF), ("12.0", 0x0C77), ("11.0", 0x0560), ("10.0", 0x0860),
    ]
}
