import Foundation

extension AdversarialText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped; every
    /// other scalar as it is or, with probability `escaping` each (non-ASCII only), as `\u` escapes
    /// (a surrogate pair past the Basic Multilingual Plane).
    public static func jsonLiteral(_ text: String, escaping probability: Double, using random: inout SplitMix64) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case _ where scalar.value < 0x20: literal += String(format: "\\u%04X", scalar.value)
            case _ where scalar.value >= 0x80 && random.chance(probability):
                literal += String(scalar).utf16.map { String(format: "\\u%04x", $0) }.joined()
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
