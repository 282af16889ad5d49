/// A `$TZ` value written as a POSIX rule instead of a zone's name (`UTC0`, `JST-9`,
/// `<+0530>-5:30`, `EST5EDT,M3.2.0,M11.1.0`), which the C library (and `date`) reads when the tz
/// database has no zone file of that name: a standard time's abbreviation and its offset, then,
/// for a zone with daylight saving time, a second abbreviation and the rule of its changes.
///
/// The offset counts the hours *west* of UTC (`EST5` is five hours behind), the opposite of the
/// sign a zone's name such as `GMT+0530` carries in Foundation.
enum PosixTimeZoneRule: Equatable {
    /// A standard time only: always `secondsEastOfUTC` from UTC.
    case fixed(secondsEastOfUTC: Int)
    /// Standard and daylight saving time, changing by a rule Foundation has no zone for.
    case daylightSaving

    /// The rule `text` is, or nil when it is no POSIX rule (a zone's name, `FOO` without an
    /// offset, an offset past 24 hours).
    init?(_ text: String) {
        var rest = Substring(text)
        guard Self.readAbbreviation(&rest), let offset = Self.readOffset(&rest) else { return nil }
        if rest.isEmpty {
            self = .fixed(secondsEastOfUTC: -offset)
        } else if Self.readAbbreviation(&rest), rest.first.map({ "+-0123456789,".contains($0) }) ?? true {
            self = .daylightSaving
        } else {
            return nil
        }
    }

    /// Reads a zone abbreviation: three or more ASCII letters, or, between `<` and `>`, three or
    /// more ASCII letters, digits, `+` and `-`.
    private static func readAbbreviation(_ text: inout Substring) -> Bool {
        let isLetter: (Character) -> Bool = { $0.isASCII && $0.isLetter }
        if text.first == "<" {
            let inside = text.dropFirst().prefix { isLetter($0) || ($0.isASCII && $0.isNumber) || $0 == "+" || $0 == "-" }
            guard inside.count >= 3, inside.endIndex < text.endIndex, text[inside.endIndex] == ">" else { return false }
            text = text[text.index(after: inside.endIndex)...]
            return true
        }
        let letters = text.prefix(while: isLetter)
        guard letters.count >= 3 else { return false }
        text = text[letters.endIndex...]
        return true
    }

    /// Reads `[+|-]hh[:mm[:ss]]` (hours 0 to 24, one or two digits; minutes and seconds two
    /// digits, 0 to 59) as seconds, positive west of UTC.
    private static func readOffset(_ text: inout Substring) -> Int? {
        var sign = 1
        if let first = text.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            text = text.dropFirst()
        }
        func number(digits: ClosedRange<Int>, upTo limit: Int) -> Int? {
            let read = text.prefix { $0.isASCII && $0.isNumber }
            guard digits.contains(read.count), let value = Int(read), value <= limit else { return nil }
            text = text[read.endIndex...]
            return value
        }
        guard let hours = number(digits: 1...2, upTo: 24) else { return nil }
        var seconds = hours * 3600
        for (unit, limit) in [(60, 59), (1, 59)] {
            guard text.first == ":" else { break }
            text = text.dropFirst()
            guard let value = number(digits: 2...2, upTo: limit) else { return nil }
            seconds += value * unit
        }
        return sign * seconds
    }
}
