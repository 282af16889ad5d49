import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
import Logbook

/// The `async` API: work leaves the caller's thread, reads run beside a write in the same process
/// on their own connections, each in a snapshot, and cancellation stops an import, writing nothing.
final class AsyncStoreTests: XCTestCase {
    private static let utc = TimeZone(identifier: "UTC")!

    /// `count` days as NDJSON, one exercise each, from 2001-01-01 on.
    private static func history(days count: Int, from first: Int = 0) -> Data {
        var text = ""
        for index in first..<(first + count) {
            let date = Date(timeIntervalSinceReferenceDate: Double(index) * 86_400 + 3_600)
            text += #"{"id":"\#(UUID().uuidString)","day":"\#(CalendarDay(date, in: utc))","date":"\#(date.iso8601Microseconds)","exercises":["Row"]}"# + "\n"
        }
        return Data(text.utf8)
    }

    /// A store in a scratch folder holding `days` days.
    private func store(days: Int, maximumReaders: Int = 4) throws -> (Logbook, TemporaryFolder) {
        let folder = try TemporaryFolder("logbook-async")
        var options = Connection.Options()
        options.maximumReaders = maximumReaders
        let store = try Logbook(path: folder.file("async.sqlite").path, timeZone: Self.utc, options: options)
        if days > 0 { _ = try store.importRecords(from: Self.history(days: days), named: "seed.ndjson") }
        return (store, folder)
    }

    func testReadsCompleteWhileAnImportHoldsTheWriteTransactionAndSeeASnapshot() throws {
        let (store, folder) = try store(days: 100)
        _ = folder
        let readers = 4
        let importing = DispatchSemaphore(value: 0)
        let aReadFinished = DispatchSemaphore(value: 0)
        let done = Flag()
        let counts = Tally()
        var options = ImportOptions()
        options.progress = { records, _ in
            // Inside the import's transaction: let the readers go, and wait for one of them to finish a read.
            guard records == 5_000 else { return }
            for _ in 0..<readers { importing.signal() }
            counts.readFinishedDuringImport = aReadFinished.wait(timeout: .now() + 20) == .success
        }
        let group = DispatchGroup()
        for _ in 0..<readers {
            DispatchQueue.global().async(group: group) {
                importing.wait()
                while !done.isSet {
                    do {
                        counts.record(try store.history.count())
                    } catch {
                        counts.record(-1)
                    }
                    aReadFinished.signal()
                }
            }
        }
        let summary = try store.importRecords(from: Self.history(days: 20_000, from: 100), named: "more.ndjson", options: options)
        done.set()
        group.wait()
        XCTAssertEqual(summary.inserted, 20_000)
        XCTAssertTrue(counts.readFinishedDuringImport, "no read finished while the import's transaction was open")
        XCTAssertEqual(Set(counts.seen).subtracting([100, 20_100]), [], "a read saw part of the import")
        XCTAssertTrue(counts.seen.contains(100), "the reads during the import saw the snapshot before it")
        XCTAssertLessThanOrEqual(store.underlyingDatabase.openReaderCount, 4)
    }

    func testWithoutReadersReadsWaitForTheWrite() throws {
        let (store, folder) = try store(days: 10, maximumReaders: 0)
        _ = folder
        XCTAssertEqual(try store.history.count(), 10)
        XCTAssertEqual(store.underlyingDatabase.openReaderCount, 0)
    }

    @MainActor
    func testAnAwaitedWriteLeavesTheMainActorFreeWhileItWaitsForTheLock() async throws {
        let (store, folder) = try store(days: 0)
        _ = folder
        // Another connection holds the write lock, as another process would.
        let other = try Connection(path: store.path)
        try other.execute("BEGIN IMMEDIATE")
        let write = Task { @MainActor in try await store.history.addDoneExercise("Squat", at: Date(timeIntervalSinceReferenceDate: 0)) }
        var turns = 0
        for _ in 0..<20 {
            try await Task.sleep(for: .milliseconds(10))
            turns += 1  // the main actor runs while the write waits
        }
        try other.execute("COMMIT")
        _ = try await write.value
        XCTAssertEqual(turns, 20)
        let count = try await store.history.count()
        XCTAssertEqual(count, 1)
    }

    func testCancellingAnImportStopsItAndWritesNothing() async throws {
        let (store, folder) = try store(days: 50)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let started = DispatchSemaphore(value: 0)
        var options = ImportOptions()
        options.progress = { records, _ in if records == 5_000 { started.signal() } }
        let data = Self.history(days: 200_000, from: 50)
        let task = Task { try await store.importRecords(from: data, named: "huge.ndjson", options: options) }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait()
                continuation.resume()
            }
        }
        task.cancel()
        do {
            let summary = try await task.value
            XCTFail("the import finished: \(summary)")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        let count = try await store.history.count()
        XCTAssertEqual(count, 50)
        // The import's own page cache is given back to the writer after the rollback.
        XCTAssertEqual(try store.underlyingDatabase.withConnection { try $0.scalar("PRAGMA cache_size", as: Int.self) }, -2_048)
        let report = try await store.check()
        XCTAssertTrue(report.isHealthy)
        _ = folder
        _ = before
    }

    func testExportToDataAndImportFromDataRoundTrip() async throws {
        let (store, folder) = try store(days: 300)
        let ndjson = try await store.exportHistory(format: .ndjson)
        let copy = try Logbook(path: folder.file("copy.sqlite").path, timeZone: Self.utc)
        let summary = try await copy.importRecords(from: ndjson, named: "history.ndjson")
        XCTAssertEqual(summary.inserted, 300)
        XCTAssertEqual(try copy.underlyingDatabase.withConnection { try $0.scalar("PRAGMA cache_size", as: Int.self) }, -2_048)
        let again = try await copy.exportHistory(format: .ndjson)
        XCTAssertEqual(again, ndjson)
        let url = folder.file("history.csv")
        try await store.exportHistory(format: .csv, to: url)
        let third = try Logbook(path: folder.file("third.sqlite").path, timeZone: Self.utc)
        _ = try await third.importRecords(from: url)
        let fromFile = try await third.exportHistory(format: .csv)
        XCTAssertEqual(fromFile, try Data(contentsOf: url))
        let handleURL = folder.file("handle.ndjson")
        FileManager.default.createFile(atPath: handleURL.path, contents: Data("kept\n".utf8))
        let handle = try FileHandle(forWritingTo: handleURL)
        try handle.seekToEnd()
        try store.exportHistory(format: .ndjson, to: handle)
        try handle.close()
        XCTAssertEqual(try Data(contentsOf: handleURL), Data("kept\n".utf8) + ndjson)
    }

    func testReportRowsAreIdentifiableCodableArraysWithTheirFirstDay() async throws {
        let (store, folder) = try store(days: 400)
        _ = folder
        let weeks = try await store.reports.history(by: .week)
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = Self.utc
        for row in weeks {
            let start = row.start.start(in: Self.utc)
            XCTAssertEqual(iso.component(.weekday, from: start), 2, "\(row.period) starts on a Monday")
            let week = iso.component(.weekOfYear, from: start), year = iso.component(.yearForWeekOfYear, from: start)
            XCTAssertEqual(String(format: "%04d-W%02d", year, week), row.period)
        }
        XCTAssertEqual(Set(weeks.map(\.id)).count, weeks.count)
        let months = try await store.reports.history(by: .month)
        XCTAssertEqual(months.first?.start, CalendarDay("2001-01-01"))
        let decoded = try JSONDecoder().decode([HistoryReportRow].self, from: try JSONEncoder().encode(months))
        XCTAssertEqual(decoded, months)
        let exercises = try await store.reports.exercises()
        XCTAssertEqual(exercises.map(\.id), ["Row"])
        let years = try await store.reports.history(by: .year)
        XCTAssertEqual(years.map(\.start), [CalendarDay("2001-01-01"), CalendarDay("2002-01-01")])
    }
}

/// A flag set once, read from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}

/// What the readers saw.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int] = []
    private var finished = false
    func record(_ count: Int) { lock.lock(); counts.append(count); lock.unlock() }
    var seen: [Int] { lock.lock(); defer { lock.unlock() }; return counts }
    var readFinishedDuringImport: Bool {
        get { lock.lock(); defer { lock.unlock() }; return finished }
        set { lock.lock(); finished = newValue; lock.unlock() }
    }
}
