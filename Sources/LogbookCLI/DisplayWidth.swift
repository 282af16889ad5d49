/// How many columns of a terminal text takes, as terminals draw it: an emoji drawn as one takes
/// two, however many scalars make it (a ZWJ family, a flag); any other character, what its
/// scalars take by the rules of `wcwidth` (two for East Asian wide and fullwidth ones, none for a
/// combining mark or a format character but the soft hyphen, one for the rest, so a Devanagari
/// vowel sign takes its own column).
enum DisplayWidth {
    /// The columns `text` takes: byte by byte when it is all ASCII, as most cells are (a table can
    /// have millions of them), else character by character.
    static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (an extended grapheme cluster) takes.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // A lone regional indicator is one column; two make a flag, drawn as an emoji.
        if (0x1F1E6...0x1F1FF).contains(first.value) { return scalars.count > 1 ? 2 : 1 }
        // An emoji shown as one by default, or asked for with U+FE0F (a keycap's digit stays text).
        if scalars.contains(where: { $0.properties.isEmojiPresentation })
            || !first.isASCII && first.properties.isEmoji && scalars.contains("\u{FE0F}") {
            return 2
        }
        return scalars.reduce(0) { $0 + of($1) }
    }

    /// The columns one scalar takes, as `wcwidth` counts it.
    private static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        case .format where scalar.value != 0x00AD: return 0
        default: break
        }
        // Hangul vowels and final consonants, which join the leading consonant before them.
        if (0x1160...0x11FF).contains(scalar.value) { return 0 }
        return wideRanges.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    /// The East Asian wide and fullwidth blocks (Unicode's `EastAsianWidth.txt`, W and F).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
