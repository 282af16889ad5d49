import Foundation
import LogbookTestSupport
import XCTest
@testable import Logbook

/// Dates as people say them: each form against a fixed clock, wall-clock times against
/// Foundation's calendar in many zones (gaps and overlaps included), and ranges of days in
/// `--where` filters against the same selection made in Swift.
final class DateExpressionTests: XCTestCase {
    private static let utc = TimeZone(identifier: "UTC")!

    private func days(_ text: String, now: String = "2026-11-23T10:00:00Z", in zone: TimeZone = utc) throws -> String {
        let expression = try XCTUnwrap(DateExpression(text), text)
        switch try expression.resolved(now: instant(now), in: zone) {
        case .days(let days): return days.lowerBound == days.upperBound ? "\(days.lowerBound)" : "\(days.lowerBound)…\(days.upperBound)"
        case .instant(let date): return date.iso8601Microseconds
        }
    }

    func testEachFormAgainstAFixedClock() throws {
        // 2026-11-23 is a Monday.
        let expected: [(String, String)] = [
            ("today", "2026-11-23"), ("Yesterday", "2026-11-22"), ("tomorrow", "2026-11-24"),
            ("monday", "2026-11-23"), ("sun", "2026-11-22"), ("tuesday", "2026-11-17"), ("Friday", "2026-11-20"),
            ("7d", "2026-11-16"), ("7d ago", "2026-11-16"), ("2w", "2026-11-09"), ("3m", "2026-08-23"), ("1y", "2025-11-23"),
            ("0d", "2026-11-23"),
            ("2026-11-19", "2026-11-19"), ("2026-11", "2026-11-01…2026-11-30"), ("2026-02", "2026-02-01…2026-02-28"),
            ("2024-02", "2024-02-01…2024-02-29"), ("2026-W47", "2026-11-16…2026-11-22"), ("2026-W01", "2025-12-29…2026-01-04"),
            ("2026-W53", "2026-12-28…2027-01-03"), ("2026", "2026-01-01…2026-12-31"), ("0001", "0001-01-01…0001-12-31"),
            ("now", "2026-11-23T10:00:00.000000Z"),
            ("2026-11-19 07:30", "2026-11-19T07:30:00.000000Z"), ("2026-11-19T07:30:15", "2026-11-19T07:30:15.000000Z"),
            ("2026-11-19T07:30Z", "2026-11-19T07:30:00.000000Z"), ("2026-11-19T07:30:00+02:00", "2026-11-19T05:30:00.000000Z"),
        ]
        for (text, answer) in expected {
            XCTAssertEqual(try days(text), answer, text)
        }
        // Months back from the 31st land on the month's last day.
        XCTAssertEqual(try days("1m", now: "2026-03-31T12:00:00Z"), "2026-02-28")
        XCTAssertEqual(try days("1m", now: "2024-03-31T12:00:00Z"), "2024-02-29")
        XCTAssertEqual(try days("13m", now: "2026-01-15T12:00:00Z"), "2024-12-15")
        // The day of "today" is the time zone's.
        XCTAssertEqual(try days("today", now: "2026-11-23T23:30:00Z", in: TimeZone(identifier: "Asia/Tokyo")!), "2026-11-24")
        XCTAssertEqual(try days("2026-11-19 07:30", in: TimeZone(identifier: "America/New_York")!), "2026-11-19T12:30:00.000000Z")
    }

    /// Every ISO week label the weekly report prints names, as a date, the days of that report
    /// row: its Monday to its Sunday, or to 9999-12-31 for `9999-W52`, which ends in the year
    /// 10000 (it was refused: "9999 has no ISO week 52"). Generated over the calendar's first
    /// and last two years and random ones between, every day of each; a label the report never
    /// prints (`2025-W53`) is refused. `LOGBOOK_WEEK_SEED` repeats a run.
    func testEveryWeekTheReportPrintsIsADateNamingItsDays() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_WEEK_SEED", default: 5_253))
        let years = [1, 2, 9998, 9999] + (0..<PropertyTestSettings.scaled(12, by: "LOGBOOK_PROPERTY_SCALE")).map { _ in random.int(3...9997) }
        for year in years {
            var printed: [String: ClosedRange<CalendarDay>] = [:]
            var day = CalendarDay(year: year, month: 1, day: 1)!
            while day.year == year {
                let start = ReportPeriod.week.start(of: day)
                let label = ReportPeriod.week.label(ofPeriodStartingOn: start)
                // The days of this year seen in the week, its first day (perhaps last year's) first.
                printed[label] = start...day
                guard let next = day.adding(days: 1) else { break }
                day = next
            }
            for (label, seen) in printed {
                guard case .days(let days) = try DateExpression(label)!.resolved(now: Date(), in: Self.utc) else {
                    return XCTFail("\(label) is no range of days")
                }
                XCTAssertEqual(days.lowerBound, seen.lowerBound, label)
                XCTAssertEqual(days.upperBound, seen.lowerBound.adding(days: 6) ?? .last, label)
                XCTAssertTrue(days.contains(seen.upperBound), label)
            }
            let weeks = printed.keys.filter { $0.hasPrefix(String(format: "%04d-W", year)) }.count
            if weeks == 52 {
                XCTAssertThrowsError(try DateExpression(String(format: "%04d-W53", year))!.resolved(now: Date(), in: Self.utc), "\(year)")
            }
        }
    }

    func testNonsenseAndTheImpossibleAreRefused() {
        for text in ["", "bogus", "2026-13", "2026-W54", "2026-W00", "20261", "2026-11-31", "10000", "7x", "d", "-7d",
                     "2026-11-19 25:00", "2026-11-19 07:60", "2026-11-19 7:30", "2026-11-19T07:30:61Z", "mondays"] {
            XCTAssertNil(DateExpression(text), text)
        }
        XCTAssertThrowsError(try DateExpression("2025-W53")!.resolved(now: Date(), in: Self.utc), "2025 has 52 ISO weeks")
        XCTAssertThrowsError(try DateExpression("4000000y")!.resolved(now: Date(), in: Self.utc))
        XCTAssertThrowsError(try DateExpression("tomorrow")!.resolved(now: CalendarDay.last.start(in: Self.utc), in: Self.utc))
    }

    func testWallClockTimesAgreeWithFoundationInEveryKindOfZone() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_DATES_SEED", default: 0xDA7E)
        var random = SplitMix64(seed: seed)
        let zones = ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns",
                     "Pacific/Chatham", "Africa/Casablanca", "America/Santiago", "UTC", "Asia/Tokyo", "Pacific/Kiritimati"]
            .compactMap(TimeZone.init(identifier:))
        var calendar = Calendar(identifier: .gregorian)
        for _ in 0..<PropertyTestSettings.scaled(3_000, by: "LOGBOOK_PROPERTY_SCALE") {
            let zone = random.pick(zones)
            calendar.timeZone = zone
            // An instant between 1900 and 2100, to the second, half of them within two hours of a
            // change of offset; its wall clock read back must be it, except in an overlap, where the
            // earlier of the two instants is meant.
            var date = Date(timeIntervalSince1970: Double(random.int(-2_208_988_800...4_102_444_800)))
            if random.chance(0.5), let change = zone.nextDaylightSavingTimeTransition(after: date) {
                date = Date(timeIntervalSince1970: (change.timeIntervalSince1970 + Double(random.int(-7_200...7_200))).rounded(.down))
            }
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let text = String(format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year!, parts.month!, parts.day!,
                              parts.hour!, parts.minute!, parts.second!)
            guard case .instant(let read) = try XCTUnwrap(DateExpression(text)).resolved(now: Date(), in: zone) else {
                return XCTFail("\(text) is not an instant")
            }
            let shown = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: read)
            XCTAssertEqual(shown, parts, "\(text) in \(zone.identifier) read as \(read.iso8601Microseconds) (seed \(seed))")
            XCTAssertLessThanOrEqual(read, date, "\(text) in \(zone.identifier): of two instants, the earlier (seed \(seed))")
        }
        // Paris: 02:30 does not exist on 2026-03-29 (the time after the gap is meant) and happens
        // twice on 2026-10-25 (the first is meant).
        let paris = TimeZone(identifier: "Europe/Paris")!
        XCTAssertEqual(try days("2026-03-29 02:30", in: paris), "2026-03-29T01:30:00.000000Z")
        XCTAssertEqual(try days("2026-10-25 02:30", in: paris), "2026-10-25T00:30:00.000000Z")
    }

    func testRangesOfDaysInFiltersSelectWhatSwiftSelects() throws {
        let test = try TestStore()
        let zone = TimeZone(identifier: "America/New_York")!
        let seed = PropertyTestSettings.seed("LOGBOOK_DATES_SEED", default: 0xDA7E)
        var random = SplitMix64(seed: seed)
        var stored: [ExerciseDay] = []
        for offset in 0..<400 where random.chance(0.6) {
            let day = CalendarDay("2025-12-01")!.adding(days: offset)!
            let date = day.start(in: zone) + Double(random.int(0...86_399))
            stored.append(ExerciseDay(date: date, day: day, exercises: ["Row"]))
        }
        try test.store.history.save(stored)
        var drafts: [ReleaseDraft] = []
        for index in 0..<200 {
            let submitted = random.chance(0.3) ? nil : stored.randomElement(using: &random)!.date + Double(random.int(-3_600...3_600))
            drafts.append(ReleaseDraft(version: "\(index)", submittedAt: submitted))
        }
        try test.store.drafts.save(contentsOf: drafts)
        let now = instant("2026-11-23T15:00:00Z")
        for range in ["2026-11", "2026-W47", "2026", "2025-12", "2026-W01", "2026-02", "2026-03-05", "2026-11-22"] {
            let days = try XCTUnwrap(DateExpression(range)).resolved(now: now, in: zone)
            guard case .days(let span) = days else { return XCTFail(range) }
            let (start, end) = (span.lowerBound.start(in: zone), span.upperBound.adding(days: 1)!.start(in: zone))
            let dayTests: [(String, (CalendarDay) -> Bool)] = [
                ("==", { span.contains($0) }), ("!=", { !span.contains($0) }), ("<", { $0 < span.lowerBound }),
                ("<=", { $0 <= span.upperBound }), (">", { $0 > span.upperBound }), (">=", { $0 >= span.lowerBound }),
            ]
            for (op, expected) in dayTests {
                let query = try test.store.history.query(where: "day \(op) \(range)", timeZone: zone)
                XCTAssertEqual(try test.store.history.fetch(query).map(\.day).sorted(), stored.map(\.day).filter(expected), "day \(op) \(range)")
                let mirrored = try test.store.history.query(where: "\(range) \(mirror(op)) day", timeZone: zone)
                XCTAssertEqual(try test.store.history.fetch(mirrored).map(\.day).sorted(), stored.map(\.day).filter(expected), "\(range) \(mirror(op)) day")
            }
            let dateTests: [(String, (Date?) -> Bool)] = [
                ("==", { $0.map { $0 >= start && $0 < end } ?? false }), ("!=", { $0.map { !($0 >= start && $0 < end) } ?? true }),
                ("<", { $0.map { $0 < start } ?? false }), ("<=", { $0.map { $0 < end } ?? false }),
                (">", { $0.map { $0 >= end } ?? false }), (">=", { $0.map { $0 >= start } ?? false }),
            ]
            for (op, expected) in dateTests {
                let query = try test.store.drafts.query(where: "submittedAt \(op) \(range)", timeZone: zone)
                XCTAssertEqual(Set(try test.store.drafts.fetch(query).map(\.version)),
                               Set(drafts.filter { expected($0.submittedAt) }.map(\.version)), "submittedAt \(op) \(range)")
            }
        }
        // A bare 4-digit number beside a day field is a year; relative words resolve at the given clock.
        XCTAssertEqual(try test.store.history.fetch(try test.store.history.query(where: "day >= 2026 && day < 2026-02", timeZone: zone)).map(\.day).sorted(),
                       stored.map(\.day).filter { $0 >= CalendarDay("2026-01-01")! && $0 < CalendarDay("2026-02-01")! })
        for (words, day) in [("7d", "2026-11-16"), ("2w", "2026-11-09"), ("3m", "2026-08-23"), ("1y", "2025-11-23"),
                             ("today", "2026-11-23"), ("monday", "2026-11-23"), ("sunday", "2026-11-22"),
                             // Every word the date options read is a date in a filter too (`mon` was an unknown field).
                             ("mon", "2026-11-23"), ("Sun", "2026-11-22"), ("tue", "2026-11-17"), ("SAT", "2026-11-21"),
                             ("yesterday", "2026-11-22"), ("tomorrow", "2026-11-24")] {
            guard case .binary(_, _, .literal(let literal, _), _) = try FilterParser.parse("day >= \(words)", now: now, timeZone: zone),
                  let expected = CalendarDay(day) else { return XCTFail(words) }
            XCTAssertEqual(literal, .day(year: expected.year, month: expected.month, day: expected.day), words)
        }
    }

    private func mirror(_ op: String) -> String {
        ["<": ">", "<=": ">=", ">": "<", ">=": "<="][op] ?? op
    }
}
