import Foundation
import XCTest
@testable import Logbook

/// `observe`: current results first, then new results after each commit that changes them,
/// from any connection; nothing for commits that don't; the latest state last; cancellation ends it.
final class ObservationTests: XCTestCase {
    /// What a stream yielded so far, shared between the consuming task and the test.
    private final class Seen<Record>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [[Record]] = []
        func append(_ value: [Record]) { lock.lock(); values.append(value); lock.unlock() }
        var all: [[Record]] { lock.lock(); defer { lock.unlock() }; return values }
    }

    /// Collects what `stream` yields until `until` is true or `timeout` passes.
    private func collect<Record: Sendable>(_ stream: AsyncThrowingStream<[Record], Error>, timeout: Duration,
                                           until: @escaping @Sendable ([[Record]]) -> Bool) async throws -> [[Record]] {
        let seen = Seen<Record>()
        let consumer = Task {
            for try await value in stream {
                seen.append(value)
                if until(seen.all) { return }
            }
        }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline && !until(seen.all) {
            try await Task.sleep(for: .milliseconds(10))
        }
        consumer.cancel()
        return seen.all
    }

    func testChangesFromAnotherConnectionArriveWithinASecond() async throws {
        let test = try TestStore()
        let other = try Logbook(path: test.store.path, timeZone: test.store.timeZone)
        let stream = test.store.history.observe(FetchDescriptor<ExerciseDay>(sortBy: [SortDescriptor(\.day)]))
        let writer = Task {
            try await Task.sleep(for: .milliseconds(200))
            try await other.history.addDoneExercise("Squat", at: instant("2026-01-01T10:00:00Z"))
        }
        let started = ContinuousClock.now
        let seen = try await collect(stream, timeout: .seconds(5)) { $0.count == 2 }
        try await writer.value
        XCTAssertEqual(seen.map { $0.map(\.exercises) }, [[], [["Squat"]]])
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(1_200))
    }

    /// A store of SQLite's in-memory or temporary database (an app's preview or test store) has no
    /// file another connection could watch: its own commits move its observations (they never did).
    func testObservationsOfAStoreWithoutAFileSeeItsCommits() async throws {
        for path in [":memory:", ""] {
            let store = try Logbook(path: path, timeZone: TimeZone(identifier: "UTC")!)
            let stream = store.drafts.observe(FetchDescriptor<ReleaseDraft>(sortBy: [SortDescriptor(\.version)]),
                                              options: ObservationOptions(interval: .milliseconds(10)))
            let writer = Task {
                for version in ["1.0", "2.0"] {
                    try await Task.sleep(for: .milliseconds(150))
                    try await store.drafts.save(ReleaseDraft(version: version))
                }
            }
            let seen = try await collect(stream, timeout: .seconds(5)) { $0.last?.count == 2 }
            try await writer.value
            XCTAssertEqual(seen.map { $0.map(\.version) }, [[], ["1.0"], ["1.0", "2.0"]], "path \(path.debugDescription)")

            let watcher = try store.changeWatcher()
            XCTAssertFalse(try watcher.hasChanged())
            try await store.history.addDoneExercise("Row", at: instant("2026-01-01T10:00:00Z"))
            XCTAssertTrue(try watcher.hasChanged(), "path \(path.debugDescription)")
            XCTAssertFalse(try watcher.hasChanged())
        }
    }

    /// A polling interval too long to count in microseconds is clamped instead of trapping (the
    /// interval is turned into a sleep before the first poll; `stop` ends each wait at once, so
    /// nothing sleeps).
    func testAnyPollingIntervalIsWaitedWithoutTrapping() throws {
        let test = try TestStore()
        let watcher = try test.store.changeWatcher()
        for interval in [Duration.seconds(Int64.max / 2), .seconds(Int64.max), .seconds(-Int64.max), .zero] {
            XCTAssertFalse(try watcher.wait(pollingEvery: interval) { true })
        }
    }

    func testCommitsThatLeaveTheResultsAloneYieldNothing() async throws {
        let test = try TestStore()
        try await test.store.drafts.save(ReleaseDraft(version: "1.0"))
        let stream = test.store.drafts.observe(FetchDescriptor<ReleaseDraft>(
            predicate: #Predicate { $0.version == "1.0" }))
        let writer = Task {
            for index in 0..<5 {
                try await test.store.history.addDoneExercise("Row", at: instant("2026-01-0\(index + 1)T10:00:00Z"))
                try await test.store.drafts.save(ReleaseDraft(version: "2.\(index)"))
                try await Task.sleep(for: .milliseconds(60))
            }
        }
        let seen = try await collect(stream, timeout: .milliseconds(900)) { _ in false }
        try await writer.value
        XCTAssertEqual(seen.count, 1, "only the current results: \(seen.map { $0.map(\.version) })")
    }

    func testRapidCommitsYieldABoundedNumberWithTheFinalStateLast() async throws {
        let test = try TestStore()
        let stream = test.store.history.observe(FetchDescriptor<ExerciseDay>())
        let writer = Task.detached {
            for index in 0..<1_000 {
                try test.store.history.addDoneExercise("Burpee", at: instant("2026-03-01T10:00:00Z") + Double(index))
            }
        }
        let seen = try await collect(stream, timeout: .seconds(30)) { $0.last?.first?.exercises.count == 1_000 }
        try await writer.value
        XCTAssertEqual(seen.last?.first?.exercises.count, 1_000)
        XCTAssertLessThan(seen.count, 200, "emissions are coalesced, not one per commit")
    }

    func testCancellingEndsTheSequence() async throws {
        let test = try TestStore()
        let stream = test.store.drafts.observe(FetchDescriptor<ReleaseDraft>())
        let consumer = Task {
            var count = 0
            for try await _ in stream { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(200))
        consumer.cancel()
        let count = try await consumer.value
        XCTAssertEqual(count, 1)
    }

    /// A file deleted under an observation ends it with the store's error, naming the file: the
    /// watcher's connection went on reading the deleted file, so the observation waited in
    /// silence while another file at the path was written; and an observation started once the
    /// file was gone ended with SQLite's own error rather than a `LogbookError` (helper-83).
    func testAFileDeletedUnderAnObservationEndsItWithTheStoresError() async throws {
        let test = try TestStore()
        try await test.store.history.addDoneExercise("Squat", at: instant("2026-01-01T10:00:00Z"))
        let path = test.store.path, timeZone = test.store.timeZone
        let options = ObservationOptions(interval: .milliseconds(20))
        let started = test.store.history.observe(FetchDescriptor<ExerciseDay>(), options: options)
        // Each stream's values until it ends, with its error; one still running after 5 s is cancelled.
        func ending(_ stream: AsyncThrowingStream<[ExerciseDay], Error>, afterFirst: @escaping @Sendable () async throws -> Void)
            async -> (values: [[String]], error: (any Error)?) {
            let consumer = Task {
                var values: [[String]] = []
                do {
                    for try await value in stream {
                        values.append(value.flatMap(\.exercises))
                        if values.count == 1 { try await afterFirst() }
                    }
                    return (values, nil as (any Error)?)
                } catch {
                    return (values, error)
                }
            }
            let watchdog = Task {
                try await Task.sleep(for: .seconds(5))
                consumer.cancel()
            }
            defer { watchdog.cancel() }
            return await consumer.value
        }
        let deleted = await ending(started) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            // Another store makes a new file at the path and writes it.
            let other = try Logbook(path: path, timeZone: timeZone)
            try await other.history.addDoneExercise("Row", at: instant("2026-01-02T10:00:00Z"))
        }
        XCTAssertEqual(deleted.values, [["Squat"]])
        let error = try XCTUnwrap(deleted.error as? LogbookError, "the observation ended with \(String(describing: deleted.error))")
        XCTAssertTrue(error.description.hasPrefix("\(path): the database file was deleted, moved or replaced"), error.description)

        try FileManager.default.removeItem(atPath: path)
        let afterward = await ending(test.store.history.observe(FetchDescriptor<ExerciseDay>(), options: options)) {}
        XCTAssertTrue(afterward.error is LogbookError, "\(String(describing: afterward.error))")
        XCTAssertTrue("\(String(describing: afterward.error))".contains(path), "\(String(describing: afterward.error))")
    }

    func testUntranslatablePredicateFinishesWithTheError() async throws {
        let test = try TestStore()
        let stream = test.store.drafts.observe(FetchDescriptor<ReleaseDraft>(predicate: #Predicate { $0.summary == "" }))
        do {
            for try await _ in stream { XCTFail("no results expected") }
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue("\(error)".contains("not a stored or derived field"), "\(error)")
        }
    }
}
