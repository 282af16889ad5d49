import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Calendar days are proleptic Gregorian for years 1 to 9999 everywhere (no Julian days before
/// 1582), checked against SQLite's date functions and, where the two calendars agree, Foundation.
final class ProlepticCalendarTests: XCTestCase {
    private let zones = ["UTC", "America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kolkata",
                         "Australia/Lord_Howe", "America/Santiago", "Africa/Casablanca", "Asia/Kathmandu",
                         "America/St_Johns", "Europe/Dublin", "Pacific/Chatham", "America/Havana"]
        .compactMap(TimeZone.init(identifier:))

    func testDayNumbersAgreeWithSQLite() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_CALENDAR_SEED", default: 1_582))
        let sqlite = try Connection(path: ":memory:")
        let statement = try sqlite.prepare("SELECT CAST(julianday(?) - 2440587.5 AS INTEGER), date(? * 86400, 'unixepoch')")
        for _ in 0..<PropertyTestSettings.scaled(20_000, by: "LOGBOOK_PROPERTY_SCALE") {
            let number = random.int(CalendarDay.first.dayNumber...CalendarDay.last.dayNumber)
            let day = try XCTUnwrap(CalendarDay(dayNumber: number))
            try statement.bind(day.description, at: 1)
            try statement.bind(number, at: 2)
            XCTAssertTrue(try statement.step())
            XCTAssertEqual(try statement.column(0, as: Int.self), number, "\(day)")
            XCTAssertEqual(try statement.column(1, as: String.self), day.description)
            statement.reset()
        }
    }

    func testDayStartsInEveryKindOfTimeZone() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_CALENDAR_SEED", default: 1_583))
        var gregorian = Calendar(identifier: .gregorian)
        for index in 0..<PropertyTestSettings.scaled(6_000, by: "LOGBOOK_PROPERTY_SCALE") {
            let zone = zones[index % zones.count]
            // Mostly recent days, where transitions are dense; some anywhere in years 2 to 9998.
            let range = random.chance(0.7) ? CalendarDay(year: 1900, month: 1, day: 1)!.dayNumber...CalendarDay(year: 2040, month: 1, day: 1)!.dayNumber
                : CalendarDay(year: 2, month: 1, day: 1)!.dayNumber...CalendarDay(year: 9998, month: 12, day: 31)!.dayNumber
            let day = try XCTUnwrap(CalendarDay(dayNumber: random.int(range)))
            let start = day.start(in: zone)
            XCTAssertEqual(CalendarDay(exactly: start, in: zone), day, "\(day) in \(zone.identifier)")
            XCTAssertEqual(CalendarDay(exactly: start - 1, in: zone), day.adding(days: -1), "the instant before \(day) starts")
            if day.year >= 1600 {
                gregorian.timeZone = zone
                XCTAssertEqual(start, gregorian.startOfDay(for: start + 1), "\(day) in \(zone.identifier)")
            }
        }
    }

    /// The last `Double` before a midnight belongs to the day before, in any zone: the offset is
    /// added to whole seconds, not in floating point (which rounded it up to midnight).
    func testTheLastInstantBeforeMidnightIsOnTheDayBefore() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_CALENDAR_SEED", default: 1_584))
        for index in 0..<PropertyTestSettings.scaled(5_000, by: "LOGBOOK_PROPERTY_SCALE") {
            let zone = zones[index % zones.count]
            let day = try XCTUnwrap(CalendarDay(dayNumber: random.int(CalendarDay(year: 2, month: 1, day: 1)!.dayNumber
                                                                         ... CalendarDay(year: 9998, month: 1, day: 1)!.dayNumber)))
            let start = day.start(in: zone).timeIntervalSinceReferenceDate
            XCTAssertEqual(CalendarDay(exactly: Date(timeIntervalSinceReferenceDate: start.nextDown), in: zone), day.adding(days: -1),
                           "\(day) in \(zone.identifier)")
            XCTAssertEqual(CalendarDay(exactly: Date(timeIntervalSinceReferenceDate: start), in: zone), day)
        }
        let utc = try XCTUnwrap(TimeZone(identifier: "UTC"))
        XCTAssertEqual(CalendarDay(exactly: Date(timeIntervalSinceReferenceDate: -5e-324), in: utc), CalendarDay("2000-12-31"))
        XCTAssertEqual(CalendarDay(exactly: Date(iso8601: "2264-07-01T23:59:59.999999Z")!, in: utc), CalendarDay("2264-07-01"))
    }

    /// `ProlepticGregorian.instants(fromDay:throughDay:in:)`, behind every date field compared
    /// with days, against Foundation's calendar instant by instant: random ranges of days (either
    /// end open) in every kind of zone, and ranges ending at the days where a zone set its clock
    /// back across midnight, so that an hour of a day came after the next day's start (St John's
    /// each autumn from 1987 to 2010, Casey in 2010, Guam in 1969, Arizona in 1944): each probe
    /// (each range's edges and a second either side, every day's start near the ends, an instant
    /// each 7 minutes around them) is in a range exactly when the wall calendar showed it on one
    /// of the days. The ranges come sorted, disjoint and not touching.
    func testTheInstantsOfDaysAreThoseTheWallCalendarShowedOnThem() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_CALENDAR_SEED", default: 1_585))
        for index in 0..<PropertyTestSettings.scaled(400, by: "LOGBOOK_PROPERTY_SCALE") {
            let zone: TimeZone, near: Int
            if index % 5 == 1 {
                // The calendar's ends, in zones whose offsets there are local mean times.
                zone = zones[index % zones.count]
                near = random.pick([CalendarDay.first.dayNumber + 3, CalendarDay.last.dayNumber - 3])
            } else if index % 2 == 0 {
                let transition = clocksBackAcrossMidnight[index / 2 % clocksBackAcrossMidnight.count]
                zone = try XCTUnwrap(TimeZone(identifier: transition.zone))
                near = ProlepticGregorian.dayNumber(of: Date(timeIntervalSince1970: transition.unixTime), in: zone)
            } else {
                zone = zones[index % zones.count]
                near = random.int(CalendarDay(year: 1900, month: 1, day: 1)!.dayNumber...CalendarDay(year: 2040, month: 1, day: 1)!.dayNumber)
            }
            let first = near + random.int(-2...1), last = first + random.int(-1...3)
            let from: Int? = random.chance(0.2) ? nil : first, through: Int? = random.chance(0.2) ? nil : last
            let ranges = ProlepticGregorian.instants(fromDay: from, throughDay: through, in: zone)
            let context = "days \(from.map(String.init) ?? "…") to \(through.map(String.init) ?? "…") in \(zone.identifier)"
            for (earlier, later) in zip(ranges, ranges.dropFirst()) {
                XCTAssertLessThan(try XCTUnwrap(earlier.before), try XCTUnwrap(later.from), "\(context): \(ranges)")
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let edges: [Double] = ranges.flatMap { [$0.from, $0.before].compactMap { $0 } }
            var probes: [Double] = edges.flatMap { edge -> [Double] in [edge - 1, edge - 0.5, edge, edge + 0.5] }
            for day in (first - 2)...(last + 2) {
                let start = ProlepticGregorian.startOfDay(day, in: zone).timeIntervalSinceReferenceDate
                probes += [start - 1, start, start + 1]
            }
            let lowest = ProlepticGregorian.startOfDay(first - 2, in: zone).timeIntervalSinceReferenceDate
            let highest = ProlepticGregorian.startOfDay(last + 3, in: zone).timeIntervalSinceReferenceDate
            probes += stride(from: lowest, to: highest, by: 420).map { $0 + Double(random.int(0...419)) }
            for probe in probes {
                // Foundation's calendar is Julian before 1582: there, the day number by the offset.
                let date = Date(timeIntervalSinceReferenceDate: probe)
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                let day = parts.year! < 1600 || parts.year! > 9000 ? ProlepticGregorian.dayNumber(of: date, in: zone)
                    : try XCTUnwrap(CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)).dayNumber
                let onTheDays = from.map { day >= $0 } ?? true && through.map { day <= $0 } ?? true
                let inARange = ranges.contains { probe >= $0.from ?? -.infinity && probe < $0.before ?? .infinity }
                XCTAssertEqual(inARange, onTheDays, "\(context): \(Date(timeIntervalSinceReferenceDate: probe)) (\(probe)), ranges \(ranges)")
            }
        }
    }

    func testDaysBeforeTheGregorianReformAreProleptic() throws {
        let utc = try XCTUnwrap(TimeZone(identifier: "UTC"))
        // The Unix times are SQLite's: strftime('%s', '1500-03-01'), ….
        for (text, seconds) in [("1500-03-01", -14_826_672_000.0), ("0002-01-01", -62_104_060_800), ("0001-01-01", -62_135_596_800),
                                ("1582-10-04", -12_220_243_200), ("1582-10-15", -12_219_292_800)] {
            let day = try XCTUnwrap(CalendarDay(text))
            XCTAssertEqual(day.start(in: utc).timeIntervalSince1970, seconds, text)
            XCTAssertEqual(CalendarDay(exactly: Date(timeIntervalSince1970: seconds + 43_200), in: utc), day)
        }
        let test = try TestStore()
        let recorded = try test.store.history.addDoneExercise("Squat", at: CalendarDay("1500-03-01")!.start(in: utc))
        XCTAssertEqual(recorded.day.description, "1500-03-01")
    }

    func testAnInstantWhoseDayIsOutsideTheYearsIsRefusedNamingIt() throws {
        let test = try TestStore(timeZone: TimeZone(identifier: "Pacific/Kiritimati")!)
        let last = try XCTUnwrap(Date(iso8601: "9999-12-31T23:59:59.999999Z"))
        XCTAssertThrowsError(try test.store.history.addDoneExercise("Squat", at: last)) { error in
            XCTAssertEqual("\(error)", "invalid date '9999-12-31T23:59:59.999969Z': it falls on 10000-01-01 in time zone "
                                + "Pacific/Kiritimati, outside years 0001 to 9999")
        }
        // New York's offset in year 1 is its local mean time, 4:56:02 behind UTC: 0000-12-31 there.
        let west = try TestStore(timeZone: TimeZone(identifier: "America/New_York")!)
        XCTAssertThrowsError(try west.store.history.addDoneExercise("Squat", at: Date.supportedRange.lowerBound))
        XCTAssertEqual(try west.store.history.count(), 0)
    }
}
