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

    /// N readers, each an `async` task, every one of which finishes reads while the import's
    /// transaction is open; each read is several statements in one read transaction, and all of them
    /// see the same snapshot: the commit before the import, or the import whole.
    func testEveryReaderProgressesWhileAnImportRunsAndEachSeesOneSnapshot() async throws {
        let (store, folder) = try store(days: 100)
        _ = folder
        let readers = 4
        let seen = Tally()
        let done = Flag()
        let readsDuringImport = (0..<readers).map { _ in DispatchSemaphore(value: 0) }
        let importing = Flag()
        let everyReaderProgressed = Flag()
        var options = ImportOptions()
        options.progress = { records, _ in
            // Inside the import's transaction: open the gate, then wait until every reader has
            // finished a read that began after it opened.
            guard records == 5_000 else { return }
            importing.set()
            if readsDuringImport.allSatisfy({ $0.wait(timeout: .now() + 30) == .success }) { everyReaderProgressed.set() }
        }
        let tasks = (0..<readers).map { reader in
            Task.detached {
                var signalled = false
                while !done.isSet {
                    let began = importing.isSet
                    // Three reads in one transaction: the days, their exercises, and the days again after a pause.
                    let (days, exercises, daysAgain) = try await store.underlyingDatabase.read { connection in
                        let days = try connection.scalar("SELECT count(*) FROM exercise_days", as: Int.self) ?? -1
                        let exercises = try connection.scalar("SELECT count(*) FROM exercises", as: Int.self) ?? -1
                        usleep(2_000)
                        return (days, exercises, try connection.scalar("SELECT count(*) FROM exercise_days", as: Int.self) ?? -1)
                    }
                    let records = try await store.history.fetchAll()
                    seen.record(days)
                    seen.record(records.count)
                    if days != exercises || days != daysAgain || records.contains(where: { $0.exercises != ["Row"] }) {
                        seen.record(-days)
                    }
                    if began && !signalled {
                        signalled = true
                        readsDuringImport[reader].signal()
                    }
                    await Task.yield()
                }
            }
        }
        let summary = try await store.importRecords(from: Self.history(days: 20_000, from: 100), named: "more.ndjson", options: options)
        done.set()
        for task in tasks { try await task.value }
        XCTAssertEqual(summary.inserted, 20_000)
        XCTAssertTrue(everyReaderProgressed.isSet, "a reader finished no read while the import's transaction was open")
        XCTAssertEqual(Set(seen.seen).subtracting([100, 20_100]), [], "a read saw part of the import, or two snapshots")
        XCTAssertTrue(seen.seen.contains(100), "the reads during the import saw the snapshot before it")
        XCTAssertLessThanOrEqual(store.underlyingDatabase.openReaderCount, 4)
    }

    /// Without read connections, a read waits for the write in the process and then sees it.
    func testWithoutReadersAReadWaitsForTheWriteAndSeesIt() throws {
        let (store, folder) = try store(days: 10, maximumReaders: 0)
        _ = folder
        let readFinished = DispatchSemaphore(value: 0)
        let counted = Tally()
        let readFinishedInside = Flag()
        var options = ImportOptions()
        options.progress = { records, _ in
            guard records == 5_000 else { return }  // inside the transaction (progress comes every 5,000 records)
            DispatchQueue.global().async {
                counted.record((try? store.history.count()) ?? -1)
                readFinished.signal()
            }
            // The read cannot finish while this transaction holds the only connection.
            if readFinished.wait(timeout: .now() + 0.5) == .success { readFinishedInside.set() }
        }
        _ = try store.importRecords(from: Self.history(days: 10_000, from: 10), named: "more.ndjson", options: options)
        if !readFinishedInside.isSet { XCTAssertEqual(readFinished.wait(timeout: .now() + 30), .success) }
        XCTAssertFalse(readFinishedInside.isSet, "a read finished on the writer's connection during its transaction")
        XCTAssertEqual(counted.seen, [10_010])
        XCTAssertEqual(store.underlyingDatabase.openReaderCount, 0)
    }

    @MainActor
    func testAnAwaitedWriteLeavesTheMainActorFreeWhileItWaitsForTheLock() async throws {
        let (store, folder) = try store(days: 0)
        _ = folder
        // Another connection holds the write lock, as another process would.
        let other = try Connection(path: store.path)
        try other.execute("BEGIN IMMEDIATE")
        let written = Flag()
        let write = Task { @MainActor in
            let day = try await store.history.addDoneExercise("Squat", at: Date(timeIntervalSinceReferenceDate: 0))
            written.set()
            return day
        }
        // The main actor runs these turns while the write waits for the lock: were the write
        // waiting on the main thread, they could not run until it gave up (SQLITE_BUSY after 5 s).
        for _ in 0..<20 { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertFalse(written.isSet, "the write finished while another connection held the lock")
        try other.execute("COMMIT")
        _ = try await write.value
        XCTAssertTrue(written.isSet)
        let count = try await store.history.count()
        XCTAssertEqual(count, 1)
    }

    func testCancellingAnImportStopsItAndWritesNothing() async throws {
        let (store, folder) = try store(days: 50)
        let before = try await store.exportHistory(format: .ndjson)
        let started = DispatchSemaphore(value: 0)
        var options = ImportOptions()
        options.progress = { records, _ in if records == 5_000 { started.signal() } }
        let data = Self.history(days: 200_000, from: 50)
        let task = Task { try await store.importRecords(from: data, named: "huge.ndjson", options: options) }
        await Self.waitOffTheCooperativePool(for: started)
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
        let after = try await store.exportHistory(format: .ndjson)
        XCTAssertEqual(after, before, "the cancelled import changed the history")
        _ = folder
    }

    /// A string past the 64 MiB a text may hold is refused by the parser also when the whole file is
    /// in memory and the string is one run of plain bytes, in a member no record reads; nothing is written.
    func testAnOverlongStringInDataIsRefused() async throws {
        let (store, folder) = try store(days: 3)
        _ = folder
        let before = try await store.exportHistory(format: .ndjson)
        var json = Data(#"[{"version":"1","whatsNew":"","checklist":[],"note":""#.utf8)
        json.append(Data(repeating: UInt8(ascii: "x"), count: (64 << 20) + 1))
        json.append(Data(#""}]"#.utf8))
        do {
            let summary = try await store.importRecords(from: json, named: "huge.json")
            XCTFail("imported \(summary)")
        } catch {
            XCTAssertTrue("\(error)".contains("string longer than 64 MiB"), "\(error)")
        }
        let after = try await store.exportHistory(format: .ndjson)
        XCTAssertEqual(after, before)
    }

    /// A walk over the records (`forEach`) stops between two records once its task is cancelled.
    func testCancellingAWalkOverTheRecordsStopsIt() async throws {
        let (store, folder) = try store(days: 300)
        _ = folder
        let first = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
        let walked = Tally()
        let task = Task {
            try await store.history.forEach(RecordQuery()) { day in
                walked.record(day.exercises.count)
                if walked.seen.count == 1 {
                    first.signal()
                    go.wait()
                }
            }
        }
        await Self.waitOffTheCooperativePool(for: first)
        task.cancel()
        go.signal()
        do {
            try await task.value
            XCTFail("the walk went on to the end after its task was cancelled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(walked.seen.count, 1)
    }

    /// A walk over what a `FetchDescriptor` selects hands over the records its fetch returns, in order.
    func testAWalkOverADescriptorsRecordsGivesWhatItsFetchGives() async throws {
        let (store, folder) = try store(days: 300)
        _ = folder
        let cut = Date(timeIntervalSinceReferenceDate: 100 * 86_400)
        let descriptor = FetchDescriptor<ExerciseDay>(predicate: #Predicate { $0.date > cut },
                                                      sortBy: [SortDescriptor(\.date, order: .reverse)])
        let walked = Tally()
        try await store.history.forEach(descriptor) { walked.record(Int($0.date.timeIntervalSinceReferenceDate)) }
        let fetched = try await store.history.fetch(descriptor)
        XCTAssertEqual(fetched.count, 200)
        XCTAssertEqual(walked.seen, fetched.map { Int($0.date.timeIntervalSinceReferenceDate) })
    }

    /// An export to a `FileHandle` (a pipe here) stops once its task is cancelled, between two records.
    func testCancellingAnExportStopsIt() async throws {
        let (store, folder) = try store(days: 3_000)
        _ = folder
        let pipe = Pipe()
        let task = Task { try await store.exportHistory(format: .ndjson, to: pipe.fileHandleForWriting) }
        // The first bytes arrive: the export runs, and then blocks on the full pipe.
        let firstBytes = try await Self.offTheCooperativePool { pipe.fileHandleForReading.availableData }
        XCTAssertFalse(firstBytes.isEmpty)
        task.cancel()
        let draining = Task.detached { while !pipe.fileHandleForReading.availableData.isEmpty {} }
        do {
            try await task.value
            XCTFail("the export ran to the end after its task was cancelled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        try pipe.fileHandleForWriting.close()
        await draining.value
    }

    /// Waits for `semaphore` on a thread of its own, so the cooperative pool's threads stay free.
    private static func waitOffTheCooperativePool(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                semaphore.wait()
                continuation.resume()
            }
        }
    }

    /// Runs blocking `work` on a thread of its own.
    private static func offTheCooperativePool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Swift.Result { try work() }) }
        }
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
        try await store.exportHistory(format: .ndjson, to: handle)
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
        // The CLI's JSON prints the label only: the first day comes from it, and a label naming none is refused.
        let labelOnly = #"{"period":"2026-W01","activeDays":1,"exercises":2,"distinctExercises":2,"topExercise":"Row"}"#
        XCTAssertEqual(try JSONDecoder().decode(HistoryReportRow.self, from: Data(labelOnly.utf8)).start, CalendarDay("2025-12-29"))
        XCTAssertThrowsError(try JSONDecoder().decode(HistoryReportRow.self, from: Data(labelOnly.replacingOccurrences(of: "2026-W01", with: "2026-W99").utf8)))
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
