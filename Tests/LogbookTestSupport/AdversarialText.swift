import Foundation

/// Random text built to break anything that does not keep strings byte for byte or compare them
/// as Swift does: every category of scalar, from every plane, with the newest combining marks the
/// running Swift knows, NFC and NFD spellings of the same text, Hangul jamo, emoji sequences,
/// U+0000 and other controls, and mixed line ends.
public enum AdversarialText {
    /// Every scalar with a canonical combining class other than 0 (the marks that normalization
    /// reorders), from the running Swift's own Unicode data.
    public static let combiningMarks: [Unicode.Scalar] = allScalars.filter {
        $0.properties.canonicalCombiningClass.rawValue != 0
    }

    /// The combining marks first assigned in the two newest Unicode versions the running Swift
    /// knows: the ones an older normalizer (ICU, Foundation, Python) does not reorder.
    public static let newestCombiningMarks: [Unicode.Scalar] = {
        let versions = Set(combiningMarks.compactMap { $0.properties.age.map { $0.major * 100 + $0.minor } })
        let newest = Set(versions.sorted().suffix(2))
        return combiningMarks.filter { $0.properties.age.map { newest.contains($0.major * 100 + $0.minor) } ?? false }
    }()

    /// Every Unicode scalar value (surrogate code points are not scalars).
    public static let allScalars: [Unicode.Scalar] = (UInt32(0)...0x10FFFF).compactMap(Unicode.Scalar.init)

    /// Letters whose NFC and NFD spellings differ: Latin, Greek, Cyrillic and Vietnamese letters
    /// with diacritics, and Hangul syllables.
    public static let precomposed: [Character] = {
        let ranges: [ClosedRange<UInt32>] = [0xC0...0x24F, 0x386...0x3CE, 0x400...0x4FF, 0x1E00...0x1EFF, 0xAC00...0xAC40]
        return ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init).map(Character.init).filter {
            String($0).decomposedStringWithCanonicalMapping.unicodeScalars.count > 1
        }
    }()

    private static let asciiWords = ["Burpee", "Squat", "2.5.0", "a", "Z", "x y", "release", "0", "-", "9.10"]
    /// Characters that formats escape or quote: quotes, backslash, comma, tab, and the XML specials.
    private static let syntax: [String] = ["\"", "\\", ",", "\t", "<", ">", "&", "'", ";", "/", "\\u0000", "%", "\u{7F}"]
    private static let lineEnds = ["\n", "\r\n", "\r", "\n\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{0B}", "\u{0C}"]
    private static let specials: [String] = ["\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{FFFE}", "\u{10FFFF}", "\u{200D}",
                                             "\u{200C}", "\u{A0}", "\u{E000}", "\u{F8FF}", "\u{1FFFE}", "\u{E0001}",
                                             "\u{E0041}", "\u{2060}", "\u{034F}", "\u{115F}", "\u{1160}"]
    private static let emoji: [String] = ["🎉", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇺🇦", "🇯🇵", "👍🏽", "❤️", "❤\u{FE0E}", "🧑🏿‍🦰",
                                          "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "1️⃣", "#\u{FE0F}\u{20E3}"]

    /// A random string of up to `maxPieces` pieces, each from a random category; empty now and then
    /// unless `nonEmpty`.
    public static func string(using random: inout SplitMix64, maxPieces: Int = 6, nonEmpty: Bool = false) -> String {
        if !nonEmpty && random.chance(0.05) { return "" }
        var text = ""
        for _ in 0..<random.int(1...max(1, maxPieces)) {
            text += piece(using: &random)
        }
        if nonEmpty && text.isEmpty { text = "x" }
        return text
    }

    /// The same text in the other normalization form: NFD when `text` is in NFC, else NFC.
    /// Canonically equivalent (Swift's `==` holds) but different bytes, whenever the text has
    /// a character that decomposes.
    public static func twin(of text: String) -> String {
        let decomposed = text.decomposedStringWithCanonicalMapping
        return decomposed.utf8.elementsEqual(text.utf8) ? text.precomposedStringWithCanonicalMapping : decomposed
    }

    /// One piece of text from one category.
    public static func piece(using random: inout SplitMix64) -> String {
        switch random.int(0...13) {
        case 0, 1:
            return random.pick(asciiWords)
        case 2:
            // C0 controls (U+0000 among them), DEL and C1 controls.
            let control = random.chance(0.3) ? 0 : random.pick(Array(0...0x1F) + [0x7F] + Array(0x80...0x9F))
            return String(Unicode.Scalar(UInt8(control)))
        case 3:
            return random.pick(lineEnds)
        case 4:
            return String(random.pick(precomposed))
        case 5:
            return String(random.pick(precomposed)).decomposedStringWithCanonicalMapping
        case 6:
            // A base letter, then marks in a random order: canonically equivalent orders differ in bytes.
            var text = random.pick(["a", "e", "o", "A", "ọ", "ש", "क", "あ"])
            let pool = random.chance(0.5) ? newestCombiningMarks : combiningMarks
            for _ in 0..<random.int(1...4) { text.unicodeScalars.append(random.pick(pool)) }
            return text
        case 7:
            // Hangul: a precomposed syllable, or conjoining jamo L V (T) that compose to one.
            if random.chance(0.5) { return String(Unicode.Scalar(UInt32(random.int(0xAC00...0xD7A3)))!) }
            var text = String(Unicode.Scalar(UInt32(random.int(0x1100...0x1112)))!)
                + String(Unicode.Scalar(UInt32(random.int(0x1161...0x1175)))!)
            if random.chance(0.5) { text += String(Unicode.Scalar(UInt32(random.int(0x11A8...0x11C2)))!) }
            return text
        case 8:
            return random.pick(emoji)
        case 9, 10:
            // Any scalar of any plane: assigned or not, private use, noncharacters.
            let plane = UInt32(random.int(0...16))
            var value = plane << 16 | UInt32(random.int(0...0xFFFF))
            if (0xD800...0xDFFF).contains(value) { value = 0xFFFD }
            return String(Unicode.Scalar(value)!)
        case 11:
            return random.pick(specials)
        case 12:
            return random.pick(syntax)
        default:
            // A lone mark with no base, or a long run.
            if random.chance(0.7) { return String(random.pick(combiningMarks)) }
            return String(repeating: random.pick(["é", "e\u{301}", "a", "\u{0}", "\r\n", "😀"]), count: random.int(100...2_000))
        }
    }
}

extension String {
    /// This text in NFC as the Swift standard library normalizes it, the normalization its `==`
    /// and `<` use (Foundation's `precomposedStringWithCanonicalMapping` can have older data): the
    /// tests' own oracle for "equal as Swift compares", independent of Logbook's keys.
    public var swiftNFC: String { String(decoding: _nfcCodeUnits, as: UTF8.self) }
}
