#if canImport(CDispatch)
import CDispatch
#endif
import Foundation
import XCTest
@testable import SQLiteQuery

/// The label of the queue running the caller.
private func currentQueueLabel() -> String {
    #if canImport(CDispatch)
    String(cString: dispatch_queue_get_label(nil))
    #else
    String(cString: __dispatch_queue_get_label(nil))
    #endif
}

/// `Database` serializes reads and writes from any number of tasks over its one connection.
final class DatabaseTests: XCTestCase {
    private func makeDatabase(maximumReaders: Int = Connection.Options().maximumReaders) throws -> Database {
        var options = Connection.Options()
        options.maximumReaders = maximumReaders
        let migration = Migration(version: 1, name: "create_events", sql: """
            CREATE TABLE events (id INTEGER PRIMARY KEY, task INTEGER NOT NULL, n INTEGER NOT NULL,
                                 UNIQUE (task, n));
            """)
        return try Database(path: try makeDatabasePath(), options: options, migrator: try Migrator(migrations: [migration]))
    }

    func testConcurrentWritesFromManyTasksAllLand() async throws {
        let database = try makeDatabase()
        let tasks = 8
        let insertsPerTask = 100
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for n in 0..<insertsPerTask {
                        try database.write { connection in
                            try connection.run("INSERT INTO events (task, n) VALUES (?, ?)",
                                               [.integer(Int64(task)), .integer(Int64(n))])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let total = try await database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }
        XCTAssertEqual(total, tasks * insertsPerTask)
        let perTask = try await database.read {
            try $0.column("SELECT count(*) FROM events GROUP BY task ORDER BY task", as: Int.self)
        }
        XCTAssertEqual(perTask, Array(repeating: insertsPerTask, count: tasks))
    }

    /// `perform` hands work to one of the database's own queues, never the caller's thread, and
    /// to the one whose quality of service is the calling task's priority (a hand-off across
    /// classes wakes a thread of the other class: tens of microseconds per call).
    func testPerformRunsOnTheDatabasesQueueAtTheCallersPriority() async throws {
        let database = try makeDatabase()
        // Task priorities are QoS classes; a platform may run a task above what it asked for
        // (Linux runs .low as .medium), so the queue is checked against the priority it reports.
        let queueByPriority: [UInt8: String] = [TaskPriority.background.rawValue: "background", TaskPriority.utility.rawValue: "utility",
                                                TaskPriority.medium.rawValue: "default", TaskPriority.userInitiated.rawValue: "userInitiated"]
        for requested in [TaskPriority.background, .utility, .low, .medium, .userInitiated, .high] {
            // The result comes back through a continuation, not the task's `value`: awaiting
            // `value` from this test's higher-priority task would escalate the task, sometimes
            // between its reading its priority and `perform` reading it.
            let (priority, label) = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<(TaskPriority, String), Error>) in
                Task.detached(priority: requested) {
                    let priority = Task.currentPriority
                    do {
                        continuation.resume(returning: (priority, try await database.perform { currentQueueLabel() }))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
            XCTAssertEqual(label, "org.logbook.SQLiteQuery.Database." + (queueByPriority[priority.rawValue] ?? "?"),
                           "a task asking for \(requested), running at \(priority)")
        }
    }

    /// An `async` read never runs on the main actor; from a task off any actor, with a read
    /// connection free, it runs in place, on the task's own thread, with no hand-off.
    @MainActor
    func testAnAsyncReadLeavesTheMainActorAndRunsInPlaceOffAnyActor() async throws {
        let database = try makeDatabase()
        let onMainThread = try await database.read { _ in Thread.isMainThread }
        XCTAssertFalse(onMainThread)
        let (caller, reader) = try await Task.detached {
            let caller = currentThreadID()
            return (caller, try await database.read { _ in currentThreadID() })
        }.value
        XCTAssertEqual(caller, reader, "the read was handed to another thread")
        // Without read connections a read may wait behind a write: it goes to the database's queue.
        let shared = try makeDatabase(maximumReaders: 0)
        let label = try await Task.detached { try await shared.read { _ in currentQueueLabel() } }.value
        XCTAssertTrue(label.hasPrefix("org.logbook.SQLiteQuery.Database."), label)
    }

    /// An `async` read that waits for a read connection suspends, holding no thread: other tasks
    /// go on meanwhile, however many reads wait. (A thread blocked in Dispatch is one fewer for
    /// tasks: on Linux Dispatch's queues and Swift's tasks share one pool, which grows by about
    /// a thread a second.)
    func testReadsWaitingForAConnectionHoldNoThread() async throws {
        let database = try makeDatabase(maximumReaders: 1)
        let release = await holdingTheOnlyReader(of: database)
        // More reads than the runtime has threads, each waiting for the one connection.
        let reads = (0..<ProcessInfo.processInfo.activeProcessorCount * 4).map { _ in
            Task.detached { try await database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) } }
        }
        let ranWhileReadsWaited = await aNewTaskRunsAtOnce()
        release.signal()
        XCTAssertTrue(ranWhileReadsWaited, "reads waiting for a connection held the threads tasks run on")
        for read in reads {
            let count = try await read.value
            XCTAssertEqual(count, 0)
        }
        XCTAssertEqual(database.openReaderCount, 1)
    }

    /// `async` writes waiting for the file's lock (held here by another connection, as another
    /// process would) take turns: one waits on a thread, the rest suspended, so other tasks go on.
    func testAsyncWritesWaitingForTheLockHoldOneThread() async throws {
        let database = try makeDatabase()
        let other = try Connection(path: database.path)
        try other.execute("BEGIN IMMEDIATE")
        let writes = (0..<ProcessInfo.processInfo.activeProcessorCount * 4).map { index in
            Task.detached {
                try await database.write { try $0.run("INSERT INTO events (task, n) VALUES (?, 0)", [.integer(Int64(index))]) }
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        let ranWhileWritesWaited = await aNewTaskRunsAtOnce()
        try other.execute("COMMIT")
        XCTAssertTrue(ranWhileWritesWaited, "writes waiting for the lock held the threads tasks run on")
        for write in writes { try await write.value }
        let count = try await database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }
        XCTAssertEqual(count, writes.count)
    }

    /// Cancelling a task that waits for a read connection, or for its write's turn, ends the wait
    /// at once with `CancellationError`; the write never happens.
    /// A read woken when a connection is given back, then cancelled before it runs again, passes
    /// the connection on to the next waiting read: that read slept beside the idle connection
    /// until some other read gave one back, in a quiet app never (helper-83). The woken read runs
    /// on an executor of the test's, held still until the cancellation is in.
    func testAWokenReadThatIsCancelledPassesTheConnectionOn() async throws {
        let database = try makeDatabase(maximumReaders: 1)
        let release = await holdingTheOnlyReader(of: database)
        let held = HeldExecutor()
        let woken = Task.detached(executorPreference: held) {
            try await database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }
        }
        try await Task.sleep(for: .milliseconds(100))
        let next = Task.detached { try await database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) } }
        try await Task.sleep(for: .milliseconds(100))
        held.hold()
        // The connection given back wakes the first read, whose next step waits on the held executor.
        release.signal()
        try await Task.sleep(for: .milliseconds(100))
        woken.cancel()
        held.letGo()
        await assertCancelled(woken, "the cancelled read ran")
        // A read that still waits after 10 s is stopped, so the test fails instead of hanging.
        let watchdog = Task.detached {
            try await Task.sleep(for: .seconds(10))
            next.cancel()
        }
        let count = await next.result
        watchdog.cancel()
        XCTAssertEqual(try count.get(), 0, "the next read got the connection")
    }

    func testCancellingAWaitingReadOrWriteEndsItsWait() async throws {
        let database = try makeDatabase(maximumReaders: 1)
        let release = await holdingTheOnlyReader(of: database)
        let read = Task.detached { try await database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) } }
        try await Task.sleep(for: .milliseconds(50))
        read.cancel()
        await assertCancelled(read, "the read waited and ran")
        release.signal()

        let other = try Connection(path: database.path)
        try other.execute("BEGIN IMMEDIATE")
        let first = Task.detached { try await database.write { try $0.run("INSERT INTO events (task, n) VALUES (1, 1)") } }
        try await Task.sleep(for: .milliseconds(50))
        let second = Task.detached { try await database.write { try $0.run("INSERT INTO events (task, n) VALUES (2, 2)") } }
        try await Task.sleep(for: .milliseconds(50))
        second.cancel()
        await assertCancelled(second, "the cancelled write ran")
        try other.execute("COMMIT")
        try await first.value
        let tasks = try await database.read { try $0.column("SELECT task FROM events ORDER BY task", as: Int.self) }
        XCTAssertEqual(tasks, [1])
    }

    func testConcurrentReadersAndWritersSeeConsistentSnapshots() async throws {
        let database = try makeDatabase()
        // Each write inserts a pair of rows; a read inside one transaction must never see half a pair.
        let pairsPerWriter = 50
        let oddCounts = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for n in 0..<pairsPerWriter {
                        try database.write { connection in
                            try connection.run("INSERT INTO events (task, n) VALUES (?, ?)",
                                               [.integer(Int64(writer)), .integer(Int64(2 * n))])
                            try connection.run("INSERT INTO events (task, n) VALUES (?, ?)",
                                               [.integer(Int64(writer)), .integer(Int64(2 * n + 1))])
                        }
                    }
                    return 0
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    var odd = 0
                    for _ in 0..<50 {
                        let count = try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) } ?? 0
                        if count % 2 != 0 { odd += 1 }
                    }
                    return odd
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(oddCounts, 0, "a reader saw half of a write")
        let total = try await database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }
        XCTAssertEqual(total, 4 * pairsPerWriter * 2)
    }

    func testCancellingTheTaskInterruptsARunningStatement() async throws {
        let database = try makeDatabase()
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        let read = Task { try await database.read { try $0.scalar(endless, as: Int.self) } }
        try await Task.sleep(for: .milliseconds(100))
        read.cancel()
        await assertCancelled(read, "the statement ran to its end")
        // The reader is sound afterwards, and so is a cancelled write: it rolled back.
        let write = Task {
            try await database.write { connection in
                try connection.run("INSERT INTO events (task, n) VALUES (1, 1)")
                _ = try connection.scalar(endless, as: Int.self)
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        write.cancel()
        _ = try? await write.value
        let count = try await database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }
        XCTAssertEqual(count, 0)
    }

    func testAReadInsideAWriteSeesItsChangesAndOtherReadsDoNot() throws {
        let database = try makeDatabase()
        let counts = try database.write { connection -> (inside: Int?, beside: Int?) in
            try connection.run("INSERT INTO events (task, n) VALUES (1, 1)")
            let inside = try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }
            // Another thread reads on a read connection of its own: the snapshot before the write.
            // (`DispatchQueue.sync` would run on this very thread.)
            let beside = OtherThreadResult<Int?>()
            DispatchQueue.global().async {
                beside.set(try? database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) })
            }
            return (inside, beside.wait() ?? nil)
        }
        XCTAssertEqual(counts.inside, 1)
        XCTAssertEqual(counts.beside, 0)
        XCTAssertGreaterThan(database.openReaderCount, 0)
    }

    func testWriteRollsBackWhenTheBodyThrows() throws {
        let database = try makeDatabase()
        XCTAssertThrowsError(try database.write { connection in
            try connection.run("INSERT INTO events (task, n) VALUES (1, 1)")
            try connection.run("INSERT INTO events (task, n) VALUES (1, 1)")  // violates UNIQUE
        })
        XCTAssertEqual(try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }, 0)
        // The connection is usable again afterwards, outside any transaction.
        try database.write { try $0.run("INSERT INTO events (task, n) VALUES (1, 1)") }
        XCTAssertEqual(try database.withConnection { $0.isAutocommit }, true)
        XCTAssertEqual(try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }, 1)
    }

    func testWriteReturnsTheBodysResult() throws {
        let database = try makeDatabase()
        let rowID = try database.write { connection -> Int64 in
            try connection.run("INSERT INTO events (task, n) VALUES (3, 4)")
            return connection.lastInsertRowID
        }
        XCTAssertEqual(try database.read { try $0.scalar("SELECT task FROM events WHERE id = ?", [.integer(rowID)],
                                                         as: Int.self) }, 3)
    }

    func testReadRunsInsideATransaction() throws {
        let database = try makeDatabase()
        XCTAssertEqual(try database.read { $0.isAutocommit }, false)
        XCTAssertEqual(try database.withConnection { $0.isAutocommit }, true)
    }

    func testAnotherDatabaseOnTheSameFileSeesCommittedWrites() throws {
        let first = try makeDatabase()
        let second = try Database(path: first.path, migrator: first.migrator)
        try first.write { try $0.run("INSERT INTO events (task, n) VALUES (9, 9)") }
        XCTAssertEqual(try second.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) }, 1)
    }
}

/// Holds `database`'s one read connection in a read on another thread until the returned
/// semaphore is signalled.
private func holdingTheOnlyReader(of database: Database) async -> DispatchSemaphore {
    let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { _ = try? database.read { _ in held.signal(); release.wait() } }
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { held.wait(); continuation.resume() }
    }
    return release
}

/// A task executor whose jobs wait while it is held: a serial queue, suspended meanwhile.
private final class HeldExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "held executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    func hold() { queue.suspend() }
    func letGo() { queue.resume() }
}

/// Fails unless `task` ends with `CancellationError`.
private func assertCancelled<Success>(_ task: Task<Success, Error>, _ message: String,
                                      file: StaticString = #filePath, line: UInt = #line) async {
    do {
        let value = try await task.value
        XCTFail("\(message): \(value)", file: file, line: line)
    } catch {
        XCTAssertTrue(error is CancellationError, "\(error)", file: file, line: line)
    }
}

/// Whether a task started now runs within 3 s: a watchdog off Swift's threads waits for it, so
/// that blocked threads make a test fail, not hang (they would hold it up for seconds: the pool
/// adds about one thread a second).
private func aNewTaskRunsAtOnce() async -> Bool {
    let ran = Flag()
    Task.detached { ran.set() }
    return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            let deadline = Date() + 3
            while !ran.isSet && Date() < deadline { usleep(1_000) }
            continuation.resume(returning: ran.isSet)
        }
    }
}

/// The calling thread, as a number to compare.
private func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// A flag set once, read from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}

/// A value computed on another thread, waited for.
private final class OtherThreadResult<Value>: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var value: Value?
    func set(_ newValue: Value) { value = newValue; ready.signal() }
    func wait() -> Value? { ready.wait(); return value }
}
