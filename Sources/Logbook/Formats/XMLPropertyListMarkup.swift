/// One walk over the markup of an XML property list, for what `PropertyListSerialization` reads
/// past without a word: the text of each `<date>` element, which it reads leniently
/// (`2026-02-30T00:00:00Z` as March 2nd, `26-01-01T…` as the year 26, a month 13 as the next
/// January), anything after the root element, which it drops (a second property list joined to
/// the first, and so its records, or any other text), and each dictionary's keys, of which it
/// keeps one value per key.
///
/// Comments, CDATA sections, processing instructions and the document type declaration are
/// skipped as XML defines them; a quoted attribute value may hold `>`. Where the markup is not
/// well formed (an end tag that does not close the element open there, included) the walk stops,
/// and the parser refuses the list in its own words, which name the line.
struct XMLPropertyListMarkup {
    /// The byte ranges of the `<date>` elements' texts, in document order.
    private(set) var dates: [Range<Int>] = []
    /// Where the first thing after the root element's end begins that is neither white space, a
    /// comment nor a processing instruction (which XML allows there), if anything does.
    private(set) var contentAfterTheRoot: Int?
    /// The byte ranges of the `<key>` elements' contents (entities and CDATA sections undecoded),
    /// each with the number of its dictionary (in the order the dictionaries open), in document order.
    private(set) var keys: [(dictionary: Int, content: Range<Int>)] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        var openElements: [Slice<UnsafeBufferPointer<UInt8>>] = []
        var rootEnded = false
        var (openDictionaries, dictionaryCount, keyStart): ([Int], Int, Int?) = ([], 0, nil)
        while index < bytes.count {
            if bytes[index] != Self.tagOpen {
                // Text: inside the root, skipped to the next markup; after it, white space only.
                if rootEnded && !Self.isWhiteSpace(bytes[index]) {
                    contentAfterTheRoot = index
                    return
                }
                index = rootEnded ? index + 1 : bytes.firstIndex(of: [Self.tagOpen], from: index) ?? bytes.count
                continue
            }
            let rest = bytes[index...]
            if rest.starts(with: Self.commentStart) {
                guard let end = bytes.firstIndex(of: Self.commentEnd, from: index + Self.commentStart.count) else { return }
                index = end + Self.commentEnd.count
            } else if rest.starts(with: Self.instructionStart) {
                guard let end = bytes.firstIndex(of: Self.instructionEnd, from: index + Self.instructionStart.count) else { return }
                index = end + Self.instructionEnd.count
            } else if rootEnded {
                contentAfterTheRoot = index
                return
            } else if rest.starts(with: Self.cdataStart) {
                guard let end = bytes.firstIndex(of: Self.cdataEnd, from: index + Self.cdataStart.count) else { return }
                index = end + Self.cdataEnd.count
            } else if rest.starts(with: Self.declarationStart) {
                guard let end = Self.declarationEnd(in: bytes, from: index) else { return }
                index = end + 1
            } else {
                guard let end = Self.tagEnd(in: bytes, from: index) else { return }
                let tag = bytes[index..<end]
                if bytes[index + 1] == Self.slash {
                    guard let opened = openElements.popLast(), Self.name(of: tag).elementsEqual(opened) else { return }
                    rootEnded = openElements.isEmpty
                    if Self.isTag(tag, named: Self.dictionaryName, closing: true) { _ = openDictionaries.popLast() }
                    if Self.isTag(tag, named: Self.keyName, closing: true), let start = keyStart, let dictionary = openDictionaries.last {
                        keys.append((dictionary, start..<index))
                        keyStart = nil
                    }
                } else if bytes[end - 1] == Self.slash {
                    rootEnded = openElements.isEmpty
                } else {
                    openElements.append(Self.name(of: tag))
                    if Self.isTag(tag, named: Self.dateName) {
                        let textEnd = bytes.firstIndex(of: [Self.tagOpen], from: end + 1) ?? bytes.count
                        dates.append(end + 1..<textEnd)
                    } else if Self.isTag(tag, named: Self.dictionaryName) {
                        openDictionaries.append(dictionaryCount)
                        dictionaryCount += 1
                    } else if Self.isTag(tag, named: Self.keyName) {
                        keyStart = end + 1
                    }
                }
                index = end + 1
            }
        }
    }

    private static let tagOpen = UInt8(ascii: "<"), tagClose = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
    static let commentStart = Array("<!--".utf8), commentEnd = Array("-->".utf8)
    static let cdataStart = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
    private static let instructionStart = Array("<?".utf8), instructionEnd = Array("?>".utf8)
    private static let declarationStart = Array("<!".utf8)
    private static let dateName = Array("date".utf8), dictionaryName = Array("dict".utf8), keyName = Array("key".utf8)

    /// Space, tab, line feed and carriage return: XML's white space.
    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether `tag` (from its `<` to before its `>`) is a start tag, or with `closing` an end
    /// tag, of an element named `name`.
    private static func isTag(_ tag: Slice<UnsafeBufferPointer<UInt8>>, named name: [UInt8], closing: Bool = false) -> Bool {
        let afterOpen = tag.dropFirst(closing ? 2 : 1)
        guard afterOpen.starts(with: name) else { return false }
        return afterOpen.dropFirst(name.count).first.map(isWhiteSpace) ?? true
    }

    /// The element name of `tag` (from its `<` to before its `>`), a start or an end tag.
    private static func name(of tag: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        let afterOpen = tag.dropFirst(tag.dropFirst().first == slash ? 2 : 1)
        return afterOpen.prefix { !isWhiteSpace($0) && $0 != slash }
    }

    /// The `>` that ends the tag starting at `start`, past quoted attribute values.
    private static func tagEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        markupEnd(in: bytes, from: start + 1, bracketsNest: false)
    }

    /// The `>` that ends the declaration (`<!DOCTYPE …>`) starting at `start`, past quoted text
    /// and an internal subset in brackets.
    private static func declarationEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        markupEnd(in: bytes, from: start + 2, bracketsNest: true)
    }

    /// The first `>` from `start` outside quoted text (and, when `bracketsNest`, outside brackets).
    private static func markupEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, bracketsNest: Bool) -> Int? {
        var quote: UInt8?
        var brackets = 0
        for index in start..<bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if bracketsNest && byte == UInt8(ascii: "[") {
                brackets += 1
            } else if bracketsNest && byte == UInt8(ascii: "]") {
                brackets -= 1
            } else if byte == tagClose && brackets <= 0 {
                return index
            }
        }
        return nil
    }
}
