/// Text in UTF-16 or UTF-32, told from a file's first bytes: by its byte order mark, or without
/// one by where the zero bytes of ASCII text fall (RFC 4627's way). JSON, NDJSON and CSV are read
/// in UTF-8, as the apps and `export` write them; such a file is refused saying what it is in
/// (it was refused as JSON that is no array, or as "unexpected character '\x00'": helper-47),
/// where Foundation's `JSONDecoder` reads UTF-16 and UTF-32 too.
struct WideTextEncoding {
    /// The encoding's name as `iconv` takes it: `UTF-16LE`, `UTF-16BE`, `UTF-32LE` or `UTF-32BE`.
    let name: String
    /// Whether a byte order mark says so (else the zero bytes do).
    let isMarked: Bool

    /// The encoding of text starting with `bytes`, nil for text in none of these.
    init?(ofTextStartingWith bytes: [UInt8]) {
        let start = Array(bytes.prefix(4)) + Array(repeating: 0xFF, count: max(0, 4 - bytes.count))
        switch (start[0], start[1], start[2], start[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): (name, isMarked) = ("UTF-32BE", true)
        case (0xFF, 0xFE, 0x00, 0x00): (name, isMarked) = ("UTF-32LE", true)
        case (0xFE, 0xFF, _, _): (name, isMarked) = ("UTF-16BE", true)
        case (0xFF, 0xFE, _, _): (name, isMarked) = ("UTF-16LE", true)
        case (0x00, 0x00, 0x00, let byte) where byte != 0: (name, isMarked) = ("UTF-32BE", false)
        case (let byte, 0x00, 0x00, 0x00) where byte != 0: (name, isMarked) = ("UTF-32LE", false)
        case (0x00, let first, 0x00, let second) where first != 0 && second != 0: (name, isMarked) = ("UTF-16BE", false)
        case (let first, 0x00, let second, 0x00) where first != 0 && second != 0: (name, isMarked) = ("UTF-16LE", false)
        default: return nil
        }
    }
}
