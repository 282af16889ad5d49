import Foundation
import LogbookTestSupport
import Observation
import XCTest
import Logbook

/// `LiveQuery`: loaded before use when asked, updated after commits from this process and from
/// another one (the `sqlite3` shell), observed through `withObservationTracking`, never more than
/// one update per commit, none for commits that leave the result alone.
@MainActor
final class LiveQueryTests: XCTestCase {
    private static let utc = TimeZone(identifier: "UTC")!

    /// Counts the changes `withObservationTracking` reports for `value`, registering again after each.
    private final class ChangeCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var changes = 0
        var count: Int { lock.lock(); defer { lock.unlock() }; return changes }
        func increment() { lock.lock(); changes += 1; lock.unlock() }
    }

    private static func track<Value>(_ live: LiveQuery<Value>, _ counter: ChangeCounter) {
        withObservationTracking {
            _ = live.value
        } onChange: {
            counter.increment()
            Task { @MainActor in track(live, counter) }
        }
    }

    /// Waits up to 10 s for `condition`.
    private func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }

    func testLoadsThenFollowsAnotherProcessesCommits() async throws {
        let shell = "/usr/bin/sqlite3"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: shell), "the sqlite3 shell is the other process")
        let folder = try TemporaryFolder("logbook-live")
        let store = try Logbook(path: folder.file("live.sqlite").path, timeZone: Self.utc)
        try await store.drafts.save(ReleaseDraft(version: "1.0"))
        let open = store.drafts.liveQuery(FetchDescriptor(predicate: #Predicate { $0.submittedAt == nil },
                                                          sortBy: [SortDescriptor(\.version)]))
        XCTAssertTrue(open.isLoading)
        await open.loaded()
        XCTAssertFalse(open.isLoading)
        XCTAssertEqual(open.value.map(\.version), ["1.0"])
        let counter = ChangeCounter()
        Self.track(open, counter)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [store.path, """
            INSERT INTO drafts (id, version, version_key, whats_new, created_at, updated_at)
            VALUES ('\(UUID().uuidString)', '2.0', '2.0', '', 0, 0);
            """]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        try await eventually { open.value.count == 2 }
        XCTAssertEqual(open.value.map(\.version), ["1.0", "2.0"])
        XCTAssertEqual(counter.count, 1)
        XCTAssertNil(open.error)
    }

    func testOneUpdateAtMostPerCommitAndNoneForCommitsThatChangeNothing() async throws {
        let folder = try TemporaryFolder("logbook-live")
        let store = try Logbook(path: folder.file("live.sqlite").path, timeZone: Self.utc)
        let drafts = store.drafts.liveQuery(FetchDescriptor(sortBy: [SortDescriptor(\.version)]))
        let count = store.drafts.liveCount()
        await drafts.loaded()
        await count.loaded()
        let counter = ChangeCounter(), countCounter = ChangeCounter()
        Self.track(drafts, counter)
        Self.track(count, countCounter)

        let commits = 60
        for index in 0..<commits { try await store.drafts.save(ReleaseDraft(version: "v\(index)")) }
        try await eventually { drafts.value.count == commits && count.value == commits }
        XCTAssertEqual(drafts.value.count, commits)
        XCTAssertEqual(count.value, commits)
        XCTAssertGreaterThanOrEqual(counter.count, 1)
        XCTAssertLessThanOrEqual(counter.count, commits, "more updates than commits")
        XCTAssertGreaterThanOrEqual(countCounter.count, 1)
        XCTAssertLessThanOrEqual(countCounter.count, commits, "more count updates than commits")
        print("LiveQueryTests: \(commits) commits gave \(counter.count) updates of the fetch, \(countCounter.count) of the count")

        // Commits to the history leave the drafts alone: no update.
        let settled = counter.count, countSettled = countCounter.count
        for day in 1...10 {
            try await store.history.addDoneExercise("Row", at: Date(timeIntervalSinceReferenceDate: Double(day) * 86_400))
        }
        try await Task.sleep(for: .milliseconds(400))
        XCTAssertEqual(counter.count, settled)
        XCTAssertEqual(countCounter.count, countSettled)
    }

    func testAReportFollowsTheHistoryAndAnUntranslatablePredicateIsAnError() async throws {
        let folder = try TemporaryFolder("logbook-live")
        let store = try Logbook(path: folder.file("live.sqlite").path, timeZone: Self.utc)
        let months = store.reports.liveHistory(by: .month)
        await months.loaded()
        XCTAssertEqual(months.value, [])
        let counter = ChangeCounter()
        Self.track(months, counter)
        try await store.history.addDoneExercises(["Squat", "Row"], at: Date(timeIntervalSinceReferenceDate: 3_600))
        try await eventually { months.value.first?.exercises == 2 }
        XCTAssertEqual(months.value.map(\.period), ["2001-01"])
        XCTAssertEqual(months.value.map(\.start), [CalendarDay("2001-01-01")])
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(counter.count, 1, "one commit, one update of the report")

        let untranslatable = store.drafts.liveQuery(FetchDescriptor(predicate: #Predicate { $0.version.count > 1_000 && $0.summary == "" }))
        await untranslatable.loaded()
        XCTAssertFalse(untranslatable.isLoading)
        XCTAssertNotNil(untranslatable.error)
    }
}
