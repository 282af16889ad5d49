import Foundation

extension String {
    /// The form of this string whose UTF-8 bytes compare the way Swift compares strings.
    ///
    /// Swift's `==` is canonical equivalence and its `<` orders the NFC forms by Unicode scalar;
    /// UTF-8 preserves scalar order, so SQLite's byte-wise `BINARY` comparison of NFC text gives
    /// Swift's answers. Stored text is never rewritten: tables keep the original bytes and an
    /// indexed `…_key` column with this value beside them.
    public var comparisonKey: String {
        // Pure ASCII is already in NFC; most names and versions take this path without allocating.
        if utf8.allSatisfy({ $0 < 0x80 }) { return self }
        // So is any text below U+0300, where combining marks begin: no character there changes
        // under NFC, and none composes with another (checked against Unicode 14's data), which
        // spares Latin-1 names like "Élan" Foundation's normalization.
        if unicodeScalars.allSatisfy({ $0.value < 0x300 }) { return self }
        return precomposedStringWithCanonicalMapping
    }
}
