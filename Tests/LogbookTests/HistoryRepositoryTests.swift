import Foundation
import LogbookTestSupport
import XCTest
@testable import Logbook

final class HistoryRepositoryTests: XCTestCase {
    /// The calendar day of `date` in `zone`, computed with Foundation's Calendar: the independent
    /// answer the store must agree with.
    private func expectedDay(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    func testSameDayRuleAcrossDSTAndMidnightInThreeTimeZones() throws {
        // Both 2026 DST changes of each zone, plus an ordinary day, each probed around local midnight
        // and around the change itself.
        let cases: [(zone: String, days: [String])] = [
            ("America/New_York", ["2026-03-08", "2026-11-01", "2026-06-15"]),
            ("Europe/Berlin", ["2026-03-29", "2026-10-25", "2026-06-15"]),
            ("Australia/Sydney", ["2026-04-05", "2026-10-04", "2026-06-15"]),
        ]
        for (zoneName, days) in cases {
            let zone = try XCTUnwrap(TimeZone(identifier: zoneName))
            let test = try TestStore(timeZone: zone)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            var expected: [String: [String]] = [:]
            for dayText in days {
                let day = try XCTUnwrap(CalendarDay(dayText))
                let start = day.start(in: zone)
                XCTAssertEqual(expectedDay(start, zone), dayText, "start of \(dayText) in \(zoneName)")
                let next = try XCTUnwrap(calendar.date(byAdding: .day, value: 1, to: start))
                // 23:59:59.999999 of the day and 00:00 of the next, the hours around 02:00-03:00.
                let probes = [start, start + 2 * 3600 - 1, start + 2 * 3600, start + 3 * 3600,
                              next - 60, next - 0.000_001, next, next + 60]
                for (index, probe) in probes.enumerated() {
                    let name = "\(zoneName) \(dayText) #\(index)"
                    let record = try test.store.history.addDoneExercise(name, at: probe)
                    XCTAssertEqual(record.day.description, expectedDay(probe, zone), name)
                    expected[expectedDay(probe, zone), default: []].append(name)
                }
            }
            let stored = try test.store.history.fetchAll()
            XCTAssertEqual(stored.map(\.day.description), expected.keys.sorted(), zoneName)
            for record in stored {
                XCTAssertEqual(record.exercises, expected[record.day.description], "\(zoneName) \(record.day)")
            }
        }
    }

    func testAppendKeepsOrderDuplicatesAndFirstInstant() throws {
        let test = try TestStore(timeZone: TimeZone(identifier: "Europe/Paris")!)
        let history = test.store.history
        let morning = instant("2026-02-10T08:00:00.000001Z")
        let first = try history.addDoneExercise("Squat", at: morning)
        try history.addDoneExercises(["Burpee", "Squat"], at: instant("2026-02-10T18:00:00Z"))
        let backdated = try history.addDoneExercise("Élan", at: instant("2026-02-10T06:00:00Z"))
        XCTAssertEqual(backdated.id, first.id)
        XCTAssertEqual(backdated.exercises, ["Squat", "Burpee", "Squat", "Élan"])
        XCTAssertEqual(backdated.date, instant("2026-02-10T06:00:00Z"))
        let fetched = try XCTUnwrap(history.fetch(day: CalendarDay("2026-02-10")!))
        XCTAssertEqual(fetched, backdated)
        XCTAssertEqual(try history.count(), 1)
    }

    func testStoredDayDoesNotMoveWhenTheTimeZoneChanges() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("h.sqlite").path
        let late = instant("2026-01-31T23:30:00-05:00")
        try Logbook(path: path, timeZone: TimeZone(identifier: "America/New_York")!).history.addDoneExercise("Squat", at: late)
        let tokyo = try Logbook(path: path, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        XCTAssertEqual(try tokyo.history.fetchAll().map(\.day.description), ["2026-01-31"])
        try tokyo.history.addDoneExercise("Burpee", at: late)
        XCTAssertEqual(try tokyo.history.fetchAll().map(\.day.description), ["2026-01-31", "2026-02-01"])
    }

    func testDeleteDayAndInvalidInput() throws {
        let test = try TestStore()
        try test.store.history.addDoneExercises(["A", "B"], at: instant("2026-03-01T10:00:00Z"))
        XCTAssertEqual(try test.store.history.delete(day: CalendarDay("2026-03-01")!).exercises, ["A", "B"])
        XCTAssertEqual(try test.store.history.count(), 0)
        XCTAssertThrowsError(try test.store.history.delete(day: CalendarDay("2026-03-01")!)) {
            XCTAssertEqual($0 as? LogbookError, .dayNotFound(CalendarDay("2026-03-01")!))
        }
        XCTAssertThrowsError(try test.store.history.addDoneExercise(""))
        XCTAssertThrowsError(try test.store.history.addDoneExercises([]))
        XCTAssertThrowsError(try test.store.history.addDoneExercise("x", at: Date(timeIntervalSinceReferenceDate: .infinity)))
        XCTAssertEqual(try test.store.history.count(), 0)
    }

    func testSaveWholeDaysIsOneTransaction() throws {
        let test = try TestStore()
        let good = ExerciseDay(date: instant("2026-01-01T09:00:00Z"), day: CalendarDay("2026-01-01")!, exercises: ["A"])
        let clash = ExerciseDay(date: instant("2026-01-01T10:00:00Z"), day: CalendarDay("2026-01-01")!, exercises: ["B"])
        XCTAssertThrowsError(try test.store.history.save([good, clash]))
        XCTAssertEqual(try test.store.history.count(), 0, "a failed save leaves nothing behind")
        try test.store.history.save([good])
        XCTAssertEqual(try test.store.history.fetchAll(), [good])
    }
}
