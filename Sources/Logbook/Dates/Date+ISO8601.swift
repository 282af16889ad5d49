import Foundation
import SQLiteQuery

extension Date {
    static let referenceDateUnixTime = ProlepticGregorian.referenceDateUnixTime

    /// The range of instants Logbook stores and writes: 0001-01-01T00:00:00Z up to, not including,
    /// 10000-01-01T00:00:00Z, so that every date has a four-digit ISO-8601 year. Near year 9999 a
    /// `Double` steps by about 30 µs, so the last instant is the `Double` just below 10000-01-01,
    /// whose text is `9999-12-31T23:59:59.999969Z`.
    public static let supportedRange: ClosedRange<Date> =
        Date(timeIntervalSinceReferenceDate: supportedSeconds.first) ... Date(timeIntervalSinceReferenceDate: supportedSeconds.end.nextDown)

    /// ``supportedRange`` in seconds since 2001: its first instant and the one just after its last,
    /// as constants for the check made on every date read (a static range is reached through a
    /// lazy-initialization check at each use).
    private static var supportedSeconds: (first: Double, end: Double) { (-63_113_904_000, 252_423_993_600) }

    /// Whether this instant is finite and within ``supportedRange``.
    public var isSupported: Bool {
        timeIntervalSinceReferenceDate.isFinite && Date.supportedRange.contains(self)
    }

    /// `date` as a record's `column` holds it: a date another program stored outside
    /// ``supportedRange`` is refused, as `check` names it, never listed or exported.
    @inline(__always)
    static func stored(_ date: Date, column: StaticString) throws -> Date {
        let seconds = date.timeIntervalSinceReferenceDate
        // False for NaN too.
        guard seconds >= supportedSeconds.first && seconds < supportedSeconds.end else { throw unsupported(date, column: column) }
        return date
    }

    private static func unsupported(_ date: Date, column: StaticString) -> ColumnConversionError {
        ColumnConversionError(column: "\(column)", expected: "a date in \(CalendarDay.supportedYearsText)",
                              found: "REAL \(date.timeIntervalSinceReferenceDate)")
    }

    /// Throws ``LogbookError/invalidValue(field:value:reason:)`` naming `field` unless ``isSupported``.
    func checkSupported(field: String) throws {
        guard isSupported else {
            throw LogbookError.invalidValue(field: field, value: textForMessages, reason: "outside \(CalendarDay.supportedYearsText)")
        }
    }

    /// The instant for an error message: ISO-8601 to the second for any year from -99999 to 99999
    /// (an unsupported instant has no exact form), else the number of seconds since 2001.
    public var textForMessages: String {
        if isSupported { return iso8601Microseconds }
        let seconds = timeIntervalSinceReferenceDate.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 3e12 else { return "\(timeIntervalSinceReferenceDate) seconds since 2001" }
        let (days, second) = Self.floorDivision(Int(seconds) + Self.referenceDateUnixTime, ProlepticGregorian.secondsPerDay)
        let (year, month, day) = ProlepticGregorian.date(ofDayNumber: days)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, second / 3600, second / 60 % 60, second % 60)
    }

    /// ISO-8601 in UTC with exactly six fractional digits, `2026-01-31T08:30:00.123456Z`: the form
    /// of every date in JSON, NDJSON and CSV.
    ///
    /// The stored `Double` (seconds since 2001) is rounded to the nearest microsecond exactly, as
    /// if in infinite precision, with ties (which exist: `0.0078125` is 7812.5 µs) to the even
    /// microsecond. ``init(iso8601:)`` gives back the `Double` nearest to the text, so text →
    /// date → text is the identity and export → import → export a fixed point.
    public var iso8601Microseconds: String {
        guard isSupported else { return "invalid-date(\(timeIntervalSinceReferenceDate))" }
        let (referenceSeconds, microseconds) = Self.roundedToMicroseconds(timeIntervalSinceReferenceDate)
        let (days, secondOfDay) = Self.floorDivision(referenceSeconds + Self.referenceDateUnixTime,
                                                     ProlepticGregorian.secondsPerDay)
        let (year, month, day) = ProlepticGregorian.date(ofDayNumber: days)
        // Written digit by digit into 27 bytes: this runs once per row of every export.
        return String(unsafeUninitializedCapacity: 27) { buffer in
            var index = 0
            func put(_ value: Int, _ width: Int) { writeDigits(value, width: width, into: buffer, at: &index) }
            func put(_ character: Unicode.Scalar) {
                buffer[index] = UInt8(character.value)
                index += 1
            }
            put(year, 4); put("-"); put(month, 2); put("-"); put(day, 2); put("T")
            put(secondOfDay / 3600, 2); put(":"); put(secondOfDay / 60 % 60, 2); put(":"); put(secondOfDay % 60, 2)
            put("."); put(microseconds, 6); put("Z")
            return index
        }
    }

    /// `seconds` split into whole seconds and microseconds (0 ..< 1,000,000), rounded to the nearest
    /// microsecond in exact arithmetic, ties to even.
    static func roundedToMicroseconds(_ seconds: Double) -> (seconds: Int, microseconds: Int) {
        if seconds < 0 && seconds > -1 {
            // The second before 2001: its fraction past the whole second, 1 + seconds, would be
            // rounded to 53 bits. Round the magnitude instead (to the nearest, ties to even, is
            // symmetric about zero) and count back from the next whole second.
            let magnitude = roundedToMicroseconds(-seconds)
            let micros = magnitude.seconds * 1_000_000 + magnitude.microseconds
            return micros == 0 ? (0, 0) : (-1, 1_000_000 - micros)
        }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole  // exact: whole is 0, or within a factor of 2 of seconds (Sterbenz)
        let scaled = fraction * 1_000_000  // rounded once; the fused multiply-add gives what was lost
        let lost = (-scaled).addingProduct(fraction, 1_000_000)
        var micros = scaled.rounded(.down)
        let rest = scaled - micros  // exact
        // `scaled` is within half its own unit of the true product, and micros + 0.5 is a Double of
        // that precision, so only a `rest` of exactly one half can be decided by `lost`.
        if rest > 0.5 || (rest == 0.5 && (lost > 0 || (lost == 0 && micros.truncatingRemainder(dividingBy: 2) == 1))) {
            micros += 1
        }
        var wholeSeconds = Int(whole)
        if micros == 1_000_000 {
            wholeSeconds += 1
            micros = 0
        }
        return (wholeSeconds, Int(micros))
    }

    /// Parses `2026-01-31T08:30:00Z`, `2026-01-31T08:30:00.123456Z` or `…+02:00` (any number of
    /// fractional digits, `Z` or a `±HH:MM` offset; `T`, `t` or a space between day and time).
    /// The result is the `Double` nearest to the instant the text names (ties to even), exactly
    /// what `Date(timeIntervalSinceReferenceDate:)` gives for that decimal number of seconds.
    /// Returns nil for anything else, and for instants before 0001-01-01T00:00:00Z or from
    /// 10000-01-01T00:00:00Z on.
    public init?(iso8601 text: some StringProtocol) {
        guard case .date(let date) = Date.reading(iso8601: text) else { return nil }
        self = date
    }

    /// ``init(iso8601:)`` from the text's UTF-8 bytes.
    init?(iso8601UTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard case .date(let date) = Date.reading(iso8601UTF8: bytes) else { return nil }
        self = date
    }

    /// What an ISO-8601 text holds for ``init(iso8601:)``: a supported instant, a well-formed one
    /// outside ``supportedRange`` (`0000-12-31T23:59:00Z`, `0001-01-01T00:00:00+00:01`), or no date
    /// of that form; so that a message can say which.
    enum ISO8601Reading: Equatable {
        case date(Date)
        case outsideSupportedRange
        case malformed
    }

    /// Reads `text` as ``init(iso8601:)`` does, telling an instant out of range from a malformed text.
    static func reading(iso8601 text: some StringProtocol) -> ISO8601Reading {
        // An import reads a date per record: from the string's own bytes where it has them.
        text.utf8.withContiguousStorageIfAvailable(Date.reading(iso8601UTF8:))
            ?? Array(text.utf8).withUnsafeBufferPointer(Date.reading(iso8601UTF8:))
    }

    /// ``reading(iso8601:)`` from the text's UTF-8 bytes.
    static func reading(iso8601UTF8 bytes: UnsafeBufferPointer<UInt8>) -> ISO8601Reading {
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(4), reader.skip("-"), let month = reader.number(2), reader.skip("-"),
              let day = reader.number(2), reader.skip("T") || reader.skip("t") || reader.skip(" "),
              let hour = reader.number(2), reader.skip(":"), let minute = reader.number(2), reader.skip(":"),
              let second = reader.number(2),
              (1...12).contains(month), (1...ProlepticGregorian.daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60, second < 60 else { return .malformed }
        var fractionDigits: Slice<UnsafeBufferPointer<UInt8>> = bytes[0..<0]
        if reader.skip(".") {
            let start = reader.position
            while reader.digit() != nil {}
            fractionDigits = bytes[start..<reader.position]
            guard !fractionDigits.isEmpty else { return .malformed }
        }
        var offsetSeconds = 0
        if reader.skip("Z") || reader.skip("z") {
        } else if let sign = reader.sign(), let offsetHours = reader.number(2), reader.skip(":"),
                  let offsetMinutes = reader.number(2), offsetHours < 24, offsetMinutes < 60 {
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return .malformed
        }
        guard reader.isAtEnd else { return .malformed }
        let dayNumber = ProlepticGregorian.dayNumber(year: year, month: month, day: day)
        let unixSeconds = dayNumber * ProlepticGregorian.secondsPerDay + hour * 3600 + minute * 60 + second - offsetSeconds
        let referenceSeconds = unixSeconds - referenceDateUnixTime
        // The instant itself must be in range; the Double nearest to an instant in the last 30 µs
        // before year 10000 is 10000-01-01 itself, so it becomes the last supported Double.
        guard supportedWholeSeconds.contains(referenceSeconds) else { return .outsideSupportedRange }
        let seconds = nearestDouble(seconds: referenceSeconds, fraction: fractionDigits)
        return .date(Date(timeIntervalSinceReferenceDate: min(seconds, Date.supportedRange.upperBound.timeIntervalSinceReferenceDate)))
    }

    /// The whole seconds since 2001 of the instants in ``supportedRange``.
    private static let supportedWholeSeconds = -63_113_904_000..<252_423_993_600

    /// The `Double` nearest to `seconds + 0.fraction` (decimal digits), correctly rounded.
    static func nearestDouble(seconds: Int, fraction: Slice<UnsafeBufferPointer<UInt8>>) -> Double {
        var end = fraction.endIndex
        while end > fraction.startIndex, fraction[end - 1] == UInt8(ascii: "0") { end -= 1 }
        let digits = fraction[fraction.startIndex..<end]
        if digits.isEmpty { return Double(seconds) }
        if digits.count <= 15 {
            var numerator = 0
            for digit in digits { numerator = numerator * 10 + Int(digit - UInt8(ascii: "0")) }
            var power = 1
            for _ in 0..<digits.count { power *= 10 }
            let (scaled, overflow) = seconds.multipliedReportingOverflow(by: power)
            let (total, carry) = scaled.addingReportingOverflow(numerator)
            if !overflow, !carry {
                // Numerator and power of ten both exact in a Double: one correctly rounded division.
                if total.magnitude <= 1 << 53 { return Double(total) / Double(power) }
                // Instants more than about 285 years from 2001 with microseconds: in integers.
                return nearestDouble(quotientOf: total, by: power)
            }
        }
        // Otherwise the decimal text through `strtod`, which rounds correctly: seconds + 0.fraction
        // written as one signed decimal.
        var text: String
        if seconds >= 0 {
            text = String(seconds) + "." + String(decoding: digits, as: UTF8.self)
        } else {
            // -s + 0.d = -((s - 1) + (1 - 0.d)), and 1 - 0.d has the digits of 10^n - d.
            var complement = Array(digits)
            var borrow = false
            for index in complement.indices.reversed() {
                let digit = Int(complement[index] - UInt8(ascii: "0"))
                let value = borrow ? 9 - digit : (digit == 0 ? 0 : 10 - digit)
                if digit != 0 { borrow = true }
                complement[index] = UInt8(ascii: "0") + UInt8(value)
            }
            text = "-" + String(-seconds - 1) + "." + String(decoding: complement, as: UTF8.self)
        }
        return Double(text) ?? Double(seconds)
    }

    /// The `Double` nearest to `numerator / denominator` (`denominator` > 0), ties to even, by
    /// integer division: the quotient scaled to 62 or more bits, with a remainder left over marked
    /// in its lowest bit (nine or more bits below where the conversion to `Double` rounds, so a
    /// quotient just past a halfway point is not taken for the halfway point itself).
    static func nearestDouble(quotientOf numerator: Int, by denominator: Int) -> Double {
        let magnitude = numerator.magnitude, divisor = UInt(denominator)
        let integerBits = UInt.bitWidth - (magnitude / divisor).leadingZeroBitCount
        let shift = max(0, 62 - integerBits)
        // Below 2^64: the quotient has at most max(62, integerBits) bits.
        let (quotient, remainder) = divisor.dividingFullWidth(magnitude.multipliedFullWidth(by: 1 << shift))
        let value = Double(quotient | (remainder == 0 ? 0 : 1)) / Double(UInt(1) << shift)
        return numerator < 0 ? -value : value
    }

    /// Quotient and remainder with the remainder in 0 ..< divisor.
    static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

/// Writes `value` as exactly `width` decimal digits (zero-padded) at `index`, advancing it.
func writeDigits(_ value: Int, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) {
    var rest = value
    for position in stride(from: index + width - 1, through: index, by: -1) {
        buffer[position] = UInt8(48 + rest % 10)
        rest /= 10
    }
    index += width
}

/// Reads fixed-width ASCII digits and punctuation from bytes.
struct DigitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

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
