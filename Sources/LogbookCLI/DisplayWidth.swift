/// How many columns of a terminal text takes, as terminals draw it (the rules of `wcwidth`): a
/// character of the East Asian wide or fullwidth ranges, or an emoji drawn as one, takes two;
/// a combining mark or a format character alone takes none; any other character one.
enum DisplayWidth {
    /// The columns `text` takes: byte by byte when it is all ASCII, as most cells are (a table can
    /// have millions of them), else character by character.
    static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (an extended grapheme cluster) takes.
    static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { isWide($0) || $0.value == 0xFE0F && first.properties.isEmoji }) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    /// Whether `scalar` is drawn two columns wide: an emoji shown as one by default, or East
    /// Asian wide or fullwidth (Hangul, CJK, kana, fullwidth forms).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        return wideRanges.contains { $0.contains(scalar.value) }
    }

    /// The East Asian wide and fullwidth blocks (Unicode's `EastAsianWidth.txt`, W and F).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
