import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// The filter language (`--where`) from the library, without the CLI (issue 17, item 3).
final class FilterLanguageTests: XCTestCase {
    func testAFilterSelectsWhatTheSamePredicateSelects() throws {
        let test = try TestStore()
        let utc = TimeZone(identifier: "UTC")!
        for (index, names) in [["Squat"], ["Burpee", "Squat"], ["Cafe\u{301}"], ["Burpee", "Burpee", "Row"]].enumerated() {
            try test.store.history.addDoneExercises(names, at: CalendarDay(year: 2026, month: 1, day: index + 1)!.start(in: utc) + 60)
        }
        let query = try test.store.history.query(where: #"exercises contains "Burpee" && day >= 2026-01-02 && exercises.count > 1"#,
                                                  timeZone: utc)
        let start = CalendarDay("2026-01-02")!
        let predicate = try test.store.history.fetch(FetchDescriptor(predicate: #Predicate<ExerciseDay> {
            $0.exercises.contains("Burpee") && $0.day >= start && $0.exercises.count > 1
        }))
        XCTAssertEqual(try test.store.history.fetch(query).map(\.day), predicate.map(\.day))
        XCTAssertEqual(try test.store.history.fetch(try test.store.history.query(where: #"exercises contains "Café""#)).count, 1,
                       "text compares as Swift does")
    }

    /// Nil is before, after and within nothing, and `!` of a comparison with nil holds: every
    /// comparison of an optional date with a range or an instant, alone, negated and beside `||`
    /// and `&&`, selects what two-valued logic says (a range compared as `>= AND <`, which is NULL
    /// for nil, made `!(submittedAt == 2021-01-01)` leave out the drafts never submitted, where
    /// `submittedAt != 2021-01-01` kept them; helper-8).
    func testNilIsBeforeAfterAndWithinNothing() throws {
        let test = try TestStore()
        let submitted = try test.store.drafts.save(ReleaseDraft(version: "b", submittedAt: instant("2021-01-01T12:00:00Z")))
        let open = try test.store.drafts.save(ReleaseDraft(version: "a"))
        let cases: [(filter: String, expected: [UUID])] = [
            ("!(submittedAt == 2021-01-01)", [open.id]), ("submittedAt != 2021-01-01", [open.id]),
            ("!(submittedAt == 2030)", [submitted.id, open.id]), ("!(submittedAt == 2030-W01)", [submitted.id, open.id]),
            ("submittedAt == 2021", [submitted.id]), ("!(submittedAt < 2000-01-01)", [submitted.id, open.id]),
            ("!(submittedAt > 2000-01-01)", [open.id]), ("!(submittedAt <= 2021)", [open.id]), ("!(submittedAt >= 2022)", [submitted.id, open.id]),
            ("submittedAt < 2000-01-01 || version == \"a\"", [open.id]),
            ("!(version == \"a\" && submittedAt < 2000-01-01)", [submitted.id, open.id]),
            ("!(submittedAt < 2030-01-01T00:00:00Z)", [open.id]), ("submittedAt >= 2000-01-01T00:00:00Z", [submitted.id]),
            ("!(submittedAt == 2021-01-01T12:00:00Z)", [open.id]),
        ]
        let utc = TimeZone(identifier: "UTC")!
        for (filter, expected) in cases {
            let found = try test.store.drafts.fetch(try test.store.drafts.query(where: filter, timeZone: utc))
            XCTAssertEqual(Set(found.map(\.id)), Set(expected), filter)
        }
    }

    /// Days at the ends of the calendar: `day > 9999-12-31` compared the text of 10000-01-01,
    /// which sorts before every year from 1000 on, so it matched nearly every record (helper-15's
    /// review); and a list of 1,500 days, a chain of `OR`s deeper than SQLite's parser takes.
    func testTheCalendarsEndsAndLongListsOfDays() throws {
        let test = try TestStore()
        let utc = TimeZone(identifier: "UTC")!
        let days = ["0001-01-01", "2026-01-05", "9999-12-31"].map { CalendarDay($0)! }
        let saved = try days.map { day in
            try test.store.history.save([ExerciseDay(date: day.start(in: utc) + 43_200, day: day, exercises: ["Row"])])
            return try XCTUnwrap(test.store.history.fetch(day: day)).id
        }
        let cases: [(filter: String, expected: [UUID])] = [
            ("day > 9999-12-31", []), ("day > 9999", []), ("9999 < day", []), ("day > 9999-12", []), ("date > 9999-12-31", []),
            ("day >= 9999-12-31", [saved[2]]), ("day <= 9999-12-31", saved), ("day == 9999", [saved[2]]),
            ("day < 0001-01-01", []), ("date < 0001-01-01", []), ("day <= 0001-01-01", [saved[0]]), ("day >= 0001-01-01", saved),
            ("date == 0001", [saved[0]]), ("date >= 9999-12-31", [saved[2]]), ("!(day > 9999-12-31)", saved),
        ]
        for (filter, expected) in cases {
            let found = try test.store.history.fetch(try test.store.history.query(where: filter, timeZone: utc))
            XCTAssertEqual(Set(found.map(\.id)), Set(expected), filter)
        }
        let list = (0..<1_500).map { CalendarDay("2026-01-05")!.adding(days: $0 * 2 - 1_400)!.description }
        for field in ["day", "date"] {
            let found = try test.store.history.fetch(try test.store.history.query(where: "\(field) in [\(list.joined(separator: ", "))]",
                                                                                     timeZone: utc))
            XCTAssertEqual(found.map(\.id), [saved[1]], field)
        }
    }

    /// `in` merges the whole days of its list into runs (consecutive days, a month and the days in
    /// it, a year): seeded lists of days, months, weeks and years, often touching or overlapping,
    /// select what the same items joined with `||` select (`LOGBOOK_FILTER_SEED`).
    func testAListOfDaysSelectsWhatItsItemsJoinedWithOrSelect() throws {
        let test = try TestStore()
        let zone = TimeZone(identifier: "America/St_Johns")!
        let start = CalendarDay("2025-12-20")!
        let days = (0..<80).map { start.adding(days: $0)! }
        try test.store.history.save(days.map { ExerciseDay(date: $0.start(in: zone) + 3_600 * Double($0.dayNumber % 24), day: $0, exercises: ["Row"]) })
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_FILTER_SEED", default: 0x1157))
        for _ in 0..<60 {
            let items = (0..<random.int(1...12)).map { _ -> String in
                let day = start.adding(days: random.int(-5...85))!
                switch random.int(0...5) {
                case 0: return String(format: "%04d-%02d", day.year, day.month)
                case 1: return String(day.description.prefix(4))
                default: return day.description
                }
            }
            for field in ["day", "date"] {
                let list = "\(field) in [\(items.joined(separator: ", "))]"
                let joined = items.map { "\(field) == \($0)" }.joined(separator: " || ")
                let inList = try test.store.history.fetch(try test.store.history.query(where: list, timeZone: zone)).map(\.id)
                let byOr = try test.store.history.fetch(try test.store.history.query(where: joined, timeZone: zone)).map(\.id)
                XCTAssertEqual(inList, byOr, list)
            }
        }
    }

    func testMistakesNameTheirPlace() throws {
        let test = try TestStore()
        XCTAssertThrowsError(try test.store.drafts.query(where: #"version == "2.0" &&"#)) { error in
            guard case LogbookError.invalidFilter(_, _, let position) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(position?.lowerBound, 19, "the end of the text, where an operand is missing")
        }
        XCTAssertThrowsError(try test.store.drafts.query(where: #"verison == "2.0""#)) { error in
            guard case LogbookError.invalidFilter(_, let message, let position) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("unknown field 'verison'"), message)
            XCTAssertEqual(position, 0..<7)
        }
    }

    /// Only a number of four digits is a year beside a day or date field (`day == 15` was the
    /// year 0015, with no row and no error; helper-53), and a mistake in a number or a date says
    /// what it is: not a number, out of range, outside the years stored, or no day of the calendar.
    func testNumbersAndDatesThatAreNotWhatTheySeemAreNamed() throws {
        let test = try TestStore()
        let utc = TimeZone(identifier: "UTC")!
        let first = CalendarDay("0001-01-01")!
        try test.store.history.save([ExerciseDay(date: first.start(in: utc) + 43_200, day: first, exercises: ["Row"])])
        for filter in ["day == 0001", "date < 0002", "0001 == day"] {
            XCTAssertEqual(try test.store.history.fetch(try test.store.history.query(where: filter, timeZone: utc)).count, 1, filter)
        }
        XCTAssertEqual(try test.store.history.fetch(try test.store.history.query(where: "exercises.count == 0001", timeZone: utc)).count, 1)
        let mistakes: [(filter: String, message: String, at: Range<Int>)] = [
            ("day == 15", "expected a day like 2026-01-31, found 15", 7..<9),
            ("date < 7", "expected a date like 2026-01-31 or 2026-01-31T08:30:00Z, found 7", 7..<8),
            ("day > 20260", "expected a day like 2026-01-31, found 20260", 6..<11),
            ("day > -2026", "expected a day like 2026-01-31, found -2026", 6..<11),
            ("exercises.count > 2.5.5", "'2.5.5' is neither a number nor a date", 18..<23),
            ("exercises.count > 3-1", "'3-1' is neither a number nor a date", 18..<21),
            ("exercises.count > 1Z", "'1Z' is neither a number nor a date", 18..<20),
            ("exercises.count > 99999999999999999999", "number '99999999999999999999' is out of range", 18..<38),
            ("date < 10000-01-01", "'10000-01-01' is no date Logbook reads", 7..<18),
            ("date < 0001-01-01T00:00:00+01:00", "invalid date '0001-01-01T00:00:00+01:00': outside years 0001 to 9999", 7..<32),
            ("date > 9999-12-31T23:00:00-05:00", "invalid date '9999-12-31T23:00:00-05:00': outside years 0001 to 9999", 7..<32),
            ("date > 2026-02-29T00:00:00Z", "2026-02-29 is no day of the calendar", 7..<27),
            ("day == 2026-04-31", "2026-04-31 is no day of the calendar", 7..<17),
            ("date > 4000001d", "invalid date '4000001d': outside years 0001 to 9999", 7..<15),
            ("day == 0000-01-01", "invalid date '0000-01-01': outside years 0001 to 9999", 7..<17),
            ("day == 0000-06", "invalid date '0000-06': outside years 0001 to 9999", 7..<14),
        ]
        for (filter, expected, at) in mistakes {
            XCTAssertThrowsError(try test.store.history.query(where: filter, timeZone: utc), filter) { error in
                guard case LogbookError.invalidFilter(_, let message, let position) = error else { return XCTFail("\(filter): \(error)") }
                XCTAssertTrue(message.contains(expected), "\(filter): \(message)")
                XCTAssertEqual(position, at, filter)
            }
        }
    }
}
