import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Dates in text are exact: the microsecond text of a stored `Double` is its correctly rounded
/// value (ties to even), parsing text gives the nearest `Double`, and so text → date → text is the
/// identity for every instant Logbook stores. Checked against an independent oracle: integer
/// arithmetic on the `Double`'s bits for the rounding, `strtod` for parsing, and SQLite's own
/// date functions for the calendar.
///
/// `LOGBOOK_TIME_SEED` repeats a run; `LOGBOOK_PROPERTY_SCALE` makes it longer.
final class ExactTimeTests: XCTestCase {
    private static let range = Date.supportedRange.lowerBound.timeIntervalSinceReferenceDate
        ... Date.supportedRange.upperBound.timeIntervalSinceReferenceDate

    func testMicrosecondTextIsTheCorrectlyRoundedDoubleAndParsesBackToTheNearest() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_TIME_SEED", default: 0x7155))
        let calendar = try Connection(path: ":memory:")
        let utc = try calendar.prepare("SELECT strftime('%Y-%m-%dT%H:%M:%S', ?, 'unixepoch')")
        var ties = 0
        for sample in 0..<PropertyTestSettings.scaled(30_000, by: "LOGBOOK_PROPERTY_SCALE") {
            let seconds = AdversarialDates.seconds(in: Self.range, using: &random)
            let micros = Self.exactMicroseconds(seconds)
            if Self.isTie(seconds) { ties += 1 }
            let (whole, fraction) = Self.floorDivision(micros, 1_000_000)
            try utc.bind(whole + 978_307_200, at: 1)
            XCTAssertTrue(try utc.step())
            let expected = try utc.column(0, as: String.self) + "." + Self.digits(fraction, 6) + "Z"
            utc.reset()

            let text = Date(timeIntervalSinceReferenceDate: seconds).iso8601Microseconds
            guard text == expected else {
                XCTFail("sample \(sample): \(seconds) (bits \(seconds.bitPattern)) wrote \(text), exactly \(expected)")
                continue
            }
            let parsed = try XCTUnwrap(Date(iso8601: text), "\(text) did not parse").timeIntervalSinceReferenceDate
            let nearest = try XCTUnwrap(Double(Self.decimal(micros)))
            XCTAssertEqual(parsed.bitPattern, nearest.bitPattern,
                           "sample \(sample): \(text) parsed as \(parsed), the nearest Double is \(nearest)")
            XCTAssertEqual(Date(timeIntervalSinceReferenceDate: parsed).iso8601Microseconds, text,
                           "sample \(sample): \(text) → \(parsed) → text is not a fixed point")
        }
        XCTAssertGreaterThan(ties, 0, "the generator produced no half-microsecond ties")
    }

    /// Fractions of 1 to 18 digits on whole seconds over the whole range (mostly more than 285
    /// years from 2001, where the seconds times 10ⁿ pass 2⁵³ and the exact quotient is found in
    /// integers): parsing gives the nearest `Double`, as `strtod` finds it.
    func testFractionsOfEveryLengthParseToTheNearestDouble() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_TIME_SEED", default: 0x7156))
        let calendar = try Connection(path: ":memory:")
        let utc = try calendar.prepare("SELECT strftime('%Y-%m-%dT%H:%M:%S', ?, 'unixepoch')")
        let wholeSeconds = Int(Self.range.lowerBound)...Int(Self.range.upperBound.rounded(.down))
        for sample in 0..<PropertyTestSettings.scaled(20_000, by: "LOGBOOK_PROPERTY_SCALE") {
            let whole = random.chance(0.1) ? random.pick([wholeSeconds.lowerBound, wholeSeconds.upperBound, -1, 0, 9_007_199_254, -9_007_199_255])
                : Int.random(in: wholeSeconds, using: &random)
            let count = random.int(1...18)
            var fraction = (0..<count).map { _ in String(random.int(0...9)) }.joined()
            if random.chance(0.2) {
                // Near a halfway point: 5 or 4, then zeros or nines.
                fraction = random.pick(["5", "4"]) + String(repeating: random.pick(["0", "9"]), count: count - 1)
            }
            try utc.bind(whole + 978_307_200, at: 1)
            XCTAssertTrue(try utc.step())
            let text = try utc.column(0, as: String.self) + "." + fraction + "Z"
            utc.reset()
            let expected = min(Self.nearestDouble(whole: whole, fraction: fraction), Self.range.upperBound)
            let parsed = Date(iso8601: text)?.timeIntervalSinceReferenceDate
            XCTAssertEqual(parsed?.bitPattern, expected.bitPattern, "sample \(sample): \(text) parsed as \(String(describing: parsed)), the nearest is \(expected)")
        }
    }

    func testTheReportedDriftAndLiterals() {
        // The case: 763936463.8098043 is exactly …463.80980432…, so .809804.
        XCTAssertEqual(Date(timeIntervalSinceReferenceDate: 763_936_463.809_804_3).iso8601Microseconds,
                       "2025-03-17T20:34:23.809804Z")
        // The second before 2001, where 1 + seconds does not fit a Double (helper-52): a moment
        // 0.5000000000000001 µs before 2001 is on 31 December, and near-ties round to the nearest.
        XCTAssertEqual(Date(timeIntervalSinceReferenceDate: -5.000000000000001e-07).iso8601Microseconds,
                       "2000-12-31T23:59:59.999999Z")
        XCTAssertEqual(Date(timeIntervalSinceReferenceDate: -0.0019944999999999997).iso8601Microseconds,
                       "2000-12-31T23:59:59.998006Z")
        XCTAssertEqual(Date(timeIntervalSinceReferenceDate: -0.0009975000000000001).iso8601Microseconds,
                       "2000-12-31T23:59:59.999002Z")
        XCTAssertEqual(Date(timeIntervalSinceReferenceDate: -4.999999999999999e-07).iso8601Microseconds,
                       "2001-01-01T00:00:00.000000Z")
        XCTAssertEqual(Date(iso8601: "2001-01-01T00:00:00.0000001Z"), Date(timeIntervalSinceReferenceDate: 1e-7))
        XCTAssertEqual(Date(iso8601: "2001-01-01T00:00:00.123456Z"), Date(timeIntervalSinceReferenceDate: 0.123456))
        XCTAssertEqual(Date(iso8601: "2000-12-31T23:59:59.9999999Z"), Date(timeIntervalSinceReferenceDate: -1e-7))
        XCTAssertEqual(Date(iso8601: "2001-01-01T02:00:00.5+02:00"), Date(timeIntervalSinceReferenceDate: 0.5))
        // Seconds times 10^8 fit in an Int, plus the fraction they do not: once a crash, now strtod's answer.
        XCTAssertEqual(Date(iso8601: "4923-10-09T21:52:48.99999999Z")?.timeIntervalSinceReferenceDate.bitPattern,
                       Self.nearestDouble(whole: 92_233_720_368, fraction: "99999999").bitPattern)
        // Ties go to the even microsecond: 1/128 s is 7812.5 µs, 3/128 s is 23437.5 µs.
        XCTAssertEqual(Date(timeIntervalSinceReferenceDate: 1.0 / 128).iso8601Microseconds, "2001-01-01T00:00:00.007812Z")
        XCTAssertEqual(Date(timeIntervalSinceReferenceDate: 3.0 / 128).iso8601Microseconds, "2001-01-01T00:00:00.023438Z")
        XCTAssertEqual(Date(timeIntervalSinceReferenceDate: -1.0 / 128).iso8601Microseconds, "2000-12-31T23:59:59.992188Z")
    }

    func testTheEndsOfTheSupportedRange() {
        XCTAssertEqual(Date.supportedRange.lowerBound.iso8601Microseconds, "0001-01-01T00:00:00.000000Z")
        XCTAssertEqual(Date.supportedRange.upperBound.iso8601Microseconds, "9999-12-31T23:59:59.999969Z")
        XCTAssertEqual(Date(iso8601: "0001-01-01T00:00:00Z"), Date.supportedRange.lowerBound)
        XCTAssertEqual(Date(iso8601: "9999-12-31T23:59:59.999999Z"), Date.supportedRange.upperBound)
        XCTAssertNil(Date(iso8601: "0000-12-31T23:59:59.999999Z"))
        XCTAssertEqual(Date(iso8601: "9999-12-31T23:59:59.9999999Z"), Date.supportedRange.upperBound,
                       "the nearest Double is 10000-01-01, outside the range: the last one inside it")
        XCTAssertNil(Date(iso8601: "10000-01-01T00:00:00Z"))
        XCTAssertNil(Date(iso8601: "0001-01-01T00:30:00+01:00"))
        XCTAssertFalse(Date.supportedRange.lowerBound.addingTimeInterval(-1e-5).isSupported)
        XCTAssertFalse(Date(timeIntervalSinceReferenceDate: 252_423_993_600).isSupported)
    }

    // MARK: The oracle

    /// `seconds` × 10⁶ rounded to the nearest integer, ties to even, in exact integer arithmetic
    /// on the `Double`'s significand and exponent.
    static func exactMicroseconds(_ seconds: Double) -> Int {
        guard seconds != 0 else { return 0 }
        let significand = seconds.isNormal ? (1 << 52 | seconds.significandBitPattern) : seconds.significandBitPattern
        let exponent = (seconds.isNormal ? Int(seconds.exponent) : -1022) - 52
        let (high, low) = significand.multipliedFullWidth(by: 1_000_000)
        var magnitude: UInt64
        if exponent >= 0 {
            magnitude = low << UInt64(exponent)
        } else {
            let shift = -exponent
            func bit(_ index: Int) -> UInt64 {
                index < 64 ? (low >> UInt64(index)) & 1 : index < 128 ? (high >> UInt64(index - 64)) & 1 : 0
            }
            magnitude = shift >= 128 ? 0 : shift >= 64 ? high >> UInt64(shift - 64)
                : (high << UInt64(64 - shift)) | (low >> UInt64(shift))
            let half = bit(shift - 1) == 1
            let below = (0..<(shift - 1)).contains { bit($0) == 1 }
            if half && (below || magnitude & 1 == 1) { magnitude += 1 }
        }
        return seconds < 0 ? -Int(magnitude) : Int(magnitude)
    }

    /// Whether `seconds` lies exactly half-way between two microseconds.
    static func isTie(_ seconds: Double) -> Bool {
        let fraction = seconds - seconds.rounded(.down)
        return (fraction * 128).rounded() == fraction * 128 && Int((fraction * 128).rounded()) % 2 == 1
    }

    /// The `Double` nearest to `whole` + 0.`fraction` (decimal digits), by `strtod` on one signed
    /// decimal: for a negative `whole`, -((-whole - 1) + (10ⁿ - fraction) / 10ⁿ).
    static func nearestDouble(whole: Int, fraction: String) -> Double {
        let numerator = Int(fraction)!
        guard whole < 0, numerator > 0 else { return Double("\(whole).\(fraction)")! }
        var power = 1
        for _ in fraction { power *= 10 }
        return Double("-\(-whole - 1).\(digits(power - numerator, fraction.count))")!
    }

    /// `micros` microseconds as a decimal number of seconds, for `strtod`.
    static func decimal(_ micros: Int) -> String {
        (micros < 0 ? "-" : "") + String(micros.magnitude / 1_000_000) + "." + digits(Int(micros.magnitude % 1_000_000), 6)
    }

    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func floorDivision(_ value: Int, _ divisor: Int) -> (Int, Int) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
