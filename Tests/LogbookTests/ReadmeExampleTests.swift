import Foundation
import LogbookTestSupport
import Observation
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

    /// The README's library section, as written (with a scratch file and the app's fixture plist).
    func testAsyncLibraryExample() async throws {
        let folder = try TemporaryFolder("logbook-readme")
        let databaseURL = folder.file("history.sqlite")
        let oldHistoryPlistURL = folder.file("history.plist")
        try Data(contentsOf: Fixtures.url("history.plist")).write(to: oldHistoryPlistURL)

        let store = try await Logbook.open(path: databaseURL.path)   // creates, opens and migrates, off the main thread
        var draft = ReleaseDraft(version: "2.5.0", checklist: [ChecklistItem(title: "Screenshots")])
        draft = try await store.drafts.save(draft)                   // insert or update, checklist in order
        try await store.drafts.setItem(at: 1, done: true, in: draft.id)     // or an item by its id
        try await store.drafts.submit("2.5.0")                       // throws LogbookError.emptyVersionOnSubmit for ""
        try await store.history.addDoneExercise("Burpee")            // now, on its calendar day in store.timeZone
        let weeks = try await store.reports.history(by: .week)       // [HistoryReportRow]: Codable, Identifiable, .start
        _ = try await store.importRecords(from: oldHistoryPlistURL)  // the app's own history.plist, once

        XCTAssertEqual(weeks.count, 1)
        let saved = try await store.drafts.fetch(id: draft.id)
        XCTAssertEqual(saved?.checklist.map(\.isDone), [true])
        XCTAssertNotNil(saved?.submittedAt)
        let days = try await store.history.count()
        XCTAssertGreaterThan(days, 1)

        let model = await DraftsModel(store: store)
        await model.open.loaded()
        let open = await model.open.value
        XCTAssertEqual(open, [], "the only draft is submitted")
        // The model follows the store: a new open draft appears in it.
        try await store.drafts.save(ReleaseDraft(version: "2.6.0"))
        let deadline = ContinuousClock.now + .seconds(10)
        while await model.open.value.map(\.version) != ["2.6.0"] && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let versions = await model.open.value.map(\.version)
        XCTAssertEqual(versions, ["2.6.0"])
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

/// The README's view model.
@Observable @MainActor final class DraftsModel {
    let open: LiveQuery<[ReleaseDraft]>
    init(store: Logbook) {
        open = store.drafts.liveQuery(FetchDescriptor(predicate: #Predicate { $0.submittedAt == nil },
                                                      sortBy: [SortDescriptor(\.version)]))
    }
}
