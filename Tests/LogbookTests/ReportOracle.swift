import Foundation
import LogbookTestSupport
import XCTest
@testable import Logbook

/// The reports computed in plain Swift from the records, independently of the store's SQL: the
/// oracle of `ReportTests` and `OtherWritersTests`. Names are grouped by Swift's own NFC; the
/// name shown is a group's smallest spelling in UTF-8 byte order; a day is active when it has an
/// exercise.
enum ReportOracle {
    static func label(_ day: CalendarDay, _ period: ReportPeriod) -> String {
        switch period {
        case .day: return day.description
        case .month: return String(day.description.prefix(7))
        case .year: return String(day.description.prefix(4))
        case .week where !(1600...9998).contains(day.year):
            // Foundation's calendar turns Julian before 1582: ISO 8601's own rule instead, week 1
            // being the week of January 4th.
            func weekOneMonday(_ year: Int) -> Int {
                let january4 = CalendarDay(year: year, month: 1, day: 4)?.dayNumber ?? Int.max
                return january4 - ((january4 % 7 + 7 + 3) % 7)
            }
            let year = day.dayNumber >= weekOneMonday(day.year + 1) ? day.year + 1
                     : day.dayNumber >= weekOneMonday(day.year) ? day.year : day.year - 1
            return String(format: "%04d-W%02d", year, (day.dayNumber - weekOneMonday(year)) / 7 + 1)
        case .week:
            var calendar = Calendar(identifier: .iso8601)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: day.start(in: calendar.timeZone))
            return String(format: "%04d-W%02d", parts.yearForWeekOfYear!, parts.weekOfYear!)
        }
    }

    static func history(_ days: [ExerciseDay], _ period: ReportPeriod, from: CalendarDay, to: CalendarDay) -> [HistoryReportRow] {
        let byDay = Dictionary(uniqueKeysWithValues: days.filter { !$0.exercises.isEmpty }.map { ($0.day, $0) })
        var order: [String] = []
        var grouped: [String: [ExerciseDay]] = [:]
        for number in from.dayNumber...max(from.dayNumber, to.dayNumber) where from <= to {
            let day = CalendarDay(dayNumber: number)!
            let period = label(day, period)
            if grouped[period] == nil { order.append(period); grouped[period] = [] }
            if let record = byDay[day] { grouped[period]?.append(record) }
        }
        return order.sorted().map { period in
            let records = grouped[period] ?? []
            let names = records.flatMap(\.exercises)
            var counts: [String: (count: Int, spelling: String)] = [:]
            for name in names {
                let key = name.swiftNFC
                let spelling = counts[key].map { Array($0.spelling.utf8).lexicographicallyPrecedes(Array(name.utf8)) ? $0.spelling : name } ?? name
                counts[key] = ((counts[key]?.count ?? 0) + 1, spelling)
            }
            let top = counts.sorted {
                $0.value.count != $1.value.count ? $0.value.count > $1.value.count : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8))
            }.first?.value.spelling
            return HistoryReportRow(period: period, start: ReportPeriod.firstDay(ofPeriod: period) ?? .first, activeDays: records.count, exercises: names.count,
                                    distinctExercises: counts.count, topExercise: top)
        }
    }

    static func exercises(_ days: [ExerciseDay]) -> [ExerciseReportRow] {
        var expected: [String: ExerciseReportRow] = [:]
        for day in days {
            for name in day.exercises {
                let key = name.swiftNFC
                var row = expected[key] ?? ExerciseReportRow(exercise: name, count: 0, days: 0, firstDay: day.day, lastDay: day.day)
                if Array(name.utf8).lexicographicallyPrecedes(Array(row.exercise.utf8)) { row.exercise = name }
                row.count += 1
                row.firstDay = min(row.firstDay, day.day)
                row.lastDay = max(row.lastDay, day.day)
                expected[key] = row
            }
            for key in Set(day.exercises.map(\.swiftNFC)) { expected[key]?.days += 1 }
        }
        return expected.sorted {
            $0.value.count != $1.value.count ? $0.value.count > $1.value.count : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8))
        }.map(\.value)
    }

    /// The streaks of the recorded days `days` (records, with or without exercises) in
    /// `from...to` (nil: unbounded) as of `asOf`: the runs of consecutive days up to `asOf`, the
    /// current one ending on `asOf` or the day before, the longest the latest among equals.
    static func streaks(_ days: [CalendarDay], from: CalendarDay? = nil, to: CalendarDay? = nil, asOf: CalendarDay) -> StreakReport {
        var runs: [ClosedRange<CalendarDay>] = []
        for day in days.sorted() where (from ?? .first) <= day && day <= (to ?? .last) && day <= asOf {
            if let run = runs.last, run.upperBound.adding(days: 1) == day {
                runs[runs.count - 1] = run.lowerBound...day
            } else {
                runs.append(day...day)
            }
        }
        let length = { (run: ClosedRange<CalendarDay>) in run.upperBound.dayNumber - run.lowerBound.dayNumber + 1 }
        let longest = runs.max { length($0) != length($1) ? length($0) < length($1) : $0.lowerBound < $1.lowerBound }
        let current = runs.last.flatMap { asOf.dayNumber - $0.upperBound.dayNumber <= 1 ? length($0) : nil } ?? 0
        return StreakReport(currentStreak: current, longestStreak: longest.map(length) ?? 0,
                            longestStart: longest?.lowerBound, longestEnd: longest?.upperBound, asOf: asOf)
    }
}

extension XCTestCase {
    /// Asserts that the store's reports equal the oracle's on `days`, the store's records: the
    /// history by every period and the exercise totals over `range` (nil: the reports' open forms,
    /// over the first to the last record), the top exercise's spelling byte for byte, and the
    /// streaks in it as of its last day.
    func assertReportsAreExact(_ store: Logbook, _ days: [ExerciseDay], in range: ClosedRange<CalendarDay>? = nil,
                               step: String) throws {
        guard let first = range?.lowerBound ?? days.map(\.day).min(), let last = range?.upperBound ?? days.map(\.day).max() else {
            return
        }
        for period in ReportPeriod.allCases {
            var rows: [HistoryReportRow] = []
            try store.reports.history(by: period, from: range?.lowerBound, to: range?.upperBound) { rows.append($0) }
            let expected = ReportOracle.history(days, period, from: first, to: last)
            XCTAssertEqual(rows, expected, "\(step): history by \(period)")
            XCTAssertEqual(rows.map { $0.topExercise.map { Array($0.utf8) } }, expected.map { $0.topExercise.map { Array($0.utf8) } },
                           "\(step): the top exercise's spelling, byte for byte")
        }
        var exercises: [ExerciseReportRow] = []
        try store.reports.exercises(from: range?.lowerBound, to: range?.upperBound) { exercises.append($0) }
        XCTAssertEqual(exercises, ReportOracle.exercises(days.filter { (first...last).contains($0.day) }), "\(step): exercises")
        // Streaks count the days with an exercise (a record another program emptied breaks one).
        let activeDays = days.filter { !$0.exercises.isEmpty }.map(\.day)
        XCTAssertEqual(try store.reports.streaks(from: range?.lowerBound, to: range?.upperBound, asOf: last),
                       ReportOracle.streaks(activeDays, from: range?.lowerBound, to: range?.upperBound, asOf: last),
                       "\(step): streaks")
    }
}
