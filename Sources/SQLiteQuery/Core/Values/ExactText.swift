import Foundation

/// A string that is equal to another only when their UTF-8 bytes are: a dictionary key for text
/// whose bytes matter, such as SQL (`SELECT 'é'` and `SELECT 'e\u{301}'` are different queries).
/// Swift's own `String` equality and hashing follow canonical equivalence, which would merge them.
public struct ExactText: Hashable, Sendable {
    /// The string; its UTF-8 bytes are what compares.
    public let text: String

    /// Wraps `text`, bytes unchanged.
    public init(_ text: String) { self.text = text }

    /// Whether the two texts have the same UTF-8 bytes (not whether they are canonically equivalent).
    public static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        // memcmp over the contiguous UTF-8: this runs on every cached-statement lookup.
        var (left, right) = (lhs.text, rhs.text)
        return left.withUTF8 { a in
            right.withUTF8 { b in
                a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
    }

    /// Hashes the UTF-8 bytes, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        var text = self.text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
