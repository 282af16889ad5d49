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
        var value = value
        guard value.withUTF8(needsEscapes) else {
            output += "\""
            output += value
            output += "\""
            return
        }
        var bytes: [UInt8] = []
        appendQuoted(value, toUTF8: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` as UTF-8, as ``appendQuoted(_:to:)`` spells it.
    public static func appendQuoted(_ value: String, toUTF8 bytes: inout [UInt8]) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            guard needsEscapes(utf8) else {
                bytes.append(contentsOf: utf8)
                return
            }
            // Every byte to escape is ASCII, and no byte of a multi-byte UTF-8 sequence is: byte by byte is exact.
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
                case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
                case ..<0x20:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether these UTF-8 bytes hold one JSON escapes: `"`, `\` or a control character.
    private static func needsEscapes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }
}
