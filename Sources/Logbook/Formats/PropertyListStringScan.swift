import Foundation

/// Reads a property list's strings from its bytes before `PropertyListSerialization` parses it,
/// to refuse what that parser would spend memory on or silently change:
///
/// - a string over ``RecordLimits/textBytes`` (a 100 MB string cost 1 GB in the parser);
/// - in a binary list, UTF-16 text with an unpaired surrogate (the parser turns it into U+FFFD),
///   and ASCII text with a byte over 0x7F (the parser reads it as Latin-1);
/// - in an XML list, bytes that are not UTF-8 where it is in UTF-8 (the parser's error names no
///   place), and bytes over 0x7F where it says it is in ASCII (the parser read them as Latin-1);
/// - in an XML list, a string that begins with U+FEFF (the parser drops it), and a character
///   reference without digits, `&#;` or `&#x;` (the parser reads U+0000);
/// - in an XML list, a `<date>` whose text is not a date and time that exist, written
///   `YYYY-MM-DDTHH:MM:SSZ` (the parser reads `2026-02-30T00:00:00Z` as March 2nd), and anything
///   after the root element (the parser drops it, a second property list's records too): see
///   ``XMLPropertyListMarkup``;
/// - a dictionary that holds a key twice (the parser keeps one of the values).
///
/// Binary lists are read through their offset table: each string object's marker gives its
/// length, and UTF-16 strings are measured in UTF-8 bytes exactly. In XML, the text of each
/// `<string>` element is measured as decoded (an entity counts as the character it stands for).
/// A list this scan cannot follow is left to the parser to reject.
enum PropertyListStringScan {
    struct Result {
        /// The UTF-8 length of the longest string.
        var longest = 0
        /// Why the list must be refused, if it must.
        var problem: String?
    }

    static func scan(_ data: Data) -> Result {
        data.withUnsafeBytes { buffer in
            let bytes = buffer.bindMemory(to: UInt8.self)
            let isBinary = bytes.starts(with: "bplist".utf8)
            if !isBinary, let problem = textNotInItsEncoding(inXML: bytes) { return Result(problem: problem) }
            let markup = isBinary ? nil : markupFindings(inXML: bytes)
            if let problem = markup?.problem { return Result(problem: problem) }
            var result = isBinary ? scanBinary(bytes) : scanXML(bytes)
            if result.problem == nil && isBinary { result.problem = expansionProblem(inBinary: bytes) }
            if result.problem == nil {
                result.problem = isBinary ? repeatedKeyProblem(inBinary: bytes) : markup?.repeatedKey.map(repeatedKey)
            }
            if result.problem == nil && result.longest > RecordLimits.textBytes {
                result.problem = "holds a string of \(result.longest) bytes; text is limited to \(RecordLimits.textBytes >> 20) MiB"
            }
            return result
        }
    }

    /// The problem of a dictionary at `place` that holds `key` twice.
    private static func repeatedKey(_ place: String, _ key: String) -> String {
        "\(place): a dictionary holds the key \"\(key.prefix(60))\" twice; the property list reader keeps only the last value, "
            + "so the file is refused rather than read without the first"
    }

    // MARK: Binary

    /// The bytes a walk over a binary list's objects may read: the list's size. The objects of a
    /// list that a writer made lie apart, each once in the offset table, so a walk that reads each
    /// object's content once reads no more; a table that points into other objects' bytes, or at
    /// one object many times, would make it read the file over and over (a 64 KiB list took
    /// minutes; helper-55), and is refused instead.
    private struct ReadingBudget {
        private var left: Int
        init(_ bytes: UnsafeBufferPointer<UInt8>) { left = bytes.count }

        /// Takes `count` bytes from what is left; false once more is asked than the list holds.
        mutating func spend(_ count: Int) -> Bool {
            left -= count
            return left >= 0
        }

        static let spent = "its offset table points into the bytes of other objects, or at one object many times, which no "
            + "writer of property lists does; refusing rather than reading the file over and over"
    }

    /// Where a binary list's objects are, from its trailer: the offset table and the widths of
    /// its entries and of the object references in arrays and dictionaries.
    private struct BinaryLayout {
        /// Where the 32-byte trailer starts: every object lies before it.
        let trailer: Int
        let offsetWidth: Int, referenceWidth: Int, objectCount: Int, tableOffset: Int

        /// The layout of `bytes`, or nil for a list this scan cannot follow (the parser rejects it).
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count >= 40 else { return nil }
            trailer = bytes.count - 32
            (offsetWidth, referenceWidth) = (Int(bytes[trailer + 6]), Int(bytes[trailer + 7]))
            guard (1...8).contains(offsetWidth), let objectCount = integer(bytes, at: trailer + 8, width: 8),
                  let tableOffset = integer(bytes, at: trailer + 24, width: 8), objectCount <= bytes.count,
                  tableOffset <= trailer, objectCount * offsetWidth <= trailer - tableOffset else { return nil }
            (self.objectCount, self.tableOffset) = (objectCount, tableOffset)
        }

        /// Where object number `object` starts, or nil when the table says nowhere inside the list.
        func offset(of object: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard object < objectCount, let offset = integer(bytes, at: tableOffset + object * offsetWidth, width: offsetWidth),
                  offset < trailer else { return nil }
            return offset
        }

        /// The object that member `index` of an array or dictionary refers to, its references
        /// starting at byte `start`; nil when the reference cannot be read or names no object.
        func reference(_ index: Int, from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard let object = integer(bytes, at: start + index * referenceWidth, width: referenceWidth), object < objectCount else { return nil }
            return object
        }
    }

    private static func scanBinary(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        var result = Result()
        guard let layout = BinaryLayout(bytes) else { return result }
        let trailer = layout.trailer
        var budget = ReadingBudget(bytes)
        for object in 0..<layout.objectCount {
            guard let offset = layout.offset(of: object, in: bytes) else { continue }
            let marker = bytes[offset]
            guard [0x50, 0x60, 0x70].contains(marker & 0xF0), let (count, start) = length(bytes, marker: marker, at: offset)
            else { continue }
            guard marker & 0xF0 == 0x60 else {
                if marker & 0xF0 == 0x50, count <= trailer - start {
                    guard budget.spend(count) else { return Result(problem: ReadingBudget.spent) }
                    if let high = bytes[start..<start + count].first(where: { $0 > 0x7F }) {
                        return Result(problem: "object \(object) is ASCII text holding the byte 0x\(String(high, radix: 16, uppercase: true)), "
                                          + "which is not ASCII; refusing rather than reading it as Latin-1")
                    }
                }
                result.longest = max(result.longest, count)
                continue
            }
            // UTF-16BE units: 1 to 3 UTF-8 bytes each, a surrogate pair 4 bytes.
            guard count <= (trailer - start) / 2 else { continue }
            guard budget.spend(2 * count) else { return Result(problem: ReadingBudget.spent) }
            var length = 0
            var index = 0
            while index < count {
                let unit = Int(bytes[start + 2 * index]) << 8 | Int(bytes[start + 2 * index + 1])
                switch unit {
                case 0xD800...0xDBFF:
                    let next = index + 1 < count ? Int(bytes[start + 2 * index + 2]) << 8 | Int(bytes[start + 2 * index + 3]) : 0
                    guard (0xDC00...0xDFFF).contains(next) else { return unpaired(object) }
                    length += 4
                    index += 2
                    continue
                case 0xDC00...0xDFFF:
                    return unpaired(object)
                default:
                    length += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3
                }
                index += 1
            }
            result.longest = max(result.longest, length)
        }
        return result
    }

    /// How deep a binary list's arrays and dictionaries may nest: the apps' files nest five levels.
    private static let maximumNesting = 1_000

    /// Why a binary list cannot be read into memory as it is, or nil: an array or dictionary that
    /// holds itself, nesting past ``maximumNesting``, or containers shared by so many references
    /// that, each read out wherever it is referenced (as the parser and a record reader read
    /// them), the list comes to more values than four per byte of the file and a million more
    /// (a 694 KB history.plist whose 10,000 days share one array of 10,000 names is 100 million
    /// names: the import grew to gigabytes and was killed; helper-57). Writers share strings,
    /// numbers and dates, and a list shared a few times stays far below that. One walk from the
    /// root, each container's members read twice at most.
    private static func expansionProblem(inBinary bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let layout = BinaryLayout(bytes), (1...8).contains(layout.referenceWidth),
              let root = integer(bytes, at: layout.trailer + 16, width: 8), root < layout.objectCount else { return nil }
        let limit = 4 * bytes.count + 1_000_000
        /// The references of a container object: where they start and how many; nil for any other object.
        func members(_ object: Int) -> (start: Int, count: Int)? {
            guard let offset = layout.offset(of: object, in: bytes), [0xA0, 0xC0, 0xD0].contains(bytes[offset] & 0xF0),
                  let (count, start) = length(bytes, marker: bytes[offset], at: offset) else { return nil }
            let references = bytes[offset] & 0xF0 == 0xD0 ? 2 * count : count
            guard references <= (layout.trailer - start) / layout.referenceWidth else { return nil }
            return (start, references)
        }
        func place(_ object: Int) -> String { "object \(object) (at byte \(layout.offset(of: object, in: bytes) ?? 0))" }
        // The values each object comes to, read out (at most `limit`, below `onPath`): 0 not yet
        // walked, `onPath` on the walk's path. Four bytes an object: a list of 512 MiB may hold
        // a hundred million.
        let onPath = UInt32.max
        var values = [UInt32](repeating: 0, count: layout.objectCount)
        var path: [(object: Int, members: (start: Int, count: Int)?, next: Int)] = [(root, members(root), 0)]
        values[root] = onPath
        while let (object, held, next) = path.last {
            if let held, next < held.count {
                path[path.count - 1].next += 1
                guard let child = layout.reference(next, from: held.start, in: bytes) else { continue }  // the parser refuses it
                if values[child] == onPath { return "\(place(child)) holds itself, through its members, which no property list can" }
                guard values[child] == 0 else { continue }
                guard path.count < maximumNesting else { return "its arrays and dictionaries nest deeper than \(maximumNesting) levels" }
                values[child] = onPath
                path.append((child, members(child), 0))
                continue
            }
            var total = 1
            if let held {
                for index in 0..<held.count { total += layout.reference(index, from: held.start, in: bytes).map { Int(values[$0] == onPath ? 0 : values[$0]) } ?? 0 }
            }
            if total > limit {
                return "\(place(object)) comes to more than \(limit) values once the arrays and dictionaries it shares are read "
                    + "wherever they are referenced, which no writer of property lists makes; refusing rather than reading it"
            }
            values[object] = UInt32(total)
            path.removeLast()
        }
        return nil
    }

    /// The problem of the first dictionary of the binary list that holds a key twice (the same key
    /// object twice, or two string objects of the same text, ASCII or UTF-16), named as "object N",
    /// or nil. Each key object's text is read once, however many dictionaries hold it.
    private static func repeatedKeyProblem(inBinary bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let layout = BinaryLayout(bytes), (1...8).contains(layout.referenceWidth) else { return nil }
        let (trailer, referenceWidth) = (layout.trailer, layout.referenceWidth)
        var budget = ReadingBudget(bytes)
        /// Each key object read so far: the number of its text among `texts`, or -1 when it is no string.
        var textOfObject: [Int: Int] = [:], numberOfText: [[UInt8]: Int] = [:], texts: [String] = []
        /// The number of the text of the string object `object` (one number per distinct text),
        /// nil for another kind of object; reading a new one may run out of `budget`.
        func text(_ object: Int) -> Int?? {
            if let known = textOfObject[object] { return known < 0 ? .some(nil) : known }
            var text: String?
            if let offset = layout.offset(of: object, in: bytes), let (count, start) = length(bytes, marker: bytes[offset], at: offset) {
                switch bytes[offset] & 0xF0 {
                case 0x50 where count <= trailer - start:
                    guard budget.spend(count) else { return nil }
                    text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + count]), as: UTF8.self)
                case 0x60 where count <= (trailer - start) / 2:
                    guard budget.spend(2 * count) else { return nil }
                    text = String(decoding: (0..<count).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) },
                                  as: UTF16.self)
                default:
                    break
                }
            }
            guard let text else {
                textOfObject[object] = -1
                return .some(nil)
            }
            let number = numberOfText[Array(text.utf8)] ?? texts.count
            if number == texts.count {
                numberOfText[Array(text.utf8)] = number
                texts.append(text)
            }
            textOfObject[object] = number
            return number
        }
        for object in 0..<layout.objectCount {
            guard let offset = layout.offset(of: object, in: bytes), bytes[offset] & 0xF0 == 0xD0,
                  let (count, start) = length(bytes, marker: bytes[offset], at: offset),
                  count <= (trailer - start) / referenceWidth else { continue }
            guard budget.spend(count * referenceWidth) else { return ReadingBudget.spent }
            var keys = Set<Int>()
            for index in 0..<count {
                guard let reference = layout.reference(index, from: start, in: bytes) else { continue }
                guard let key = text(reference) else { return ReadingBudget.spent }
                if let key, !keys.insert(key).inserted { return repeatedKey("object \(object)", texts[key]) }
            }
        }
        return nil
    }

    /// Where a binary list that the parser refused breaks, for the message: its trailer, or the
    /// first object whose type marker is unknown, whose content runs past the objects, or that
    /// refers to an object the list does not have, as "object N (at byte B): …". Nil when every
    /// object is whole (the parser refused it for another reason).
    static func binaryDamage(_ data: Data) -> String? {
        data.withUnsafeBytes { buffer in
            let bytes = buffer.bindMemory(to: UInt8.self)
            guard let layout = BinaryLayout(bytes), (1...8).contains(layout.referenceWidth) else {
                return "its trailer (the last 32 bytes) does not describe its objects: the file is cut short or damaged"
            }
            guard let root = integer(bytes, at: layout.trailer + 16, width: 8), root < layout.objectCount else {
                return "its trailer names a root object the list does not have"
            }
            let end = layout.tableOffset
            var budget = ReadingBudget(bytes)
            for object in 0..<layout.objectCount {
                guard let offset = layout.offset(of: object, in: bytes), offset >= 8, offset < end else {
                    return "object \(object): its offset lies outside the objects"
                }
                let marker = bytes[offset]
                var place: String { "object \(object) (at byte \(offset))" }
                /// Whether `size` bytes from `start` (nil: more than an `Int` holds) lie within the objects.
                func fits(_ start: Int, _ size: Int?) -> Bool { size.map { $0 >= 0 && $0 <= end - start } ?? false }
                switch marker >> 4 {
                case 0x0 where marker == 0x00 || marker == 0x08 || marker == 0x09 || marker == 0x0F: continue
                case 0x1 where marker & 0x0F <= 4, 0x2 where (2...3).contains(marker & 0x0F):
                    if !fits(offset + 1, 1 << Int(marker & 0x0F)) { return "\(place): its number runs past the objects" }
                case 0x3 where marker == 0x33:
                    if !fits(offset + 1, 8) { return "\(place): its date runs past the objects" }
                case 0x4, 0x5, 0x6:
                    guard let (count, start) = length(bytes, marker: marker, at: offset) else { return "\(place): its length is not readable" }
                    let (size, overflow) = count.multipliedReportingOverflow(by: marker >> 4 == 0x6 ? 2 : 1)
                    if overflow || !fits(start, size) {
                        return "\(place): its \(count) \(marker >> 4 == 0x6 ? "UTF-16 units" : marker >> 4 == 0x5 ? "characters" : "bytes") run past the objects"
                    }
                case 0x8:
                    if !fits(offset + 1, Int(marker & 0x0F) + 1) { return "\(place): its identifier runs past the objects" }
                case 0xA, 0xC, 0xD:
                    guard let (count, start) = length(bytes, marker: marker, at: offset) else { return "\(place): its length is not readable" }
                    let (references, overflow) = count.multipliedReportingOverflow(by: marker >> 4 == 0xD ? 2 : 1)
                    guard !overflow, fits(start, references.multipliedReportingOverflow(by: layout.referenceWidth).overflow
                                                  ? nil : references * layout.referenceWidth) else {
                        return "\(place): its \(count) members run past the objects"
                    }
                    guard budget.spend(references * layout.referenceWidth) else { return ReadingBudget.spent }
                    for index in 0..<references {
                        guard layout.reference(index, from: start, in: bytes) != nil else {
                            return "\(place): member \(index) refers to an object the list does not have"
                        }
                    }
                default:
                    return "\(place): its type marker 0x\(String(marker, radix: 16, uppercase: true)) is no property list type"
                }
            }
            return nil
        }
    }

    private static func unpaired(_ object: Int) -> Result {
        Result(problem: "object \(object) is UTF-16 text with an unpaired surrogate, which is not text; refusing rather than "
                   + "reading it as U+FFFD")
    }

    /// An object's count (from the marker's low nibble, or the integer object after it) and where
    /// its content starts.
    private static func length(_ bytes: UnsafeBufferPointer<UInt8>, marker: UInt8, at offset: Int) -> (Int, Int)? {
        guard marker & 0x0F == 0x0F else { return (Int(marker & 0x0F), offset + 1) }
        guard offset + 1 < bytes.count, bytes[offset + 1] & 0xF0 == 0x10 else { return nil }
        let width = 1 << Int(bytes[offset + 1] & 0x0F)
        guard width <= 8, let count = integer(bytes, at: offset + 2, width: width) else { return nil }
        return (count, offset + 2 + width)
    }

    /// A big-endian unsigned integer of `width` bytes at `offset`, or nil past the end or above `Int.max`.
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, width: Int) -> Int? {
        guard offset >= 0, width <= 8, offset <= bytes.count - width else { return nil }
        var value: UInt64 = 0
        for index in 0..<width { value = value << 8 | UInt64(bytes[offset + index]) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    // MARK: XML

    /// Where an XML list first holds bytes that are not text in the encoding it declares, as
    /// "line L, column C: …", or nil: bytes that are not UTF-8 in a list in UTF-8 (declared, or
    /// with no declared encoding), a byte over 0x7F in a list declared ASCII (the parser read such
    /// bytes as something else, or refused them naming no place). A list in UTF-16 or in another
    /// declared encoding is left to the parser.
    private static func textNotInItsEncoding(inXML bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if utf16BigEndian(bytes) != nil { return nil }
        var isASCII = false
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if bytes[start...].starts(with: "<?xml".utf8), let end = bytes.firstIndex(of: Array("?>".utf8), from: start) {
            let declaration = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
            if let encoding = declaration.range(of: "encoding") {
                let name = declaration[encoding.upperBound...].drop { " =\"'".contains($0) }.prefix { !" \"'?".contains($0) }
                    .filter { $0 != "-" && $0 != "_" }
                switch name {
                case "utf8": break
                case "ascii", "usascii": isASCII = true
                default: return nil
                }
            }
        }
        var decoder = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if isASCII && encoded.count > 1 {
                    return "\(place(of: offset, in: bytes)): the byte \(String(format: "%02X", encoded.first!)) is not ASCII, "
                        + "which the file says it is in; refusing rather than guessing"
                }
                offset += encoded.count
            case .error(let length):
                let sequence = bytes[offset..<offset + length].map { String(format: "%02X", $0) }.joined(separator: " ")
                return "\(place(of: offset, in: bytes)): \(length == 1 ? "the byte \(sequence) is" : "the bytes \(sequence) are") not "
                    + "\(isASCII ? "ASCII" : "UTF-8"), which the file says it is in; refusing rather than guessing"
            case .emptyInput:
                return nil
            }
        }
    }

    /// Whether an XML list is in UTF-16, big-endian or not, from its byte order mark or, without
    /// one, from the zero byte next to its first `<`; nil when it is not in UTF-16.
    private static func utf16BigEndian(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        if bytes.starts(with: [0xFE, 0xFF]) { return true }
        if bytes.starts(with: [0xFF, 0xFE]) { return false }
        guard bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 else { return nil }
        return bytes[0] == 0
    }

    /// "line L, column C" of the byte at `offset` of a list in UTF-8, lines ending at LF, CR LF or
    /// a CR alone, columns counted in characters (Unicode scalars).
    private static func place(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        var (line, lineStart) = (1, 0)
        for index in 0..<offset {
            let byte = bytes[index]
            let isLast = index + 1 == bytes.count
            let endsALine = byte == 0x0A || (byte == 0x0D && (isLast || bytes[index + 1] != 0x0A))
            if endsALine { (line, lineStart) = (line + 1, index + 1) }
        }
        return "line \(line), column \(String(decoding: bytes[lineStart..<offset], as: UTF8.self).unicodeScalars.count + 1)"
    }

    /// What the parser would read past in an XML list's markup (``XMLPropertyListMarkup``): as a
    /// `problem`, "line L, column C: …", a `<date>` whose text is not a date and time that exist in
    /// the form the property list writers use, or anything after the root element; and the first
    /// key a dictionary holds twice, entities and CDATA sections decoded, with the line and column
    /// of its second `<key>`'s text. A list in UTF-16 is read
    /// as UTF-8 for this, and named in those lines and columns.
    private static func markupFindings(inXML bytes: UnsafeBufferPointer<UInt8>) -> (problem: String?, repeatedKey: (place: String, key: String)?) {
        if utf16BigEndian(bytes) != nil {
            var text = String(decoding: utf16Units(bytes), as: UTF16.self)
            return text.withUTF8(markupFindings(inUTF8:))
        }
        return markupFindings(inUTF8: bytes)
    }

    /// The UTF-16 code units of a list in UTF-16, after its byte order mark if it has one; none for
    /// a list that is not in UTF-16.
    private static func utf16Units(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt16] {
        guard let bigEndian = utf16BigEndian(bytes) else { return [] }
        let start = bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) ? 2 : 0
        return stride(from: start, to: bytes.count - 1, by: 2).map { index -> UInt16 in
            let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            return UInt16(high) << 8 | UInt16(low)
        }
    }

    private static func markupFindings(inUTF8 bytes: UnsafeBufferPointer<UInt8>) -> (problem: String?, repeatedKey: (place: String, key: String)?) {
        let markup = XMLPropertyListMarkup(bytes)
        for range in markup.dates where !isPropertyListDate(bytes[range]) {
            let text = String(decoding: bytes[range], as: UTF8.self)
            return ("\(place(of: range.lowerBound, in: bytes)): the <date> \"\(text.prefix(60))\" is not a date and time that exist, "
                + "written YYYY-MM-DDTHH:MM:SSZ (years 0001 to 9999); the property list reader would read it as another "
                + "instant, so the file is refused", nil)
        }
        if let after = markup.contentAfterTheRoot {
            return ("\(place(of: after, in: bytes)): more follows the end of the property list (another property list, or other "
                + "text); the property list reader stops at the end of the first and would drop the rest, so the file is refused", nil)
        }
        var keysSeen: [Int: Set<[UInt8]>] = [:]
        for (dictionary, content) in markup.keys {
            let key = decodedText(bytes[content])
            if !keysSeen[dictionary, default: []].insert(key).inserted {
                return (nil, (place(of: content.lowerBound, in: bytes), String(decoding: key, as: UTF8.self)))
            }
        }
        return (nil, nil)
    }

    /// Whether `text` is a `<date>` as property list writers write it, `YYYY-MM-DDTHH:MM:SSZ`,
    /// naming a day and a time of day that exist in the proleptic Gregorian calendar (as the
    /// parser reads them) or, before the reform, the Julian calendar (as `PropertyListDecoder`
    /// reads them: ``ReformCalendar``), in the years 0001 to 9999. Which reading a list is read
    /// with depends on its records' kind: ``datesAsTheAppReadsThem(_:kind:)``.
    private static func isPropertyListDate(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let day = propertyListDay(text) else { return false }
        guard ReformCalendar.isJulianLeapDayOnly(day) else { return Date.reading(iso8601UTF8: UnsafeBufferPointer(rebasing: text)) != .malformed }
        // Its time of day, read on the 28th (it was taken whatever it said, `T99:99:99Z` too: helper-96).
        var onThe28th = Array(text)
        onThe28th.replaceSubrange(8..<10, with: Array("28".utf8))
        return onThe28th.withUnsafeBufferPointer { Date.reading(iso8601UTF8: $0) != .malformed }
    }

    /// The day of a text of the `<date>` form, `YYYY-MM-DDTHH:MM:SSZ`, with a month 1 to 12 and a day 1 to 31; else nil.
    private static func propertyListDay(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> ReformCalendar.Day? {
        guard text.count == dateShape.count,
              zip(text, dateShape).allSatisfy({ byte, expected in expected == UInt8(ascii: "0") ? (0x30...0x39).contains(byte) : byte == expected })
        else { return nil }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(text[text.startIndex + $1] - 0x30) } }
        let day = ReformCalendar.Day(year: number(0..<4), month: number(5..<7), day: number(8..<10))
        return (1...12).contains(day.month) && (1...31).contains(day.day) ? day : nil
    }

    private static let dateShape = Array("0000-00-00T00:00:00Z".utf8)

    // MARK: Dates as the apps' loaders read them

    /// An XML list's `<date>` texts as the loader of `kind`'s app reads them (``ReformCalendar``):
    /// drafts as `PropertyListDecoder` does, before the reform in the Julian calendar, so the list
    /// comes back (`rewritten`) with each such date written as its proleptic Gregorian day, which
    /// is how the parser reads it; history as `PropertyListSerialization` does, which is how the
    /// parser reads it already. A date its loader has no day for is the `problem`: for drafts, one
    /// of the ten days the reform skipped (the decoder reads it as ten days later), for history a
    /// leap day only the Julian calendar has (the parser reads it as March 1st). A list in UTF-16
    /// whose drafts have dates before the reform is refused (they are not rewritten there). A
    /// binary list holds instants, not texts: nil, nil.
    static func datesAsTheAppReadsThem(_ data: Data, kind: RecordKind) -> (rewritten: Data?, problem: String?) {
        var rewrites: [(offset: Int, day: ReformCalendar.Day)] = []
        let problem = data.withUnsafeBytes { buffer -> String? in
            let bytes = buffer.bindMemory(to: UInt8.self)
            guard !bytes.starts(with: "bplist".utf8) else { return nil }
            guard utf16BigEndian(bytes) != nil else { return dateProblem(inUTF8: bytes, kind: kind, rewrites: &rewrites) }
            var text = String(decoding: utf16Units(bytes), as: UTF16.self)
            let problem = text.withUTF8 { dateProblem(inUTF8: $0, kind: kind, rewrites: &rewrites) }
            guard problem == nil, let first = rewrites.first else { return problem }
            let date = String(decoding: Array(text.utf8)[first.offset..<first.offset + dateShape.count], as: UTF8.self)
            return text.withUTF8 { "\(place(of: first.offset, in: $0)): the <date> \"\(date)\" is before the Gregorian reform (1582-10-15), "
                + "which the apps' PropertyListDecoder reads in the Julian calendar; Logbook reads such dates in XML lists in UTF-8 "
                + "only: convert the file to UTF-8 or to a binary property list" }
        }
        guard problem == nil, !rewrites.isEmpty else { return (nil, problem) }
        var rewritten = data
        rewritten.withUnsafeMutableBytes { buffer in
            let bytes = buffer.bindMemory(to: UInt8.self)
            for (offset, day) in rewrites {
                var index = offset
                for (value, width) in [(day.year, 4), (day.month, 2), (day.day, 2)] {
                    writeDigits(value, width: width, into: bytes, at: &index)
                    index += 1
                }
            }
        }
        return (rewritten, nil)
    }

    /// ``datesAsTheAppReadsThem(_:kind:)`` over a list in UTF-8: the problem, else in `rewrites`
    /// where each drafts' date before the reform begins and its proleptic Gregorian day.
    private static func dateProblem(inUTF8 bytes: UnsafeBufferPointer<UInt8>, kind: RecordKind,
                                    rewrites: inout [(offset: Int, day: ReformCalendar.Day)]) -> String? {
        for range in XMLPropertyListMarkup(bytes).dates {
            guard let day = propertyListDay(bytes[range]), day < ReformCalendar.firstGregorianDay else { continue }
            let date = { String(decoding: bytes[range], as: UTF8.self) }
            switch kind {
            case .history where ReformCalendar.isJulianLeapDayOnly(day):
                return "\(place(of: range.lowerBound, in: bytes)): the <date> \"\(date())\" is a leap day only the Julian calendar has; "
                    + "a history.plist's dates are read in the Gregorian calendar, where it is March 1st, so the file is refused"
            case .history:
                continue
            case .drafts where ReformCalendar.isSkippedByTheReform(day):
                return "\(place(of: range.lowerBound, in: bytes)): the <date> \"\(date())\" is one of the ten days the Gregorian reform "
                    + "skipped, which the apps' PropertyListDecoder reads as ten days later, so the file is refused"
            case .drafts:
                let proleptic = ReformCalendar.prolepticDay(of: day)
                // Julian 0001-01-01 and 02 are days of year 0000 (proleptic), which the file's text does not say.
                guard proleptic.year >= 1 else {
                    return "\(place(of: range.lowerBound, in: bytes)): the <date> \"\(date())\" is, as the apps' PropertyListDecoder reads it "
                        + "(in the Julian calendar), a day before 0001-01-01, outside years 0001 to 9999, so the file is refused"
                }
                rewrites.append((range.lowerBound, proleptic))
            }
        }
        return nil
    }

    private static let openTag = Array("<string>".utf8), closeTag = Array("</string>".utf8)
    private static let cdataStart = XMLPropertyListMarkup.cdataStart, cdataEnd = XMLPropertyListMarkup.cdataEnd

    /// Character references that name no character, which the parser reads as U+0000.
    private static let referencesWithoutDigits = ["&#;", "&#x;"]

    private static func scanXML(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        var result = Result()
        var index = 0
        while let open = bytes.firstIndex(of: openTag, from: index) {
            var position = open + openTag.count
            var length = 0
            var first = true
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "<") && bytes[position...].starts(with: closeTag) { break }
                if !first && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&") {
                    length += 1
                    position += 1
                    continue
                }
                if byte == UInt8(ascii: "&"), let reference = referencesWithoutDigits.first(where: { bytes[position...].starts(with: $0.utf8) }) {
                    return Result(problem: "\(place(of: position, in: bytes)): the character reference \(reference) has no digits, "
                                      + "which the property list reader reads as U+0000; refusing rather than reading a character "
                                      + "the file does not name")
                }
                let (characterBytes, consumed, isByteOrderMark) = character(in: bytes, at: position)
                if first && isByteOrderMark {
                    return Result(problem: "\(place(of: open, in: bytes)): a <string> begins with U+FEFF, which the property list "
                                      + "reader drops; refusing rather than changing the text (a binary property list keeps it)")
                }
                // An empty CDATA section is no character: the parser drops a U+FEFF after it too.
                if characterBytes > 0 { first = false }
                length += characterBytes
                position += consumed
            }
            result.longest = max(result.longest, length)
            index = position
        }
        return result
    }

    /// The UTF-8 bytes of XML text with its entities and CDATA sections decoded (an entity it
    /// cannot read is kept as written).
    private static func decodedText(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        var decoded: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].starts(with: cdataStart) {
                let start = index + cdataStart.count
                let end = text[start...].indices.first { text[$0...].starts(with: cdataEnd) } ?? text.endIndex
                decoded.append(contentsOf: text[start..<end])
                index = min(text.endIndex, end + cdataEnd.count)
                continue
            }
            if let (scalar, length) = entity(in: text.base, at: index, before: text.endIndex) {
                decoded.append(contentsOf: String(scalar).utf8)
                index += length
                continue
            }
            decoded.append(text[index])
            index += 1
        }
        return decoded
    }

    /// The decoded UTF-8 length of the text at `position` (one byte, an entity or a CDATA section),
    /// the bytes it takes, and whether it is U+FEFF.
    private static func character(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (Int, Int, Bool) {
        if bytes[position...].starts(with: cdataStart) {
            let start = position + cdataStart.count
            let end = bytes.firstIndex(of: cdataEnd, from: start) ?? bytes.count
            let isMark = bytes[start...].starts(with: [0xEF, 0xBB, 0xBF])
            return (end - start, min(bytes.count, end + cdataEnd.count) - position, isMark)
        }
        if let (scalar, length) = entity(in: bytes, at: position, before: bytes.count) {
            return (scalar.utf8.count, length, scalar == "\u{FEFF}")
        }
        // An entity these do not read counts as the bytes it is written with, one at a time.
        return (1, 1, bytes[position...].starts(with: [0xEF, 0xBB, 0xBF]))
    }

    /// The character the entity at `position` stands for (`&amp;`, `&#233;`, `&#xE9;`, ending
    /// before `end`) and the bytes it takes, or nil when there is none there that these read.
    private static func entity(in bytes: UnsafeBufferPointer<UInt8>, at position: Int, before end: Int) -> (Unicode.Scalar, Int)? {
        guard bytes[position] == UInt8(ascii: "&"),
              let semicolon = (position + 1..<min(end, position + 12)).first(where: { bytes[$0] == UInt8(ascii: ";") }) else { return nil }
        let name = String(decoding: bytes[(position + 1)..<semicolon], as: UTF8.self)
        let named: Unicode.Scalar? = switch name {
        case "amp": "&"
        case "lt": "<"
        case "gt": ">"
        case "quot": "\""
        case "apos": "'"
        default: nil
        }
        let number = name.hasPrefix("#x") || name.hasPrefix("#X") ? UInt32(name.dropFirst(2), radix: 16)
            : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
        guard let scalar = named ?? number.flatMap(Unicode.Scalar.init) else { return nil }
        return (scalar, semicolon + 1 - position)
    }
}
