import Foundation

/// Builds compact JSON text by hand: fields in a fixed order, so the same record always gives the
/// same bytes, with no `Codable` machinery on the hot path.
public struct JSONText {
    /// The JSON written so far.
    public private(set) var text = ""
    private var needsComma = [false]

    /// Empty text, ready for one value.
    public init() {}

    /// Opens an object (`{`), after a comma unless it is the first value of its container.
    public mutating func beginObject() { separate(); text += "{"; needsComma.append(false) }
    /// Closes the innermost open object (`}`); calls must balance ``JSONText/beginObject()``.
    public mutating func endObject() { needsComma.removeLast(); text += "}" }
    /// Opens an array (`[`), after a comma unless it is the first value of its container.
    public mutating func beginArray() { separate(); text += "["; needsComma.append(false) }
    /// Closes the innermost open array (`]`); calls must balance ``JSONText/beginArray()``.
    public mutating func endArray() { needsComma.removeLast(); text += "]" }

    /// Writes `"name":` inside an object; the value follows.
    public mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &text)
        text += ":"
        needsComma[needsComma.count - 1] = false
    }

    /// Writes `value` as a JSON string: its UTF-8 byte for byte, only `"`, `\` and control characters escaped
    /// (see ``JSONText/appendQuoted(_:to:)``).
    public mutating func string(_ value: String) { separate(); Self.appendQuoted(value, to: &text) }
    /// Writes `value` as a JSON number.
    public mutating func integer(_ value: Int) { separate(); text += String(value) }
    /// A number already in JSON form.
    public mutating func raw(_ number: String) { separate(); text += number }
    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) { separate(); text += value ? "true" : "false" }
    /// Writes `null`.
    public mutating func null() { separate(); text += "null" }
    /// An ISO-8601 UTC date with microseconds, or null.
    public mutating func date(_ value: Date?) {
        if let value { string(value.iso8601Microseconds) } else { null() }
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    /// Appends `value` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, … or
    /// `\u00XX`; everything else as raw UTF-8.
    public static func appendQuoted(_ value: String, to output: inout String) {
        output += "\""
        // Most text needs no escape; those that do are ASCII, and no byte of a multi-byte UTF-8
        // sequence is ASCII, so the bytes tell.
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            output += value
            output += "\""
            return
        }
        var pendingStart = value.unicodeScalars.startIndex
        var index = pendingStart
        let scalars = value.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escape: String? = switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case "\u{08}": "\\b"
            case "\u{0C}": "\\f"
            case _ where scalar.value < 0x20:
                "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: nil
            }
            if let escape {
                output += Substring(scalars[pendingStart..<index])
                output += escape
                pendingStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        output += Substring(scalars[pendingStart..<scalars.endIndex])
        output += "\""
    }
}
