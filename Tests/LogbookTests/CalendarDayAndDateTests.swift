import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
@testable import Logbook

final class CalendarDayAndDateTests: XCTestCase {
    func testDayParsingAndValidation() {
        XCTAssertEqual(CalendarDay("2024-02-29")?.description, "2024-02-29")
        for bad in ["2023-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "2026-01-01x", "", "0000-01-01", "２０２６-01-01"] {
            XCTAssertNil(CalendarDay(bad), bad)
        }
        XCTAssertLessThan(CalendarDay("2025-12-31")!, CalendarDay("2026-01-01")!)
        XCTAssertEqual(CalendarDay("2026-03-01")!.adding(days: -1), CalendarDay("2026-02-28"))
    }

    /// Every day from 0001-01-01 to 9999-12-31: the next one by day number, its text read back as
    /// the same day (the parser is separate code from the writer), texts in byte order as days,
    /// a later or earlier day by day number, and its number within its year.
    /// The SQL that audits stored days (`check`, `repair`, a merge's gate, the months' bits, the
    /// counted reports' refusal) takes exactly the texts ``CalendarDay`` reads: every day from
    /// 0001-01-01 to 9999-12-31 (SQLite 3.40.1's own date functions turn 0300-03-01 into
    /// 0300-02-29, which the earlier check refused), and no text beside them: each field of every
    /// day of a leap and a common year and of the calendar's ends moved by -1…+1 and out of range,
    /// other separators, a NUL after the day, and random ten-byte texts of digits and dashes
    /// (seeded, `LOGBOOK_DAY_SQL_SEED`); values of every other storage class are never days. And
    /// the first and last day of each day's week, which SQL computes with SQLite's date
    /// functions, are the calendar's on every day.
    func testTheSQLCheckOfADayTakesExactlyTheTextsCalendarDayReads() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (d)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        func store(_ value: DatabaseValue) throws {
            try insert.bind(value, at: 1)
            try insert.execute()
            insert.reset()
        }
        try connection.execute("BEGIN")
        var day = CalendarDay.first
        while true {
            try store(.text(day.description))
            guard day < .last else { break }
            day = day.adding(days: 1)!
        }
        var texts: Set<String> = []
        for year in [1, 2, 4, 100, 300, 400, 1900, 2000, 2023, 2024, 2100, 9996, 9999] {
            for month in -1...14 {
                for day in -1...33 {
                    texts.insert(String(format: "%04d-%02d-%02d", year, month, day))
                }
            }
        }
        for text in ["0000-12-31", "10000-01-01", "0300-02-29", "0300-03-01 ", " 0300-03-01", "0300/03/01", "0300-3-01", "+300-03-01",
                     "0300-03-1", "0300-03-001", "0300-03-01T00:00", "2024-02-29\u{0}", "２０２４-02-29", "2024-02-2９", ""] {
            texts.insert(text)
        }
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_DAY_SQL_SEED", default: 19))
        let alphabet = Array("0123456789-")
        for _ in 0..<200_000 {
            texts.insert(String((0..<10).map { _ in alphabet[random.int(0...alphabet.count - 1)] }))
        }
        for text in texts { try store(.text(text)) }
        for value: DatabaseValue in [.null, .integer(20_240_229), .real(2024.0229), .blob(Data("2024-02-29".utf8))] { try store(value) }
        try connection.execute("COMMIT")

        // The week's first and last day, which recounts and counted reports compute with SQLite's
        // date functions, for every day, against ``ReportPeriod``'s.
        let week = ReportPeriod.week.startSQL(of: "d")
        let taken = try connection.prepare("""
            SELECT d, \(StoredValueAudit.isCalendarDay("d")), \(week), \(ReportPeriod.week.endSQL(ofStart: week)) FROM t
            """)
        var checked = 0
        while try taken.step() {
            let value = try taken.column(0, as: DatabaseValue.self)
            let isDay = try taken.column(1, as: Bool.self)
            guard case .text(let text) = value else {
                XCTAssertFalse(isDay, "\(value)")
                continue
            }
            if isDay != (CalendarDay(text) != nil) { XCTFail("'\(text)': the SQL says \(isDay), CalendarDay \(CalendarDay(text) != nil)") }
            checked += 1
            guard let day = CalendarDay(text) else { continue }
            let start = ReportPeriod.week.start(of: day), end = ReportPeriod.week.end(ofPeriodStartingOn: start)
            let (startInSQL, endInSQL) = (try taken.column(2, as: String?.self), try taken.column(3, as: String?.self))
            if startInSQL != start.description || endInSQL != end.description {
                XCTFail("\(text): SQL's week \(startInSQL ?? "NULL")…\(endInSQL ?? "NULL"), the calendar's \(start)…\(end)")
            }
        }
        XCTAssertGreaterThan(checked, 3_652_059)
    }

    /// Day numbers and steps of any size name a day of years 1 to 9999 or nil; none traps (the
    /// arithmetic overflowed near Int's ends).
    func testDayNumbersAndStepsOfAnySizeAreADayOrNil() {
        var generator = SplitMix64(seed: 21)
        let edges = [Int.min, Int.min + 1, Int.min / 2, -719_163, -719_162, 2_932_896, 2_932_897, Int.max / 2, Int.max - 1, Int.max]
        XCTAssertEqual(CalendarDay(dayNumber: -719_162), .first)
        XCTAssertEqual(CalendarDay(dayNumber: 2_932_896), .last)
        for number in edges + (0..<1_000).map({ _ in Int(bitPattern: UInt(generator.next())) }) {
            let day = CalendarDay(dayNumber: number)
            XCTAssertEqual(day != nil, (-719_162...2_932_896).contains(number), "\(number)")
            for start in [CalendarDay.first, .last, CalendarDay(year: 2026, month: 11, day: 29)!] {
                let (sum, overflow) = start.dayNumber.addingReportingOverflow(number)
                XCTAssertEqual(start.adding(days: number), overflow ? nil : CalendarDay(dayNumber: sum), "\(start) + \(number)")
            }
        }
    }

    func testTheNextDayOfEveryDayIsTheDayNumberedOneMore() {
        var day = CalendarDay.first
        var text = day.description
        var count = 0
        XCTAssertEqual(text, "0001-01-01")
        while let next = day.adding(days: 1) {
            XCTAssertEqual(next.dayNumber, day.dayNumber + 1, "\(day)")
            XCTAssertEqual(CalendarDay(dayNumber: day.dayNumber + 1), next, "\(day)")
            let nextText = next.description
            let other = CalendarDay(dayNumber: day.dayNumber + [0, 2, 27, 28, 29, 30, 31, 365, 366, -1][count % 10])
            if !day.isFollowed(by: next) || other.map(day.isFollowed(by:)) == true {
                XCTFail("\(day) is followed by \(next), not by \(other?.description ?? "nil")")
            }
            if CalendarDay(nextText) != next || !text.precedesInUTF8(nextText) {
                XCTFail("\(next) wrote \(nextText), after \(text)")
            }
            // Adding days within the month takes a shortcut past the day numbers: every step a
            // report takes (a day, a week's Thursday, a week) and steps across months, both ways.
            let step = [0, 1, 3, 7, 21, 27, 28, 30, -1, -7, 366][count % 11]
            if day.adding(days: step) != CalendarDay(dayNumber: day.dayNumber + step) {
                XCTFail("\(day) + \(step) days is \(day.adding(days: step)?.description ?? "nil")")
            }
            if let january1 = CalendarDay(year: day.year, month: 1, day: 1), day.dayOfYear != day.dayNumber - january1.dayNumber + 1 {
                XCTFail("\(day) is day \(day.dayOfYear) of its year")
            }
            text = nextText
            day = next
            count += 1
        }
        XCTAssertEqual(day, .last)
        XCTAssertEqual(text, "9999-12-31")
        XCTAssertEqual(count, CalendarDay.last.dayNumber - CalendarDay.first.dayNumber)
    }

    func testADayIsReadFromTextOnlyAndEveryOtherValueIsNamed() throws {
        let connection = try Connection(path: ":memory:")
        XCTAssertEqual(try connection.scalar("SELECT '2024-02-29'", as: CalendarDay.self), CalendarDay("2024-02-29"))
        let refused = ["'2023-02-29'", "'2026-01-01 '", "20260101", "x'323032362D30312D3031'", "2026.0", "''",
                       "'2026-01-01' || char(0)", "'\(String(repeating: "9", count: 80))'"]
        for sql in refused {
            XCTAssertThrowsError(try connection.scalar("SELECT \(sql) AS day", as: CalendarDay.self), sql) { error in
                XCTAssertTrue("\(error)".contains("a day YYYY-MM-DD") || "\(error)".contains("TEXT"), "\(sql): \(error)")
            }
        }
        XCTAssertThrowsError(try connection.scalar("SELECT NULL", as: CalendarDay.self))
    }

    func testDayNumbersAgreeWithFoundationOverCenturies() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Foundation switches to the Julian calendar before 1582-10-15; ISO 8601 days (ours) do not.
        for dayNumber in stride(from: -141_000, through: 200_000, by: 997) {
            let date = Date(timeIntervalSince1970: Double(dayNumber) * 86_400 + 43_200)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let day = CalendarDay(date, in: TimeZone(identifier: "UTC")!)
            XCTAssertEqual([day.year, day.month, day.day], [parts.year!, parts.month!, parts.day!], "\(dayNumber)")
            XCTAssertEqual(day.dayNumber, dayNumber)
        }
    }

    func testISO8601FormattingAndParsing() {
        let date = Date(timeIntervalSinceReferenceDate: 753_549_105.502_176)
        XCTAssertEqual(date.iso8601Microseconds, "2024-11-17T15:11:45.502176Z") // date -u -d @1731856305.502176
        XCTAssertEqual(Date(iso8601: "2024-11-18T15:11:45.502176Z")?.iso8601Microseconds, "2024-11-18T15:11:45.502176Z")
        XCTAssertEqual(Date(iso8601: "2026-01-31T08:30:00+02:00"), Date(iso8601: "2026-01-31T06:30:00Z"))
        XCTAssertEqual(Date(timeIntervalSince1970: -0.5).iso8601Microseconds, "1969-12-31T23:59:59.500000Z")
        XCTAssertEqual(Date(iso8601: "1901-06-01T00:00:00Z")?.iso8601Microseconds, "1901-06-01T00:00:00.000000Z")
        XCTAssertEqual(Date(iso8601: "2150-06-01T12:00:00.000001Z")?.iso8601Microseconds, "2150-06-01T12:00:00.000001Z")
        for bad in ["2026-01-31", "2026-01-31T25:00:00Z", "2026-01-31T08:30:00", "2026-01-31T08:30:00.Z",
                    "2026-02-30T00:00:00Z", "2026-01-31T08:30:00+2:00", "2026-01-31T08:30:00Zjunk"] {
            XCTAssertNil(Date(iso8601: bad), bad)
        }
        XCTAssertFalse(Date(timeIntervalSinceReferenceDate: .nan).isSupported)
        XCTAssertFalse(Date(timeIntervalSince1970: 1e13).isSupported)
    }
}
