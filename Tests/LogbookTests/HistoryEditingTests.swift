import Foundation
import LogbookTestSupport
import XCTest
@testable import Logbook

/// Fixing mistakes: removals, renames and moves, checked against a model of the history in Swift,
/// with the tallies recounted exactly (check) after every edit, and dry runs that write nothing.
final class HistoryEditingTests: XCTestCase {
    private static let zone = TimeZone(identifier: "America/New_York")!

    func testRandomEditsAgreeWithAModelAndKeepTheTalliesExact() throws {
        let test = try TestStore(timeZone: Self.zone)
        let history = test.store.history
        let seed = PropertyTestSettings.seed("LOGBOOK_EDITING_SEED", default: 0xED17)
        var random = SplitMix64(seed: seed)
        let names = ["Squat", "Burpee", "Cafe\u{301}", "Café", "Row", "Élan"]
        var model: [CalendarDay: [String]] = [:]
        let first = CalendarDay("2026-03-01")!
        for offset in 0..<20 {
            let day = first.adding(days: offset)!
            let exercises = (0..<random.int(1...5)).map { _ in random.pick(names) }
            try history.addDoneExercises(exercises, at: Self.at(day, hour: random.int(0...23)))
            model[day] = exercises
        }
        for step in 0..<120 {
            let context = "seed \(seed), step \(step)"
            let days = model.keys.sorted()
            guard let day = days.isEmpty ? nil : random.pick(days) else { break }
            let dryRun = random.chance(0.2)
            var expected = model
            switch random.int(0...3) {
            case 0:
                let position = random.int(1...(model[day]!.count + 1))
                if position > model[day]!.count {
                    XCTAssertThrowsError(try history.removeExercises(atPositions: [position], from: day, dryRun: dryRun), context)
                    continue
                }
                expected[day]!.remove(at: position - 1)
                _ = try history.removeExercises(atPositions: [position], from: day, dryRun: dryRun)
            case 1:
                let name = random.pick(model[day]!)
                expected[day]!.removeAll { $0 == name }
                _ = try history.removeExercises(named: [name], from: day, dryRun: dryRun)
            case 2:
                let old = random.pick(names), new = random.pick(names + ["Plank"])
                let (from, to) = (random.pick(days), random.pick(days))
                let range = min(from, to)...max(from, to)
                let matches = expected.contains { range.contains($0.key) && $0.value.contains(old) }
                guard matches else {
                    XCTAssertThrowsError(try history.renameExercise(old, to: new, from: range.lowerBound, to: range.upperBound), context)
                    continue
                }
                for key in expected.keys where range.contains(key) { expected[key] = expected[key]!.map { $0 == old ? new : $0 } }
                _ = try history.renameExercise(old, to: new, from: range.lowerBound, to: range.upperBound, dryRun: dryRun)
            default:
                let target = first.adding(days: random.int(-3...25))!
                if target != day {
                    expected[target, default: []] += expected[day]!
                    expected[day] = nil
                }
                _ = try history.moveDay(day, to: target, dryRun: dryRun)
            }
            expected = expected.filter { !$0.value.isEmpty }
            if !dryRun { model = expected }
            let stored = try history.fetchAll()
            XCTAssertEqual(stored.map(\.day), model.keys.sorted(), context)
            for record in stored {
                // Names compare as Swift does; the bytes are the last writer's.
                XCTAssertEqual(record.exercises, model[record.day], context)
                XCTAssertEqual(CalendarDay(record.date, in: Self.zone), record.day, "a moved record keeps its date on its day: \(context)")
            }
            let report = try test.store.check()
            XCTAssertTrue(report.isHealthy, "\(context): \(report)")
        }
    }

    func testNamesResembleByLettersAndTypingMistakes() throws {
        let test = try TestStore()
        try test.store.history.addDoneExercises(["Burpee", "Squat", "Élan"], at: instant("2026-01-01T10:00:00Z"))
        let history = test.store.history
        XCTAssertEqual(try history.knownExercise(resembling: "Bupree"), "Burpee")
        XCTAssertEqual(try history.knownExercise(resembling: "squat"), "Squat")
        XCTAssertEqual(try history.knownExercise(resembling: "elan"), "Élan")
        XCTAssertNil(try history.knownExercise(resembling: "Squat"))
        XCTAssertNil(try history.knownExercise(resembling: "E\u{301}lan"), "the same name as Swift compares")
        XCTAssertNil(try history.knownExercise(resembling: "Kettlebell Swing"))
        XCTAssertEqual(try history.exerciseNames(matching: "BURPÉE"), ["Burpee"])
        let query = try history.query(where: #"exercises icontains "elan""#)
        XCTAssertEqual(try history.fetch(query).count, 1)
        XCTAssertEqual(try history.fetch(try history.query(where: #"exercises icontains "ela""#)).count, 0, "whole names, not parts")
    }

    private static func at(_ day: CalendarDay, hour: Int) -> Date {
        day.start(in: zone) + Double(hour * 3_600 + 17)
    }
}
