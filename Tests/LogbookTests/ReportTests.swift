import Foundation
import LogbookTestSupport
import XCTest
import SQLiteQuery
@testable import Logbook

/// Every report against values computed here in plain Swift, on randomized histories that cross
/// year boundaries, ISO week 53 (2020), a leap day and both DST changes.
final class ReportTests: XCTestCase {
    private let names = ["Squat", "Burpee", "Cafe\u{301}", "Caf\u{E9}", "Sun Salute ☀︎", "Élan", "burpee", "Row"]

    /// A random history between 2019-12-20 and 2021-01-10 (about two thirds of days active).
    private func randomHistory(seed: UInt64) -> [ExerciseDay] {
        var random = SplitMix64(seed: seed)
        var days: [ExerciseDay] = []
        var day = CalendarDay("2019-12-20")!
        while day <= CalendarDay("2021-01-10")! {
            if Int.random(in: 0..<3, using: &random) != 0 || ["2020-02-29", "2020-03-08", "2020-11-01", "2020-12-31", "2021-01-01"].contains(day.description) {
                let exercises = (0...Int.random(in: 0..<5, using: &random)).map { _ in names.randomElement(using: &random)! }
                days.append(ExerciseDay(date: day.start(in: TimeZone(identifier: "UTC")!) + 3600, day: day, exercises: exercises))
            }
            day = day.adding(days: 1)!
        }
        return days
    }

    /// Runs `body` with the reports reading the tallies, then again with a day marked for a
    /// recount, when they count the rows until Logbook next writes.
    private func readTalliedThenCounted(_ test: TestStore, _ body: (_ tallied: Bool) throws -> Void) throws {
        for tallied in [true, false] {
            if !tallied {
                try test.store.database.write { try $0.execute("INSERT INTO exercise_tallies_stale (day) VALUES ('2000-01-01')") }
            }
            XCTAssertEqual(try test.store.reports.readsTallies(), tallied)
            try body(tallied)
        }
    }

    private func store(with days: [ExerciseDay]) throws -> TestStore {
        let test = try TestStore()
        try test.store.history.save(days)
        return test
    }

    // MARK: Tests

    func testHistoryReportInEveryPeriod() throws {
        for seed: UInt64 in [1, 2, 3] {
            let days = randomHistory(seed: seed)
            let test = try store(with: days)
            for period in ReportPeriod.allCases {
                for (from, to) in [("2019-12-20", "2021-01-10"), ("2020-12-21", "2021-01-10"), ("2020-02-27", "2020-03-02")] {
                    var rows: [HistoryReportRow] = []
                    try test.store.reports.history(by: period, from: CalendarDay(from), to: CalendarDay(to)) { rows.append($0) }
                    XCTAssertEqual(rows, ReportOracle.history(days, period, from: CalendarDay(from)!, to: CalendarDay(to)!),
                                   "seed \(seed) \(period) \(from)...\(to)")
                }
            }
            var weeks: [HistoryReportRow] = []
            try test.store.reports.history(by: .week) { weeks.append($0) }
            XCTAssertTrue(weeks.contains { $0.period == "2020-W53" }, "2020 has an ISO week 53")
            XCTAssertEqual(weeks.first?.period, ReportOracle.label(days.map(\.day).min()!, .week), "without --from, the first recorded day")
        }
    }

    /// Every report against the oracle, read from the tallies and counted from the rows, on
    /// seeded histories at the calendar's edges (0001-01-01, 9999-12-31, year ends, ISO week 53,
    /// leap days) and random ranges that cut periods, hold none whole, or are left open.
    /// `LOGBOOK_REPORT_SEED` repeats a run; `LOGBOOK_PROPERTY_SCALE` makes it longer.
    func testEveryReportMatchesTheOracleOnRandomRangesAtTheCalendarsEdges() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_REPORT_SEED", default: 2_111))
        let centres = ["0001-01-01", "0001-12-20", "1582-10-10", "2020-12-28", "2024-02-29", "2026-12-31", "9999-12-31"]
            .map { CalendarDay($0)! }
        for round in 0..<PropertyTestSettings.scaled(12, by: "LOGBOOK_PROPERTY_SCALE") {
            let centre = random.pick(centres).dayNumber
            let span = (max(CalendarDay.first.dayNumber, centre - random.int(0...80)))...(min(CalendarDay.last.dayNumber, centre + random.int(0...80)))
            var days: [ExerciseDay] = []
            for number in span where random.chance(0.6) {
                let day = CalendarDay(dayNumber: number)!
                days.append(ExerciseDay(date: Date(timeIntervalSinceReferenceDate: 0), day: day,
                                        exercises: (0..<random.int(1...4)).map { _ in random.pick(names) }))
            }
            guard let recordedFirst = days.first?.day, let recordedLast = days.last?.day else { continue }
            let test = try store(with: days)
            func randomBound() -> CalendarDay? { random.bound(around: span, margin: 5, openChance: 0.25) }
            try readTalliedThenCounted(test) { tallied in
                for _ in 0..<6 {
                    let (from, to) = (randomBound(), randomBound())
                    let context = "round \(round), \(tallied ? "tallied" : "counted"), \(from?.description ?? "nil")...\(to?.description ?? "nil")"
                    let first = from ?? recordedFirst, last = to ?? recordedLast
                    for period in ReportPeriod.allCases {
                        let expected = first <= last ? ReportOracle.history(days, period, from: first, to: last) : []
                        XCTAssertEqual(try test.store.reports.history(by: period, from: from, to: to), expected, "\(context) by \(period)")
                    }
                    let inRange = days.filter { (from ?? .first) <= $0.day && $0.day <= (to ?? .last) }
                    XCTAssertEqual(try test.store.reports.exercises(from: from, to: to), ReportOracle.exercises(inRange), "\(context) exercises")
                    let asOf = randomBound() ?? recordedLast
                    XCTAssertEqual(try test.store.reports.streaks(from: from, to: to, asOf: asOf),
                                   ReportOracle.streaks(inRange.map(\.day), asOf: asOf), "\(context) as of \(asOf)")
                }
            }
        }
    }

    /// The tallied history queries leave their range's end to the reader, which stops at the first
    /// row past it in SQLite's order. Rows another program put after a range's last day (text
    /// that sorts later, the last day's text and more, a BLOB) change no report; such a row
    /// inside the range is refused, naming it, as when the SQL held the bound.
    func testATalliedHistoryStopsAfterItsRangeWhateverRowsFollow() throws {
        let days = randomHistory(seed: 5)
        let test = try store(with: days)
        let (first, last) = (days.first!.day, days.last!.day)
        let cut = CalendarDay("2020-06-17")!
        func insertStrays(_ strays: [DatabaseValue]) throws {
            try test.store.database.write { connection in
                for stray in strays {
                    try connection.run("INSERT INTO exercise_day_totals VALUES (?, 1, 1, 'Stray')", [stray])
                    // (Not a year's: the year totals' sum is what proves the tallies current.)
                    for period in ["week", "month"] {
                        try connection.run("INSERT INTO exercise_period_totals VALUES ('\(period)', ?, 1, 1, 1, 'Stray')", [stray])
                    }
                }
            }
            XCTAssertTrue(try test.store.reports.readsTallies())
        }
        try insertStrays([.text("\(last)x"), .text("zzzz"), .blob(Data([0]))])
        for period in ReportPeriod.allCases {
            XCTAssertEqual(try test.store.reports.history(by: period), ReportOracle.history(days, period, from: first, to: last), "\(period)")
        }
        try insertStrays([.text("\(cut)x")])
        for period in ReportPeriod.allCases {
            XCTAssertEqual(try test.store.reports.history(by: period, to: cut), ReportOracle.history(days, period, from: first, to: cut),
                           "\(period) to \(cut)")
        }
        for period in [ReportPeriod.day, .week, .month] {
            XCTAssertThrowsError(try test.store.reports.history(by: period), "\(period)") { error in
                XCTAssertTrue("\(error)".contains("\"\(cut)x\""), "\(period): \(error)")
            }
        }
    }

    /// A report over the whole history, or over a range whose end periods hold no recorded day
    /// beyond it, reads its first and last periods from their totals: the work does not grow with
    /// the exercises of those periods (a year of 10,000,000 exercises took 10 s counted from its
    /// rows; helper-31). The rows are the oracle's, and a range that cuts a recorded day off its
    /// end periods still counts them from the rows.
    func testAReportsEndPeriodsComeFromTheirTotalsWhenTheRangeCutsNoRecordOff() throws {
        let utc = TimeZone(identifier: "UTC")!
        let first = CalendarDay("2025-03-01")!, last = CalendarDay("2026-02-28")!
        func history(perDay: Int) -> [ExerciseDay] {
            (0..<365).map { index in
                let day = first.adding(days: index)!
                return ExerciseDay(date: day.start(in: utc) + 3_600, day: day, exercises: (0..<perDay).map { names[($0 + index) % names.count] })
            }
        }
        let ranges: [(from: CalendarDay?, to: CalendarDay?)] = [(nil, nil), (CalendarDay("2025-01-10"), CalendarDay("2026-03-20")),
                                                                 (CalendarDay("2025-02-26"), nil)]
        for period in [ReportPeriod.week, .month, .year] {
            for range in ranges {
                let steps = try [5, 20].map { perDay in
                    let days = history(perDay: perDay)
                    let test = try store(with: days)
                    return try test.store.underlyingDatabase.withConnection { connection in
                        try connection.countingVirtualMachineSteps {
                            let rows = try test.store.reports.history(by: period, from: range.from, to: range.to)
                            XCTAssertEqual(rows, ReportOracle.history(days, period, from: range.from ?? first, to: range.to ?? last),
                                           "\(period) \(String(describing: range))")
                        }.steps
                    }
                }
                let growth = Double(steps[1]) / Double(steps[0])
                XCTAssertLessThan(growth, 1.5, "\(period) \(String(describing: range)): 4 times the exercises cost \(growth) times the work")
            }
        }
        // A range that cuts recorded days off its end periods counts those periods from the rows, exactly.
        let days = history(perDay: 3)
        let test = try store(with: days)
        for period in [ReportPeriod.week, .month, .year] {
            let (from, to) = (CalendarDay("2025-06-18")!, CalendarDay("2026-01-14")!)
            XCTAssertEqual(try test.store.reports.history(by: period, from: from, to: to),
                           ReportOracle.history(days, period, from: from, to: to), "\(period)")
        }
    }

    func testEmptyPeriodsInsideTheRangeHaveZeros() throws {
        let test = try store(with: [ExerciseDay(date: Date(), day: CalendarDay("2026-03-15")!, exercises: ["Squat"])])
        var rows: [HistoryReportRow] = []
        try test.store.reports.history(by: .month, from: CalendarDay("2026-01-01"), to: CalendarDay("2026-04-30")) { rows.append($0) }
        XCTAssertEqual(rows.map(\.period), ["2026-01", "2026-02", "2026-03", "2026-04"])
        XCTAssertEqual(rows.map(\.exercises), [0, 0, 1, 0])
        XCTAssertEqual(rows[0].topExercise, nil)
    }

    /// An exercise name another program stored as something Logbook cannot read (a BLOB, TEXT
    /// that is not UTF-8, an empty BLOB) makes every history and exercise report over its day refuse,
    /// naming the day and position; reports over other days stay exact. The history reports
    /// counted such a name as one of its own, exit 0, and gave another top exercise (helper-24).
    /// `LOGBOOK_UNREADABLE_SEED` repeats a run.
    func testANameLogbookCannotReadIsNamedByEveryReportOverItsDay() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_UNREADABLE_SEED", default: 0xBAD0))
        let days = randomHistory(seed: 21)
        for round in 0..<PropertyTestSettings.scaled(8, by: "LOGBOOK_PROPERTY_SCALE") {
            let test = try store(with: days)
            let target = random.pick(days)
            let position = random.int(1...target.exercises.count)
            // Valid text as a BLOB, text with a byte no UTF-8 holds at a random place, an empty BLOB.
            var bytes = Array(random.pick(names).utf8)
            bytes.insert(random.pick([0xFF, 0xC0, 0x80, 0xF5, 0xED]), at: random.int(0...bytes.count))
            let stored = random.pick(["CAST(name AS BLOB)", "CAST(X'\(bytes.map { String(format: "%02X", $0) }.joined())' AS TEXT)", "X''"])
            try Connection(path: test.store.path).execute("""
                UPDATE exercises SET name = \(stored) WHERE position = \(position)
                    AND day_pk = (SELECT pk FROM exercise_days WHERE day = '\(target.day)')
                """)
            let context = "round \(round): \(stored) on \(target.day) at \(position)"
            let around = target.day.adding(days: -random.int(0...40))!...target.day.adding(days: random.int(0...40))!
            for period in ReportPeriod.allCases {
                XCTAssertThrowsError(try test.store.reports.history(by: period, from: around.lowerBound, to: around.upperBound), context) { error in
                    XCTAssertTrue("\(error)".contains("exercises.name of \(target.day) at position \(position)"), "\(context): \(error)")
                }
            }
            XCTAssertThrowsError(try test.store.reports.exercises(from: around.lowerBound, to: around.upperBound) { _ in }, context) { error in
                XCTAssertTrue("\(error)".contains("exercises.name of \(target.day) at position \(position)"), "\(context): \(error)")
            }
            // A range without that day is reported as before.
            let before = CalendarDay("2019-12-20")!...target.day.adding(days: -1)!
            guard before.lowerBound <= before.upperBound else { continue }
            let inRange = days.filter { before.contains($0.day) }
            for period in ReportPeriod.allCases {
                XCTAssertEqual(try test.store.reports.history(by: period, from: before.lowerBound, to: before.upperBound),
                               ReportOracle.history(inRange, period, from: before.lowerBound, to: before.upperBound), context)
            }
        }
    }

    func testExercisesReport() throws {
        let days = randomHistory(seed: 7)
        let test = try store(with: days)
        var rows: [ExerciseReportRow] = []
        try test.store.reports.exercises(from: CalendarDay("2020-01-01"), to: CalendarDay("2020-12-31")) { rows.append($0) }
        let ordered = ReportOracle.exercises(days.filter { $0.day.description.hasPrefix("2020") })
        XCTAssertEqual(rows, ordered)
        XCTAssertEqual(rows.count, 7, "Café in NFC and NFD is one exercise")
    }

    func testStreaks() throws {
        for seed: UInt64 in [11, 12, 13, 14] {
            let days = randomHistory(seed: seed)
            let test = try store(with: days)
            for asOfText in ["2020-03-08", "2020-11-02", "2021-01-01", "2021-01-11", "2030-01-01"] {
                let asOf = CalendarDay(asOfText)!
                XCTAssertEqual(try test.store.reports.streaks(asOf: asOf), ReportOracle.streaks(days.map(\.day), asOf: asOf),
                               "seed \(seed) as of \(asOf)")
            }
        }
    }

    /// Streaks, read a month at a time (the bits of its days, migration 0018), over histories of
    /// whole months beside months with a few days missing or most of them, day records with no
    /// exercise that another program wrote (they break a streak), at the calendar's first and
    /// last days, with ranges and as-of days that cut months, read from the tallies and counted
    /// from the rows. Months are whole with probability 0.5, so runs across months and gaps in
    /// every month both occur. `LOGBOOK_STREAK_SEED` repeats a run.
    func testStreaksReadByMonthMatchTheDayRecords() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_STREAK_SEED", default: 4_242)
        var random = SplitMix64(seed: seed)
        let starts = ["0001-01-01", "1999-11-01", "2023-12-01", "9998-10-01", "9999-09-01"].map { CalendarDay($0)! }
        for round in 0..<PropertyTestSettings.scaled(6, by: "LOGBOOK_PROPERTY_SCALE") {
            var recorded: [ExerciseDay] = []
            var emptyRecords: [CalendarDay] = []
            var month = random.pick(starts)
            for _ in 0..<random.int(3...14) {
                let end = ReportPeriod.month.end(ofPeriodStartingOn: month)
                let missingCount = random.chance(0.5) ? 0 : random.chance(0.5) ? random.int(1...3) : random.int(4...40)
                let missing = Set((0..<missingCount).map { _ in random.int(month.dayNumber...end.dayNumber) })
                for number in month.dayNumber...end.dayNumber where !missing.contains(number) {
                    let day = CalendarDay(dayNumber: number)!
                    recorded.append(ExerciseDay(date: Date(timeIntervalSinceReferenceDate: 0), day: day,
                                                exercises: (0..<random.int(1...3)).map { _ in random.pick(names) }))
                }
                if let number = missing.randomElement(using: &random), random.chance(0.5) { emptyRecords.append(CalendarDay(dayNumber: number)!) }
                guard let following = end.adding(days: 1) else { break }
                month = following
            }
            let test = try store(with: recorded)
            try test.store.database.write { connection in
                for day in emptyRecords {
                    try connection.run("INSERT INTO exercise_days (id, day, date) VALUES (?, ?, 0)", [.text(UUID().uuidString), .text(day.description)])
                }
            }
            // A record another program left without exercises is no active day: it breaks a streak.
            let allDays = recorded.map(\.day).sorted()
            let span = (allDays + emptyRecords).min()!.dayNumber...(allDays + emptyRecords).max()!.dayNumber
            func randomBound() -> CalendarDay? { random.bound(around: span, margin: 3, openChance: 0.3) }
            try readTalliedThenCounted(test) { tallied in
                for _ in 0..<8 {
                    let (from, to) = (randomBound(), randomBound())
                    let asOf = randomBound() ?? allDays.last!
                    let context = "seed \(seed) round \(round), \(tallied ? "tallied" : "counted"), "
                        + "\(from?.description ?? "nil")...\(to?.description ?? "nil") as of \(asOf)"
                    XCTAssertEqual(try test.store.reports.streaks(from: from, to: to, asOf: asOf),
                                   ReportOracle.streaks(allDays, from: from, to: to, asOf: asOf), context)
                }
            }
        }
    }

    /// A month's days that another program made no set of its days (a day past its end, zero,
    /// a negative number, text, a real) are refused by the streak report, naming the table and
    /// the month, as every derived value Logbook cannot read; `check` counts the row, and
    /// `repair` recounts it from the day totals.
    func testAMonthsDaysThatAreNoDaysOfTheMonthAreRefusedAndRepaired() throws {
        let days = (1...28).map { CalendarDay(year: 2026, month: 2, day: $0)! } + [CalendarDay(year: 2026, month: 3, day: 1)!]
        let asOf = CalendarDay(year: 2026, month: 3, day: 1)!
        for stored in ["1 << 28 | 1", "0", "-1", "'x'", "2.5"] {
            let test = try store(with: days.map { ExerciseDay(date: Date(timeIntervalSinceReferenceDate: 0), day: $0, exercises: ["Squat"]) })
            XCTAssertEqual(try test.store.reports.streaks(asOf: asOf).longestStreak, 29)
            let plain = try Connection(path: test.store.path)
            try plain.execute("PRAGMA ignore_check_constraints = ON")
            try plain.execute("UPDATE exercise_month_days SET days = \(stored) WHERE start = '2026-02-01'")
            XCTAssertThrowsError(try test.store.reports.streaks(asOf: asOf), stored) { error in
                XCTAssertTrue("\(error)".contains("exercise_month_days.days") && "\(error)".contains("2026-02"), "\(stored): \(error)")
            }
            XCTAssertEqual(try test.store.check().derivedDataProblems,
                           ["exercise_month_days: 1 row differs from a recount of the exercises (run 'logbook repair')"], stored)
            try test.store.repair()
            XCTAssertEqual(try test.store.check().derivedDataProblems, [], stored)
            XCTAssertEqual(try test.store.reports.streaks(asOf: asOf), ReportOracle.streaks(days, asOf: asOf), stored)
        }
    }

    /// 0300-03-01, which SQLite 3.40.1's date functions read as 0300-02-29, is a day like any
    /// other: `check` finds nothing to say of a history through it, the counted reports (another
    /// program changed a day) count it instead of refusing it as no calendar day, and the recount
    /// of a stale day and `repair` keep its bit among its month's days, so the streak runs on.
    func testTheFirstOfMarch300IsADayLikeAnyOther() throws {
        let days = (0..<9).map { CalendarDay(year: 300, month: 2, day: 25)!.adding(days: $0)! }
        XCTAssertEqual(days[4].description, "0300-03-01")
        let test = try store(with: days.map { ExerciseDay(date: Date(timeIntervalSinceReferenceDate: 0), day: $0, exercises: ["Squat"]) })
        let asOf = days.last!
        func assertWhole(_ step: String) throws {
            let check = try test.store.check()
            XCTAssertEqual(check.storedValueProblems, [], step)
            XCTAssertEqual(check.derivedDataProblems, [], step)
            XCTAssertEqual(try test.store.reports.streaks(asOf: asOf).longestStreak, 9, step)
        }
        try assertWhole("saved")
        // Another program renames the exercise of that day: the tallies wait for a recount, and the
        // reports count the rows meanwhile.
        try Connection(path: test.store.path).execute("""
            UPDATE exercises SET name = 'Row', name_key = 'Row' WHERE day_pk = (SELECT pk FROM exercise_days WHERE day = '0300-03-01')
            """)
        var exercises = 0
        try test.store.reports.history(by: .week, from: days.first, to: asOf) { exercises += $0.exercises }
        XCTAssertEqual(exercises, 9)
        XCTAssertEqual(try test.store.reports.streaks(asOf: asOf).longestStreak, 9)
        // Logbook's next write recounts the stale day.
        try test.store.history.save([ExerciseDay(date: Date(timeIntervalSinceReferenceDate: 0), day: CalendarDay(year: 2026, month: 1, day: 1)!,
                                                 exercises: ["Squat"])])
        try assertWhole("recounted")
        try test.store.repair()
        try assertWhole("repaired")
    }

    func testStreakSpansDSTAndMidnightByCalendarDays() throws {
        let zone = TimeZone(identifier: "America/New_York")!
        let test = try TestStore(timeZone: zone)
        // 23:59 on the 7th, 00:01 and 03:30 on the 8th (the spring-forward day), 23:30 on the 9th.
        for text in ["2020-03-07T23:59:00-05:00", "2020-03-08T00:01:00-05:00", "2020-03-08T03:30:00-04:00", "2020-03-09T23:30:00-04:00"] {
            try test.store.history.addDoneExercise("Squat", at: instant(text))
        }
        let report = try test.store.reports.streaks(asOf: CalendarDay("2020-03-10"))
        XCTAssertEqual(report.currentStreak, 3)
        XCTAssertEqual(report.longestStart, CalendarDay("2020-03-07"))
        XCTAssertEqual(report.longestEnd, CalendarDay("2020-03-09"))
    }

    func testDraftsReport() throws {
        let clock = TestClock(instant("2026-01-10T12:00:00Z"))
        let test = try TestStore(now: { clock.now })
        let first = try test.store.drafts.save(ReleaseDraft(version: "1.0", checklist: [
            ChecklistItem(title: "a", isDone: true), ChecklistItem(title: "b"), ChecklistItem(title: "c", isDone: true)],
                                                             createdAt: clock.now))
        try test.store.drafts.submit("1.0", at: instant("2026-01-11T09:00:00Z"))
        clock.advance(by: 86_400 * 3)
        try test.store.drafts.save(ReleaseDraft(version: "2.0", createdAt: clock.now))
        var rows: [DraftReportRow] = []
        try test.store.reports.drafts { rows.append($0) }
        XCTAssertEqual(rows.map(\.version), ["1.0", "2.0"])
        XCTAssertEqual(rows[0], DraftReportRow(id: first.id, version: "1.0", isSubmitted: true,
                                               submittedAt: instant("2026-01-11T09:00:00Z"), done: 2, total: 3))
        XCTAssertEqual(rows[0].summary, "2 of 3 done")
        XCTAssertEqual(rows[1].summary, "0 of 0 done")
        var recent: [DraftReportRow] = []
        try test.store.reports.drafts(from: CalendarDay("2026-01-12")) { recent.append($0) }
        XCTAssertEqual(recent.map(\.version), ["2.0"])
    }

    /// The drafts report counts a draft on the day a wall calendar in the store's zone showed
    /// when it was created, also where the clock went back across midnight and an hour of a day
    /// came after the next day's start (St John's 1987, 1988 and 2010, Casey 2010, Guam 1969, Arizona 1944):
    /// it filed such drafts under the next day (helper-13). Drafts from a minute before to two
    /// hours after each transition, every range of the days around it (either end open), against
    /// Foundation's calendar.
    func testTheDraftsReportFilesADraftUnderTheDayTheWallCalendarShowed() throws {
        for (name, unixTime) in clocksBackAcrossMidnight {
            let zone = try XCTUnwrap(TimeZone(identifier: name))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let test = try TestStore(timeZone: zone)
            var created: [String: CalendarDay] = [:]
            for after in [-61.0, -1, 0, 1, 1_800, 3_539, 3_599, 3_601, 7_200] {
                let date = Date(timeIntervalSince1970: unixTime + after)
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                created["\(after)"] = CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)
                try test.store.drafts.save(ReleaseDraft(version: "\(after)", createdAt: date))
            }
            let near = CalendarDay(Date(timeIntervalSince1970: unixTime), in: zone)
            let bounds = [nil] + (-1...1).map { near.adding(days: $0) }
            for from in bounds {
                for to in bounds {
                    let expected = created.filter { entry in
                        from.map { entry.value >= $0 } ?? true && to.map { entry.value <= $0 } ?? true
                    }
                    let found = try test.store.reports.drafts(from: from, to: to).map(\.version)
                    XCTAssertEqual(Set(found), Set(expected.keys), "\(name): \(from?.description ?? "…") to \(to?.description ?? "…")")
                }
            }
        }
    }
}

private extension SplitMix64 {
    /// A day up to `margin` days either side of the day numbers `span`, or nil (an open bound)
    /// with probability `openChance`; nil too outside years 0001 to 9999.
    mutating func bound(around span: ClosedRange<Int>, margin: Int, openChance: Double) -> CalendarDay? {
        chance(openChance) ? nil : CalendarDay(dayNumber: int((span.lowerBound - margin)...(span.upperBound + margin)))
    }
}
