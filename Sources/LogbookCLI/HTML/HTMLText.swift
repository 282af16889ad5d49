/// Text placed in an HTML page: markup characters escaped, and the characters an HTML parser would
/// drop or reject (C0 controls other than tab and line breaks, DEL, C1 controls, noncharacters)
/// shown as U+FFFD, so that a name made of hostile bytes shows up as text and never as markup.
enum HTMLText {
    /// `text` safe inside an element or a double-quoted attribute.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case "\r": result += "&#13;"
            default:
                result.unicodeScalars.append(isDropped(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }

    private static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }
}
