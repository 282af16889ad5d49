/// A parsed JSON value. Numbers keep their text, so a date written as the shortest text that
/// round-trips a `Double` is read back as exactly that `Double`.
///
/// Not `indirect`: the arrays of elements and members already hold their values on the heap, and
/// an indirect enum boxed every value, a string included, in an allocation of its own.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number as its text in the file (an `E` exponent written `e`), so that it converts to exactly the
    /// `Double` the text names.
    case number(String)
    /// A string, unescaped, its UTF-8 byte for byte as written.
    case string(String)
    /// Elements in the order written.
    case array([JSONValue])
    /// Members in the order written.
    case object([(key: String, value: JSONValue)])

    /// Equal byte for byte: strings and member names by their UTF-8 (NFC and NFD spellings differ), numbers
    /// by their text (`1` and `1.0` differ), members in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
        default: false
        }
    }

    /// The member named `key` (byte for byte) of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key.hasSameUTF8(as: key) }?.value
    }

    /// What the value is, for error messages: "a string", "true", "an object".
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
