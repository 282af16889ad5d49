import Foundation
import SQLiteQuery

/// A calendar day, `YYYY-MM-DD`, with no time zone: the day an exercise was done, as the person's
/// calendar showed it. Stored as that text; compares as days do.
public struct CalendarDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, SQLiteValue, QueryValue {
    /// The year, 1 to 9999, proleptic Gregorian (no Julian days before 1582).
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, from 1 to the month's length.
    public let day: Int

    /// The years Logbook stores: four-digit ISO-8601 years, 0001 to 9999.
    public static let supportedYears: ClosedRange<Int> = 1...9999
    /// ``supportedYears`` in words, for messages: "years 0001 to 9999".
    public static let supportedYearsText = String(format: "years %04d to %04d", supportedYears.lowerBound, supportedYears.upperBound)

    /// A valid day in ``supportedYears``, or nil.
    public init?(year: Int, month: Int, day: Int) {
        guard Self.supportedYears.contains(year), (1...12).contains(month),
              (1...ProlepticGregorian.daysInMonth(year: year, month: month)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(_ text: some StringProtocol) {
        // Reports and fetches read a day per row: from the string's own bytes where it has them.
        guard let fields = text.utf8.withContiguousStorageIfAvailable(Self.fields(of:)) ?? Self.fields(of: Array(text.utf8)) else {
            return nil
        }
        self.init(year: fields.year, month: fields.month, day: fields.day)
    }

    /// The numbers of `YYYY-MM-DD` in `bytes`, or nil for other bytes (not yet checked as a date).
    private static func fields(of bytes: some RandomAccessCollection<UInt8>) -> (year: Int, month: Int, day: Int)? {
        guard bytes.count == 10 else { return nil }
        var values = (0, 0, 0)
        for (offset, byte) in bytes.enumerated() {
            if offset == 4 || offset == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            switch offset {
            case ..<4: values.0 = values.0 * 10 + Int(digit)
            case ..<7: values.1 = values.1 * 10 + Int(digit)
            default: values.2 = values.2 * 10 + Int(digit)
            }
        }
        return values
    }

    /// The day that `date` falls on in `timeZone` (what a wall calendar there showed at that
    /// instant), or nil when that day is outside years 0001 to 9999 or `date` is not finite.
    public init?(exactly date: Date, in timeZone: TimeZone) {
        guard date.timeIntervalSinceReferenceDate.isFinite else { return nil }
        self.init(dayNumber: ProlepticGregorian.dayNumber(of: date, in: timeZone))
    }

    /// The day that `date` falls on in `timeZone`, clamped to 0001-01-01 … 9999-12-31 for instants
    /// outside those days (``init(exactly:in:)`` tells instead).
    public init(_ date: Date, in timeZone: TimeZone) {
        if let day = CalendarDay(exactly: date, in: timeZone) {
            self = day
        } else {
            self = date.timeIntervalSinceReferenceDate > 0 ? .last : .first
        }
    }

    /// The day `date` falls on in `timeZone`, for storing: throws
    /// ``LogbookError/invalidValue(field:value:reason:)`` naming `field` when `date` is outside
    /// `Date.supportedRange` or falls, in `timeZone`, on a day outside years 0001 to 9999.
    public static func storable(_ date: Date, in timeZone: TimeZone, field: String = "date") throws -> CalendarDay {
        try date.checkSupported(field: field)
        guard let day = CalendarDay(exactly: date, in: timeZone) else {
            let (year, month, day) = ProlepticGregorian.date(ofDayNumber: ProlepticGregorian.dayNumber(of: date, in: timeZone))
            throw LogbookError.invalidValue(field: field, value: date.iso8601Microseconds,
                                            reason: "it falls on \(String(format: "%04d-%02d-%02d", year, month, day)) in time zone "
                                                + "\(timeZone.nameForPeople), outside \(supportedYearsText)")
        }
        return day
    }

    /// 0001-01-01, the first day Logbook stores.
    public static let first = CalendarDay(checkedYear: supportedYears.lowerBound, month: 1, day: 1)
    /// 9999-12-31, the last day Logbook stores.
    public static let last = CalendarDay(checkedYear: supportedYears.upperBound, month: 12, day: 31)

    private init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar.
    public var dayNumber: Int { ProlepticGregorian.dayNumber(year: year, month: month, day: day) }

    /// The day numbered `dayNumber` (days since 1970-01-01), or nil outside years 1 to 9999.
    public init?(dayNumber: Int) {
        // Outside 0001-01-01 to 9999-12-31 no year of 1…9999 (and the arithmetic below would
        // overflow near Int's ends).
        guard (Self.first.dayNumber...Self.last.dayNumber).contains(dayNumber) else { return nil }
        let (year, month, day) = ProlepticGregorian.date(ofDayNumber: dayNumber)
        self.init(year: year, month: month, day: day)
    }

    /// The day `count` days later (earlier when negative), or nil outside years 1 to 9999.
    public func adding(days count: Int) -> CalendarDay? {
        // A later day within the month, as reports step through every day or week: no day number
        // needed, and nothing to check (every month has a 28th).
        if count >= 0, count <= 28 - day { return CalendarDay(checkedYear: year, month: month, day: day + count) }
        let (later, overflow) = dayNumber.addingReportingOverflow(count)
        return overflow ? nil : CalendarDay(dayNumber: later)
    }

    /// The day's number within its year: 1 for January 1st, 365 or 366 for December 31st.
    var dayOfYear: Int {
        Self.daysBeforeMonth[month - 1] + day + (month > 2 && ProlepticGregorian.isLeapYear(year) ? 1 : 0)
    }

    /// Days before the 1st of each month in a year of 365 days.
    private static let daysBeforeMonth = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]

    /// Whether `next` is the day after this one: by the fields alone (both are valid days), no day
    /// number, as `report streaks` asks of every recorded day.
    func isFollowed(by next: CalendarDay) -> Bool {
        if next.day == day + 1 { return next.month == month && next.year == year }
        guard next.day == 1, day == ProlepticGregorian.daysInMonth(year: year, month: month) else { return false }
        return month == 12 ? next.year == year + 1 && next.month == 1 : next.year == year && next.month == month + 1
    }

    /// 0 for Monday … 6 for Sunday (ISO 8601); day number 0, 1970-01-01, was a Thursday.
    public var daysSinceMonday: Int { ((dayNumber + 3) % 7 + 7) % 7 }

    /// The first instant of the day in `timeZone` (proleptic Gregorian, as every day here): its
    /// midnight, or the end of a transition that skips midnight.
    public func start(in timeZone: TimeZone) -> Date {
        ProlepticGregorian.startOfDay(dayNumber, in: timeZone)
    }

    /// Why no record can be filed under this day in `timeZone`, when the zone skipped it whole
    /// (Pacific/Apia's 2011-12-30: its first instant is the next day's, so no date falls on it);
    /// nil for every other day.
    package func skippedDayReason(in timeZone: TimeZone) -> String? {
        CalendarDay(start(in: timeZone), in: timeZone) == self ? nil
            : "time zone \(timeZone.nameForPeople) skipped that day: no date falls on it"
    }

    /// The day as zero-padded `YYYY-MM-DD`: the text stored in the database and written in every format.
    public var description: String {
        String(unsafeUninitializedCapacity: Self.textLength) { buffer in
            writeText(into: buffer)
            return Self.textLength
        }
    }

    /// The length of the `YYYY-MM-DD` text.
    private static let textLength = 10

    /// Writes the `YYYY-MM-DD` text into the first ``textLength`` bytes of `buffer` (every bind of
    /// a day and every day a report or export prints runs this).
    private func writeText(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        Self.writeFourDigits(year, into: buffer, at: 0)
        buffer[4] = UInt8(ascii: "-")
        Self.writeTwoDigits(month, into: buffer, at: 5)
        buffer[7] = UInt8(ascii: "-")
        Self.writeTwoDigits(day, into: buffer, at: 8)
    }

    /// Writes `value`, 0 to 9999, as four digits from `offset` on: each digit by unsigned division
    /// by a constant, no loop (the general `writeDigits` took about 260 instructions for a day's text).
    @inline(__always)
    static func writeFourDigits(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let value = UInt(value)
        buffer[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 1000)
        buffer[offset + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 100 % 10)
        buffer[offset + 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10 % 10)
        buffer[offset + 3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    }

    /// Writes `value`, 0 to 99, as two digits from `offset` on.
    @inline(__always)
    static func writeTwoDigits(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let value = UInt(value)
        buffer[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
        buffer[offset + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    }

    /// Whether `lhs` is the earlier day; the same order as their `YYYY-MM-DD` texts.
    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    // MARK: Codable: a `YYYY-MM-DD` string

    /// Decodes a `YYYY-MM-DD` string; other text throws `DecodingError.dataCorrupted`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = CalendarDay(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a day YYYY-MM-DD, found \"\(text)\"")
        }
        self = day
    }

    /// Encodes the day as its `YYYY-MM-DD` string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: SQLiteValue: TEXT `YYYY-MM-DD`, compared as days

    /// A kind of its own in queries (`ValueKind.day`): days compare with days, as their `YYYY-MM-DD` texts
    /// do.
    public static var queryKind: ValueKind { .day }

    /// The `YYYY-MM-DD` text, as stored.
    public var databaseValue: DatabaseValue { .text(description) }

    /// Binds the `YYYY-MM-DD` text to the 1-based parameter `index`, written on the stack (every
    /// insert of a day binds one or more); returns SQLite's result code.
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withText { bindText($0, to: statement, at: index) }
    }

    /// Binds the `YYYY-MM-DD` text with `Statement.bindText(_:at:)`; returns SQLite's result code.
    public func bind(to statement: Statement, at index: Int32) -> Int32 {
        withText { statement.bindText($0, at: index) }
    }

    /// Calls `body` with the `YYYY-MM-DD` text, written on the stack.
    private func withText(_ body: (UnsafeBufferPointer<UInt8>) -> Int32) -> Int32 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.textLength) { buffer in
            writeText(into: buffer)
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// Reads the 0-based column `index` as `YYYY-MM-DD` text; throws `ColumnConversionError` for a value that
    /// is not text or not a day in years 0001 to 9999 (`2026-02-30`), and `SQLITE_NOMEM` as `String` reads do.
    public static func read(from statement: OpaquePointer, at index: Int32) throws -> CalendarDay {
        // Reports read a day per row: parsed from SQLite's own bytes, a String made only for the error.
        let parsed = try withColumnTextBytes(of: statement, at: index) { bytes in
            bytes.flatMap(fields(of:)).flatMap { CalendarDay(year: $0.year, month: $0.month, day: $0.day) }
        }
        if let parsed { return parsed }
        throw try notADay(statement, at: index)
    }

    /// Reads the 0-based column `index` as ``read(from:at:)`` does, or returns nil when its value
    /// sorts after `lastText` in SQLite's order (text by its bytes; a BLOB after every text, and
    /// NULL and numbers before, so those are no day, as in ``read(from:at:)``): for a scan in key
    /// order that stops after its last day here, where an upper bound in its SQL has SQLite
    /// compare every row's key (about 240 instructions a row, under `callgrind`, of a daily report).
    static func read(from statement: OpaquePointer, at index: Int32, notAfter lastText: [UInt8]) throws -> CalendarDay? {
        let key = try withColumnTextBytes(of: statement, at: index) { bytes -> BoundedKey in
            guard let bytes else { return .notText }
            let isAfter = lastText.withUnsafeBufferPointer { last in
                let order = memcmp(bytes.baseAddress!, last.baseAddress!, min(bytes.count, last.count))
                return order > 0 || (order == 0 && bytes.count > last.count)
            }
            if isAfter { return .afterLast }
            return fields(of: bytes).flatMap { CalendarDay(year: $0.year, month: $0.month, day: $0.day) }.map(BoundedKey.day) ?? .notADay
        }
        switch key {
        case .day(let day): return day
        case .afterLast: return nil
        case .notADay: throw try notADay(statement, at: index)
        case .notText:
            // A NULL (a period start that SQL could not compute from another program's text)
            // sorts before every text, as numbers do: only a BLOB comes after the last day.
            let value = try DatabaseValue.read(from: statement, at: index)
            if case .blob = value { return nil }
            throw ColumnConversionError(statement: statement, column: index, expected: "a day YYYY-MM-DD", found: value.foundText)
        }
    }

    /// What ``read(from:at:notAfter:)`` found in its column.
    private enum BoundedKey {
        case day(CalendarDay), afterLast, notADay, notText
    }

    /// The error of a column `index` that holds no day.
    private static func notADay(_ statement: OpaquePointer, at index: Int32) throws -> ColumnConversionError {
        let text = try String.read(from: statement, at: index)
        return ColumnConversionError(statement: statement, column: index, expected: "a day YYYY-MM-DD",
                                     found: "\"\(text.prefix(64))\"" + (text.count > 64 ? "…" : ""))
    }
}
