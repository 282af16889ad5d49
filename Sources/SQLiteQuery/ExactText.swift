/// A string that is equal to another only when their UTF-8 bytes are: a dictionary key for text
/// whose bytes matter, such as SQL (`SELECT 'é'` and `SELECT 'e\u{301}'` are different queries).
/// Swift's own `String` equality and hashing follow canonical equivalence, which would merge them.
public struct ExactText: Hashable, Sendable {
    public let text: String

    public init(_ text: String) { self.text = text }

    public static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.utf8.count == rhs.text.utf8.count && lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        var text = self.text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
