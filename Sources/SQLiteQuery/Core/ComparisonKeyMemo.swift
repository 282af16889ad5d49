import Foundation

/// The keys `swift_key` last computed for long texts, by their exact bytes, for one connection: a
/// comparison with a record's own column inside a walk over its children
/// (`d.checklist.contains { $0.title == d.whatsNew }`) asks the key of the same text once per
/// child, and normalizing a long text each time made that fetch 5 to 29 times slower than
/// fetching every record and evaluating the predicate in Swift (helper-102). Two texts are kept,
/// so that a comparison of two such columns (`version == whatsNew`) finds both.
final class ComparisonKeyMemo {
    /// Texts shorter than this (in UTF-8 bytes) are cheaper to normalize than to keep.
    static let shortestKept = 128
    /// Texts longer than this are normalized every time, so that a connection never holds more
    /// than two of them.
    static let longestKept = 1 << 20

    /// The texts and their keys, the most recently used last.
    private var entries: [(text: [UInt8], key: String)] = []

    /// The key of `text`, computed by `compute` when it is not kept.
    func key(of text: UnsafeBufferPointer<UInt8>, compute: (UnsafeBufferPointer<UInt8>) -> String) -> String {
        guard (Self.shortestKept...Self.longestKept).contains(text.count) else { return compute(text) }
        if let index = entries.lastIndex(where: { Self.equal($0.text, text) }) {
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.key
        }
        let key = compute(text)
        if entries.count == 2 { entries.removeFirst() }
        entries.append((Array(text), key))
        return key
    }

    private static func equal(_ kept: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard kept.count == bytes.count, let start = bytes.baseAddress else { return false }
        return kept.withUnsafeBufferPointer { memcmp($0.baseAddress!, start, bytes.count) == 0 }
    }
}
