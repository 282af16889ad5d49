import Foundation
import LogbookTestSupport
import Observation
import XCTest
import Logbook
import SQLiteQuery

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

    /// A fetch that fails on another program's value Logbook cannot read (a name that is not
    /// UTF-8) sets `error` and keeps the last value; once the value is gone, the next commit
    /// updates the query again and clears `error`. It stopped the updates for good, so an app's
    /// screens froze after a bad value that lived six seconds (helper-91). `observe` ends with it.
    func testAFetchThatFailsSetsTheErrorUntilACommitPutsItRight() async throws {
        let folder = try TemporaryFolder("logbook-live")
        let store = try Logbook(path: folder.file("live.sqlite").path, timeZone: Self.utc)
        let january = Date(timeIntervalSinceReferenceDate: 3_600), february = january + 40 * 86_400
        try await store.history.addDoneExercises(["Squat"], at: january)
        let months = store.reports.liveHistory(by: .month)
        let days = store.history.liveQuery(FetchDescriptor<ExerciseDay>(sortBy: [SortDescriptor(\.day)]))
        await months.loaded()
        await days.loaded()
        XCTAssertEqual(months.value.map(\.exercises), [1])
        let values = store.history.observe(FetchDescriptor<ExerciseDay>())
        var iterator = values.makeAsyncIterator()
        _ = try await iterator.next()

        let other = try Connection(path: store.path)
        try other.execute("""
            INSERT INTO exercises (day_pk, position, name, name_key)
            SELECT pk, 2, CAST(X'5371FF' AS TEXT), CAST(X'5371FF' AS TEXT) FROM exercise_days
            """)
        try await eventually { months.error != nil && days.error != nil }
        XCTAssertNotNil(months.error, "the report's fetch fails on the name")
        XCTAssertNotNil(days.error, "the records' fetch fails on the name")
        XCTAssertEqual(months.value.map(\.exercises), [1], "the last value stays")
        do {
            _ = try await iterator.next()
            XCTFail("observe passed a value over the name it cannot read")
        } catch {}

        try other.execute("DELETE FROM exercises WHERE position = 2")
        try await eventually { months.error == nil && days.error == nil }
        XCTAssertNil(months.error, "the commit that removed the name lets the report be fetched")
        XCTAssertNil(days.error)
        try await store.history.addDoneExercises(["Plank"], at: february)
        try await eventually { days.value.count == 2 && months.value.count == 2 }
        XCTAssertEqual(days.value.map(\.exercises), [["Squat"], ["Plank"]])
        XCTAssertEqual(months.value.map(\.exercises), [1, 1])
    }
}
