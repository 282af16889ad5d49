import Foundation

extension Date {
    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    static let referenceDateUnixTime: Double = 978_307_200

    /// The range of instants Logbook stores and writes: years 0001 to 9999, so every date has an
    /// ISO-8601 form and a microsecond count that fits in 64 bits.
    public static let supportedRange: ClosedRange<Date> =
        Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799.999_999)

    /// Whether this instant is finite and within ``supportedRange``.
    public var isSupported: Bool {
        timeIntervalSinceReferenceDate.isFinite && Date.supportedRange.contains(self)
    }

    /// ISO-8601 in UTC with exactly six fractional digits, `2026-01-31T08:30:00.123456Z`: the form
    /// of every date in JSON, NDJSON and CSV. Rounds to the nearest microsecond.
    public var iso8601Microseconds: String {
        guard isSupported else { return "invalid-date(\(timeIntervalSinceReferenceDate))" }
        let micros = Int64((timeIntervalSince1970 * 1_000_000).rounded())
        let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        let wholeSeconds = fraction < 0 ? seconds - 1 : seconds
        let microseconds = fraction < 0 ? fraction + 1_000_000 : fraction
        let (days, secondOfDay) = wholeSeconds.quotientAndRemainder(dividingBy: 86_400)
        let dayNumber = Int(secondOfDay < 0 ? days - 1 : days)
        let second = Int(secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay)
        let (year, month, day) = CivilDate.civil(fromDayNumber: dayNumber)
        // Written digit by digit into 27 bytes: this runs once per row of every export.
        return String(unsafeUninitializedCapacity: 27) { buffer in
            var index = 0
            func put(_ value: Int, _ width: Int) {
                var rest = value
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    buffer[position] = UInt8(48 + rest % 10)
                    rest /= 10
                }
                index += width
            }
            func put(_ character: UInt8) {
                buffer[index] = character
                index += 1
            }
            put(year, 4); put(0x2D); put(month, 2); put(0x2D); put(day, 2); put(0x54)
            put(second / 3600, 2); put(0x3A); put(second / 60 % 60, 2); put(0x3A); put(second % 60, 2)
            put(0x2E); put(Int(microseconds), 6); put(0x5A)
            return index
        }
    }

    /// Parses `2026-01-31T08:30:00Z`, `2026-01-31T08:30:00.123456Z` or `…+02:00` (any number of
    /// fractional digits, `Z` or a `±HH:MM` offset). Returns nil for anything else.
    public init?(iso8601 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(4), reader.skip("-"), let month = reader.number(2), reader.skip("-"),
              let day = reader.number(2), reader.skip("T") || reader.skip("t") || reader.skip(" "),
              let hour = reader.number(2), reader.skip(":"), let minute = reader.number(2), reader.skip(":"),
              let second = reader.number(2),
              (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            var scale = 0.1
            var digits = 0
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds = 0
        if reader.skip("Z") || reader.skip("z") {
        } else if let sign = reader.sign(), let offsetHours = reader.number(2), reader.skip(":"),
                  let offsetMinutes = reader.number(2), offsetHours < 24, offsetMinutes < 60 {
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        let dayNumber = CivilDate.dayNumber(year: year, month: month, day: day)
        let unixSeconds = dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        // Build from whole seconds and the fraction separately so 6 digits survive exactly.
        self.init(timeIntervalSinceReferenceDate: (Double(unixSeconds) - Date.referenceDateUnixTime) + fraction)
        guard isSupported else { return nil }
    }
}

/// Reads fixed-width ASCII digits and punctuation from a byte array.
struct DigitReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func digit() -> Int? {
        guard position < bytes.count, (48...57).contains(bytes[position]) else { return nil }
        defer { position += 1 }
        return Int(bytes[position] - 48)
    }

    mutating func number(_ width: Int) -> Int? {
        var value = 0
        for _ in 0..<width {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(character.value) else { return false }
        position += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
