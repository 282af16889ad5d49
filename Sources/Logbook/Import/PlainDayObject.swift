import Foundation
import SQLiteQuery

/// A day record read straight from its bytes, when they are in the plain shape exports and the apps
/// write: one JSON object with members `id`, `day`, `date` and `exercises` (each at most once, in any
/// order), strings without escapes, `exercises` an array of strings, and values that decode. Such an
/// object is most of an NDJSON or app-JSON history import, and reading it into a ``JSONValue`` tree
/// first cost as many instructions per record as the parse itself.
///
/// ``read(_:isLineDelimited:names:)`` answers only where the general path (``JSONParser`` then
/// ``JSONRecordDecoding/day(_:)``) reads the same bytes to the same record without an error;
/// anything else (another member, an escape, a line break inside a line-delimited value, a value
/// that would not decode, an object that runs past the bytes given) gives nil, and the caller
/// reads the object the general way, which finds the error and reports it as ever.
enum PlainDayObject {
    /// The record the object at the start of `bytes` holds (`value`) and the object's length in
    /// bytes, or nil when the general path must read it. With `isLineDelimited` (NDJSON), a line
    /// break inside the object gives nil.
    /// Exercise names are made through `names` (an import's, so that a history's few names are
    /// decoded once each).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, isLineDelimited: Bool, names: RecentTexts) -> (value: DayInput, length: Int)? {
        var reader = Reader(bytes: bytes, isLineDelimited: isLineDelimited, recentNames: names)
        guard let record = reader.dayObject() else { return nil }
        return (record, reader.position)
    }

    /// The members a plain object may have, as bits of a set (each at most once).
    private enum Member: UInt8 {
        case id = 1, day = 2, date = 4, exercises = 8

        init?(name: UnsafeBufferPointer<UInt8>) {
            func named(_ word: StaticString) -> Bool {
                guard let start = name.baseAddress, name.count == word.utf8CodeUnitCount else { return false }
                return memcmp(start, word.utf8Start, name.count) == 0
            }
            if named("id") {
                self = .id
            } else if named("day") {
                self = .day
            } else if named("date") {
                self = .date
            } else if named("exercises") {
                self = .exercises
            } else {
                return nil
            }
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let isLineDelimited: Bool
        /// The exercise names decoded last.
        let recentNames: RecentTexts
        var position = 0

        /// The byte at the position, or nil past the end.
        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func dayObject() -> DayInput? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var seen: UInt8 = 0
            var record = DayInput(id: nil, date: nil, day: nil, exercises: [])
            repeat {
                guard skipWhitespace(), let name = plainString(), let member = Member(name: name),
                      seen & member.rawValue == 0 else { return nil }
                seen |= member.rawValue
                guard skipWhitespace(), take(UInt8(ascii: ":")), skipWhitespace() else { return nil }
                switch member {
                case .id:
                    if !takeNull() {
                        guard let text = plainText(), let id = UUID(text: text) else { return nil }
                        record.id = id
                    }
                case .day:
                    if !takeNull() {
                        guard let text = plainText(), let day = CalendarDay(text) else { return nil }
                        record.day = day
                    }
                case .date:
                    if !takeNull() {
                        guard let date = date() else { return nil }
                        record.date = date
                    }
                case .exercises:
                    guard let names = strings() else { return nil }
                    record.exercises = names
                }
                guard skipWhitespace() else { return nil }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), seen & Member.exercises.rawValue != 0,
                  record.day != nil || record.date != nil else { return nil }
            return record
        }

        /// `[` plain strings separated by commas `]`.
        mutating func strings() -> [String]? {
            guard take(UInt8(ascii: "[")), skipWhitespace() else { return nil }
            var names: [String] = []
            if take(UInt8(ascii: "]")) { return names }
            names.reserveCapacity(8)
            repeat {
                guard skipWhitespace(), let bytes = plainString(), let name = recentNames.string(bytes, orDecode: Self.text(of:)),
                      skipWhitespace() else { return nil }
                names.append(name)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? names : nil
        }

        /// A date as ``JSONRecordDecoding/optionalDate(_:_:)`` reads one that decodes: seconds since
        /// 2001 as a JSON number, or ISO-8601 text.
        mutating func date() -> Date? {
            if current == UInt8(ascii: "\"") {
                // ISO-8601 text is ASCII: other bytes, valid UTF-8 or not, do not parse.
                guard let text = plainString() else { return nil }
                return Date(iso8601UTF8: text)
            }
            guard let text = number(), let seconds = Double(text), seconds.isFinite else { return nil }
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            return date.isSupported ? date : nil
        }

        /// A JSON number's text (RFC 8259's grammar), up to 64 bytes.
        mutating func number() -> String? {
            let start = position
            _ = take(UInt8(ascii: "-"))
            let leadingZero = current == UInt8(ascii: "0")
            let integerDigits = digits()
            guard integerDigits > 0, !(leadingZero && integerDigits > 1) else { return nil }
            if take(UInt8(ascii: ".")), digits() == 0 { return nil }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                // The general parser keeps the exponent's letter as `e`; `Double` reads both alike.
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { return nil }
            }
            guard position - start <= 64 else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        }

        mutating func digits() -> Int {
            let start = position
            while let byte = current, byte &- UInt8(ascii: "0") < 10 { position += 1 }
            return position - start
        }

        /// A string with no escape and no control character, as its text: ASCII as it is, other
        /// bytes only when they are valid UTF-8 (the general parser's rule, ``String/init(exactUTF8:)``).
        mutating func plainText() -> String? {
            plainString().flatMap(Self.text(of:))
        }

        /// The text of a plain string's bytes, or nil when they are too long or not UTF-8.
        static func text(of contents: UnsafeBufferPointer<UInt8>) -> String? {
            guard contents.count <= RecordLimits.textBytes else { return nil }
            if contents.allSatisfy({ $0 < 0x80 }) { return String(decoding: contents, as: UTF8.self) }
            return String(exactUTF8: contents)
        }

        /// The bytes between the quotes of a string with no escape and no control character.
        mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while let byte = current {
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<position - 1])
                }
                guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
                position += 1
            }
            return nil
        }

        mutating func takeNull() -> Bool {
            guard bytes.count - position >= 4, bytes[position] == UInt8(ascii: "n"), bytes[position + 1] == UInt8(ascii: "u"),
                  bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l") else { return false }
            position += 4
            return true
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            position += 1
            return true
        }

        /// Skips JSON whitespace; false at a line break when line-delimited.
        mutating func skipWhitespace() -> Bool {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if byte == 0x0A && isLineDelimited { return false }
                position += 1
            }
            return true
        }
    }
}
