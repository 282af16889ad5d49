import Foundation
import SQLiteQuery

/// A calendar day, `YYYY-MM-DD`, with no time zone: the day an exercise was done, as the person's
/// calendar showed it. Stored as that text; compares as days do.
public struct CalendarDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, SQLiteValue {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid day (years 1 to 9999), or nil.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CivilDate.daysInMonth(year: year, month: month)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(_ text: some StringProtocol) {
        var reader = DigitReader(bytes: Array(text.utf8))
        guard let year = reader.number(4), reader.skip("-"), let month = reader.number(2), reader.skip("-"),
              let day = reader.number(2), reader.isAtEnd else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day that `date` falls on in `timeZone`: what a wall calendar there showed at that instant.
    public init(_ date: Date, in timeZone: TimeZone) {
        // Clamped to the supported years, so that no instant (not even infinity) can trap here.
        let range = Date.supportedRange
        let clamped = date.timeIntervalSinceReferenceDate.isNaN ? range.lowerBound : min(max(date, range.lowerBound), range.upperBound)
        let shifted = clamped.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: clamped))
        let (year, month, day) = CivilDate.civil(fromDayNumber: Int((shifted / 86_400).rounded(.down)))
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01.
    public var dayNumber: Int { CivilDate.dayNumber(year: year, month: month, day: day) }

    public init?(dayNumber: Int) {
        let (year, month, day) = CivilDate.civil(fromDayNumber: dayNumber)
        self.init(year: year, month: month, day: day)
    }

    /// The day `count` days later (earlier when negative), or nil outside years 1 to 9999.
    public func adding(days count: Int) -> CalendarDay? { CalendarDay(dayNumber: dayNumber + count) }

    /// The first instant of the day in `timeZone`.
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
    }

    public var description: String {
        CivilDate.pad(year, 4) + "-" + CivilDate.pad(month, 2) + "-" + CivilDate.pad(day, 2)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    // MARK: Codable: a `YYYY-MM-DD` string

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = CalendarDay(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a day YYYY-MM-DD, found \"\(text)\"")
        }
        self = day
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: SQLiteValue: TEXT `YYYY-MM-DD`

    public var databaseValue: DatabaseValue { .text(description) }

    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        description.bind(to: statement, at: index)
    }

    public static func read(from statement: OpaquePointer, at index: Int32) throws -> CalendarDay {
        let text = try String.read(from: statement, at: index)
        guard let day = CalendarDay(text) else {
            throw ColumnConversionError(column: "day", expected: "a day YYYY-MM-DD", found: "\"\(text)\"")
        }
        return day
    }
}
