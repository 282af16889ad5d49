import Foundation
import XCTest
import Logbook

/// The library examples of the README, run as written.
final class ReadmeExampleTests: XCTestCase {
    func testQueryingExamples() throws {
        let test = try TestStore()
        let store = test.store
        for (version, submitted) in [("2.0", false), ("2.1", true), ("1.9", false), ("2.10", false)] {
            try store.drafts.save(ReleaseDraft(version: version, submittedAt: submitted ? .now : nil))
        }
        try store.history.addDoneExercises(["Burpee", "Squat", "Plank", "Row"], at: instant("2026-01-10T10:00:00Z"))
        try store.history.addDoneExercise("Burpee", at: instant("2026-02-10T10:00:00Z"))

        let open = try store.drafts.fetch(FetchDescriptor(
            predicate: #Predicate<ReleaseDraft> { $0.submittedAt == nil && $0.version.starts(with: "2.") },
            sortBy: [SortDescriptor(\.version, order: .reverse)], fetchLimit: 10))
        XCTAssertEqual(open.map(\.version), ["2.10", "2.0"])
        let burpeeDays = try store.history.fetchCount(FetchDescriptor(
            predicate: #Predicate<ExerciseDay> { $0.exercises.contains("Burpee") }))
        XCTAssertEqual(burpeeDays, 2)
        let start = CalendarDay("2026-01-01")!, end = CalendarDay("2026-01-31")!
        let january = try store.history.fetch(FetchDescriptor(
            predicate: #Predicate<ExerciseDay> { $0.day >= start && $0.day <= end && $0.exercises.count > 3 },
            sortBy: [SortDescriptor(\.day)]))
        XCTAssertEqual(january.map(\.day.description), ["2026-01-10"])
    }

    func testUntranslatablePredicateIsRefusedByName() throws {
        let test = try TestStore()
        XCTAssertThrowsError(try test.store.drafts.fetch(FetchDescriptor(
            predicate: #Predicate<ReleaseDraft> { $0.summary == "0 of 0 done" }))) { error in
            // Linux prints key paths to computed properties without their names; the message says what is allowed.
            XCTAssertTrue("\(error)".contains("not a stored or derived field of drafts (those are: id, version"), "\(error)")
        }
    }
}
