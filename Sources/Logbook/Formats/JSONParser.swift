import Foundation
import SQLiteQuery

/// A strict streaming JSON parser (RFC 8259) over a ``ByteStream``: values are parsed one at a
/// time, so a top-level array of any length is read element by element. Errors carry the line and
/// column; depth, string length and element size are bounded so hostile input cannot exhaust memory.
public struct JSONParser {
    /// Malformed input, at the line and column where the parser stopped.
    public struct SyntaxError: Error, Equatable {
        /// What is wrong: `unterminated string (the file is truncated)`.
        public let message: String
        /// The 1-based line of the byte at fault: the next unread byte when the parser stopped, or
        /// in a string that is not UTF-8, the first byte of its first invalid sequence.
        public let line: Int
        /// The 1-based column of that byte, counted in bytes.
        public let column: Int
        /// Where in the value being read, when the problem is inside a member or an element of it:
        /// `version`, `checklist[0].title`, `exercises[1]` (indexes 0-based); nil at its top.
        public var field: String?

        /// The error as met inside `member` (a name, or an `[index]`) of an enclosing value.
        func inside(_ member: String) -> SyntaxError {
            var error = self
            error.field = member + (field.map { $0.hasPrefix("[") ? $0 : "." + $0 } ?? "")
            return error
        }
    }

    /// The deepest nesting accepted.
    static let maximumDepth = 64
    /// The longest number accepted: enough for every `Double` written out exactly (5e-324 takes
    /// 767 significant digits), and a bound on what a hostile file can make the parser hold.
    static let maximumNumberLength = 1_100

    let stream: ByteStream
    /// NDJSON: a value must end on the line it starts on.
    let isLineDelimited: Bool

    /// A parser reading `stream`. With `isLineDelimited` (NDJSON), a line break inside a value is an error.
    public init(stream: ByteStream, isLineDelimited: Bool = false) {
        self.stream = stream
        self.isLineDelimited = isLineDelimited
    }

    // MARK: Top-level array, element by element

    /// Consumes leading whitespace and `[`; throws unless the document is an array.
    public func beginArray() throws {
        try skipWhitespace()
        guard try stream.peek() == UInt8(ascii: "[") else {
            if try stream.peek() == nil { throw error("the file is empty; expected a JSON array") }
            throw error("expected a JSON array ('[') at the top level")
        }
        _ = try stream.next()
    }

    /// The next element of the array begun with ``beginArray()``, or nil after `]` (and only
    /// whitespace after it).
    public func nextElement(isFirst: Bool) throws -> JSONValue? {
        guard try beginElement(isFirst: isFirst) else { return nil }
        return try elementValue()
    }

    /// Moves to the start of the array's next element (past `,` and whitespace) and returns true,
    /// or consumes `]` (and checks that only whitespace follows) and returns false.
    func beginElement(isFirst: Bool) throws -> Bool {
        try skipWhitespace()
        if try stream.peek() == UInt8(ascii: "]") {
            _ = try stream.next()
            try expectEnd()
            return false
        }
        if !isFirst {
            guard try stream.next() == UInt8(ascii: ",") else { throw error("expected ',' or ']' after an array element") }
            try skipWhitespace()
        }
        return true
    }

    /// The array element that starts at the current position (after ``beginElement(isFirst:)``).
    func elementValue() throws -> JSONValue {
        try value(depth: 1)
    }

    /// The value on the next non-blank line (NDJSON), or nil at the end of the file. Only spaces
    /// may follow it on its line.
    public func nextLine() throws -> JSONValue? {
        guard try beginLine() else { return nil }
        let parsed = try lineValue()
        try endLine()
        return parsed
    }

    /// Skips blank lines up to the next value (true), or to the end of the file (false).
    func beginLine() throws -> Bool {
        while let byte = try stream.peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            _ = try stream.next()
        }
        return try stream.peek() != nil
    }

    /// The value that starts at the current position of a line (after ``beginLine()``): a level
    /// deep, as an element of a file's array is, so that a record nests as deep in either.
    func lineValue() throws -> JSONValue {
        try value(depth: 1)
    }

    /// Consumes what follows a line's value: spaces, then the line break (or the end of the file).
    func endLine() throws {
        while let byte = try stream.peek(), byte == 0x20 || byte == 0x09 || byte == 0x0D { _ = try stream.next() }
        if let byte = try stream.next(), byte != 0x0A { throw error("expected one JSON value per line") }
    }

    /// The line and column of the next byte.
    public var position: (line: Int, column: Int) { (stream.line, stream.column) }

    /// Throws unless nothing but whitespace is left in the stream.
    public func expectEnd() throws {
        try skipWhitespace()
        if try stream.peek() != nil { throw error("unexpected text after the end of the JSON value") }
    }

    // MARK: Values

    private func value(depth: Int) throws -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        guard let byte = try stream.peek() else { throw error("unexpected end of file (the file is truncated)") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character '\(Self.printable(byte))'")
        }
    }

    private func object(depth: Int) throws -> JSONValue {
        _ = try stream.next()
        var members: [(key: String, value: JSONValue)] = []
        // The names, once there are more than a record has: a scan of every earlier name per
        // member made an object of a million members a half-trillion comparisons.
        var names: Set<ExactText>?
        try skipWhitespace()
        if try stream.peek() == UInt8(ascii: "}") {
            _ = try stream.next()
            return .object(members)
        }
        while true {
            try skipWhitespace()
            guard try stream.peek() == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let key = try string()
            try skipWhitespace()
            guard try stream.next() == UInt8(ascii: ":") else { throw error("expected ':' after member name \"\(key)\"") }
            try skipWhitespace()
            // Names compare byte for byte: NFC and NFD spellings are different members.
            if members.count < 16 {
                if members.contains(where: { $0.key.hasSameUTF8(as: key) }) { throw error("duplicate member \"\(key)\"") }
            } else {
                if names == nil { names = Set(members.map { ExactText($0.key) }) }
                guard names?.insert(ExactText(key)).inserted == true else { throw error("duplicate member \"\(key)\"") }
            }
            do {
                members.append((key, try value(depth: depth + 1)))
            } catch let error as SyntaxError {
                throw error.inside(key)
            }
            try skipWhitespace()
            switch try stream.next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(members)
            case nil: throw error("unexpected end of file inside an object (the file is truncated)")
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private func array(depth: Int) throws -> JSONValue {
        _ = try stream.next()
        var items: [JSONValue] = []
        try skipWhitespace()
        if try stream.peek() == UInt8(ascii: "]") {
            _ = try stream.next()
            return .array(items)
        }
        while true {
            try skipWhitespace()
            do {
                items.append(try value(depth: depth + 1))
            } catch let error as SyntaxError {
                throw error.inside("[\(items.count)]")
            }
            try skipWhitespace()
            switch try stream.next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return .array(items)
            case nil: throw error("unexpected end of file inside an array (the file is truncated)")
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private func string() throws -> String {
        _ = try stream.next()
        if let text = stream.takePlainASCIIString(maximumLength: RecordLimits.textBytes) { return text }
        var bytes: [UInt8] = []
        // Where each run of bytes copied as read begins, in `bytes` and on the line (a string
        // holds no line break), so that invalid UTF-8 is named at its own column: the first run,
        // and one after each escape (kept only when there is one, so a string without escapes
        // allocates nothing for it).
        let firstRun = (start: 0, column: stream.column)
        var runsAfterEscapes: [(start: Int, column: Int)] = []
        while true {
            stream.appendPlainStringBytes(to: &bytes)
            try checkLength(of: bytes)
            guard let byte = try stream.peek() else { throw error("unterminated string (the file is truncated)") }
            // A control character is named where it is, before it is consumed (a line break would
            // move the position to the next line).
            switch byte {
            case 0x0A, 0x0D:
                throw error("the line ends inside a string (a closing quote missing, or a line break to write as \\n)")
            case 0..<0x20:
                throw error(byte == 0 ? "NUL byte in a string (write U+0000 as \\u0000)" : "unescaped control character in a string")
            case UInt8(ascii: "\""):
                _ = try stream.next()
                guard let text = String(exactUTF8: bytes) else { throw invalidUTF8(in: bytes, runs: [firstRun] + runsAfterEscapes) }
                return text
            case UInt8(ascii: "\\"):
                _ = try stream.next()
                try escape(into: &bytes)
                runsAfterEscapes.append((bytes.count, stream.column))
            default:
                _ = try stream.next()
                bytes.append(byte)
            }
            try checkLength(of: bytes)
        }
    }

    /// The error for a string whose `bytes` are not UTF-8, at the line and column of the first
    /// byte of the first invalid sequence. An escape gives whole characters, so that byte is in a
    /// run copied as read: one of `runs`.
    private func invalidUTF8(in bytes: [UInt8], runs: [(start: Int, column: Int)]) -> SyntaxError {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: break decoding
            }
        }
        let run = runs.last { $0.start <= offset } ?? runs[0]
        let byte = offset < bytes.count ? " (byte \(Self.printable(bytes[offset])))" : ""
        return SyntaxError(message: "invalid UTF-8 in a string\(byte)", line: stream.line, column: run.column + offset - run.start)
    }

    /// Refuses a string past the longest text a record may hold, however it was read (a run of
    /// plain bytes may be all of a file held in memory).
    private func checkLength(of bytes: [UInt8]) throws {
        if bytes.count > RecordLimits.textBytes {
            throw error("string longer than \(RecordLimits.textBytes >> 20) MiB")
        }
    }

    private func escape(into bytes: inout [UInt8]) throws {
        guard let byte = try stream.next() else { throw error("unterminated escape (the file is truncated)") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard try stream.next() == UInt8(ascii: "\\"), try stream.next() == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate in a \\u escape")
                }
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in a \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("unpaired surrogate in a \\u escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
            bytes.append(contentsOf: unicode.utf8)
        default:
            throw error("invalid escape '\\\(Self.printable(byte))'")
        }
    }

    private func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try stream.next(), let digit = Self.hexValue(byte) else { throw error("invalid \\u escape") }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private func number() throws -> String {
        var text = ""
        func digits() throws -> Int {
            var count = 0
            while let byte = try stream.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                text.append(Character(Unicode.Scalar(byte)))
                _ = try stream.next()
                count += 1
                if text.utf8.count > Self.maximumNumberLength { throw error("number longer than \(Self.maximumNumberLength) characters") }
            }
            return count
        }
        if try stream.peek() == UInt8(ascii: "-") { text.append("-"); _ = try stream.next() }
        let leadingZero = try stream.peek() == UInt8(ascii: "0")
        let integerDigits = try digits()
        guard integerDigits > 0 else { throw error("invalid number") }
        if leadingZero && integerDigits > 1 { throw error("invalid number (leading zero)") }
        if try stream.peek() == UInt8(ascii: ".") {
            text.append(".")
            _ = try stream.next()
            guard try digits() > 0 else { throw error("invalid number (no digits after '.')") }
        }
        if let byte = try stream.peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            text.append("e")
            _ = try stream.next()
            if let sign = try stream.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                text.append(Character(Unicode.Scalar(sign)))
                _ = try stream.next()
            }
            guard try digits() > 0 else { throw error("invalid number (no digits in the exponent)") }
        }
        return text
    }

    private func literal(_ word: String) throws {
        for expected in word.utf8 {
            guard try stream.next() == expected else { throw error("invalid literal (expected \(word))") }
        }
    }

    private func skipWhitespace() throws {
        while let byte = try stream.peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            if byte == 0x0A && isLineDelimited {
                throw error("the line ends inside a JSON value (one whole value per line)")
            }
            _ = try stream.next()
        }
    }

    func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, line: stream.line, column: stream.column)
    }

    static func printable(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(Character(Unicode.Scalar(byte))) : String(format: "\\x%02X", byte)
    }
}
