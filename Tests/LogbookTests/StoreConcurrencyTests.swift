import Foundation
import XCTest
import Logbook

/// A `Logbook` is `Sendable`: one store shared by many tasks serializes their calls, and two
/// stores on one file (two connections) wait for each other's writes instead of failing.
final class StoreConcurrencyTests: XCTestCase {
    private let writers = 4
    /// `.ci/stress` sets LOGBOOK_CONCURRENCY_WRITES to run more.
    private let writesPerWriter = ProcessInfo.processInfo.environment["LOGBOOK_CONCURRENCY_WRITES"].flatMap { Int($0) } ?? 25
    private let readers = 4

    private static let utc = TimeZone(identifier: "UTC")!

    /// Day record `index`, at noon UTC of day `index` after 2020-01-01.
    private static func day(_ index: Int) -> ExerciseDay {
        let date = Date(timeIntervalSinceReferenceDate: 599_529_600 + 43_200 + Double(index) * 86_400)
        return ExerciseDay(date: date, day: CalendarDay(date, in: utc), exercises: ["Day \(index)"])
    }

    /// Writer `writer`'s work: each history write stores two days in one transaction, then appends
    /// to one of them; each draft is saved with its three checklist items in one transaction.
    private static func write(_ stores: [Logbook], writer: Int, count: Int) async throws {
        for n in 0..<count {
            let store = stores[n % stores.count]
            let index = (writer * count + n) * 2
            try await store.history.save([day(index), day(index + 1)])
            try await store.history.addDoneExercise("Extra", at: day(index).date + 60)
            _ = try await store.drafts.save(ReleaseDraft(version: "\(writer).\(n)",
                                                   checklist: (1...3).map { ChecklistItem(title: "Step \($0)") }))
            await Task.yield()
        }
    }

    /// What a reader can see: never an odd number of days, a draft without all its items, or fewer
    /// records than an earlier read. Returns the problems found.
    private static func read(_ store: Logbook, times: Int) async throws -> [String] {
        var problems: [String] = []
        var lastDays = 0
        let incomplete = FetchDescriptor<ReleaseDraft>(predicate: #Predicate { $0.checklist.count != 3 })
        for _ in 0..<times {
            let days = try await store.history.fetchCount()
            if days % 2 != 0 { problems.append("saw \(days) days, half of a two-day write") }
            if days < lastDays { problems.append("saw \(days) days after \(lastDays)") }
            lastDays = days
            let partial = try await store.drafts.fetchCount(incomplete)
            if partial != 0 { problems.append("saw \(partial) drafts without all their items") }
            var activeDays = 0
            try store.reports.history(by: .year) { activeDays += $0.activeDays }
            if activeDays % 2 != 0 { problems.append("a report saw \(activeDays) active days") }
            let listed = try await store.history.fetch(FetchDescriptor(sortBy: [SortDescriptor(\.day, order: .reverse)]))
            if listed.count % 2 != 0 { problems.append("a fetch saw \(listed.count) days") }
            await Task.yield()
        }
        return problems
    }

    private func assertAllLanded(_ store: Logbook, file: StaticString = #filePath, line: UInt = #line) throws {
        let total = writers * writesPerWriter
        XCTAssertEqual(try store.history.fetchCount(), 2 * total, file: file, line: line)
        XCTAssertEqual(try store.drafts.fetchCount(), total, file: file, line: line)
        let days = try store.history.fetchAll()
        for (position, record) in days.enumerated() {
            XCTAssertEqual(record.exercises, ["Day \(position)"] + (position % 2 == 0 ? ["Extra"] : []), file: file, line: line)
        }
    }

    func testOneStoreSharedByWriterAndReaderTasks() async throws {
        let test = try TestStore()
        let store = test.store
        let (writers, writesPerWriter, readers) = (self.writers, self.writesPerWriter, self.readers)
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    try await Self.write([store], writer: writer, count: writesPerWriter)
                    return []
                }
            }
            for _ in 0..<readers {
                group.addTask { try await Self.read(store, times: 2 * writesPerWriter) }
            }
            return try await group.reduce([], +)
        }
        XCTAssertEqual(problems, [])
        try assertAllLanded(store)
    }

    func testTwoStoresOnOneFileWaitForEachOther() async throws {
        let test = try TestStore()
        let other = try Logbook(path: test.store.path, timeZone: Self.utc)
        let stores = [test.store, other]
        let (writers, writesPerWriter, readers) = (self.writers, self.writesPerWriter, self.readers)
        let problems = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    // Alternates between the stores, so consecutive writes contend across connections.
                    try await Self.write(writer % 2 == 0 ? stores : stores.reversed(), writer: writer, count: writesPerWriter)
                    return []
                }
            }
            for reader in 0..<readers {
                group.addTask { try await Self.read(stores[reader % 2], times: 2 * writesPerWriter) }
            }
            return try await group.reduce([], +)
        }
        XCTAssertEqual(problems, [])
        try assertAllLanded(other)
        let report = try await test.store.check()
        XCTAssertEqual(report.isHealthy, true)
    }

    func testBackupsBesideWritingTasksAreConsistentCopies() async throws {
        let test = try TestStore()
        let (store, folder) = (test.store, test.folder)
        let (writers, writesPerWriter) = (self.writers, self.writesPerWriter)
        let copies = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    try await Self.write([store], writer: writer, count: writesPerWriter)
                    return []
                }
            }
            group.addTask {
                var paths: [String] = []
                for index in 0..<5 {
                    let path = folder.appendingPathComponent("copy-\(index).sqlite").path
                    let summary = try await store.backup(to: path)
                    XCTAssertGreaterThan(summary.bytes, 0)
                    paths.append(path)
                    await Task.yield()
                }
                return paths
            }
            return try await group.reduce([], +)
        }
        XCTAssertEqual(copies.count, 5)
        for path in copies {
            let copy = try await Logbook.inspect(path: path, timeZone: Self.utc)
            let report = try await copy.check()
            XCTAssertTrue(report.isHealthy, path)
            let days = try await copy.history.fetchCount()
            XCTAssertEqual(days % 2, 0, "\(path) holds half of a two-day write")
        }
        try assertAllLanded(store)
    }
}
