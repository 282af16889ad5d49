import Foundation
import CSQLite
import XCTest
@testable import SQLiteQuery

/// Opening files and folders, the per-connection settings, WAL.
final class ConnectionTests: XCTestCase {
    /// The step count grows with a plan's work, the same on every run: a scan of 1,000 rows
    /// against a join of them with themselves.
    func testCountingVirtualMachineStepsMeasuresAPlansWork() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x INTEGER); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO t SELECT i FROM n")
        let scan = try connection.countingVirtualMachineSteps { try connection.scalar("SELECT sum(x) FROM t", as: Int.self) }
        let join = try connection.countingVirtualMachineSteps { try connection.scalar("SELECT count(*) FROM t AS a, t AS b WHERE a.x < b.x", as: Int.self) }
        XCTAssertEqual(scan.result, 500_500)
        XCTAssertEqual(join.result, 499_500)
        XCTAssertGreaterThan(scan.steps, 1_000)
        XCTAssertGreaterThan(join.steps, 100 * scan.steps)
        let again = try connection.countingVirtualMachineSteps { try connection.scalar("SELECT sum(x) FROM t", as: Int.self) }
        XCTAssertEqual(again.steps, scan.steps)
    }

    /// A plan that sorts in a temporary B-tree, for the whole `ORDER BY` or its right part, is told
    /// from one an index delivers in order (the cursor streams child rows beside the parents only then).
    func testPlanSortsRowsTellsASortFromAnIndexWalk() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (a, b, c); CREATE INDEX t_by_a ON t (a); CREATE INDEX t_by_bc ON t (b, c)")
        XCTAssertFalse(try connection.planSortsRows("SELECT * FROM t ORDER BY a"))
        XCTAssertFalse(try connection.planSortsRows("SELECT * FROM t ORDER BY b, c"))
        XCTAssertFalse(try connection.planSortsRows("SELECT * FROM t WHERE a = ? ORDER BY a"))
        XCTAssertTrue(try connection.planSortsRows("SELECT * FROM t ORDER BY c"))
        XCTAssertTrue(try connection.planSortsRows("SELECT * FROM t ORDER BY a, c"), "sorted after the index's a")
        XCTAssertTrue(try connection.planSortsRows("SELECT * FROM t ORDER BY b, a"), "sorted after the index's b")
    }

    /// Once SQLite runs in a process, its memory statistics stay as they are: a library's call
    /// cannot take them (and the heap limit `OutOfMemoryTextTests` relies on) from the program.
    func testMemoryCountingCannotStopOnceSQLiteRuns() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x)")
        XCTAssertFalse(ProcessSettings.stopCountingMemory())
        XCTAssertGreaterThan(sqlite3_memory_used(), 0)
    }

    func testOpensInAFolderThatDoesNotExistYet() throws {
        let folder = try makeTemporaryDirectory().appendingPathComponent("a/b/c", isDirectory: true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
        let path = folder.appendingPathComponent("new.sqlite").path
        let connection = try Connection(path: path)
        try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory))
        XCTAssertTrue(isDirectory.boolValue)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(connection.path, path)
        XCTAssertEqual(try Connection(path: path).scalar("SELECT x FROM t", as: Int.self), 1)
    }

    func testCreateIfMissingFalseFailsWithoutCreatingAnything() throws {
        let folder = try makeTemporaryDirectory()
        let missingFolder = folder.appendingPathComponent("missing", isDirectory: true)
        var options = Connection.Options()
        options.createIfMissing = false

        let path = folder.appendingPathComponent("absent.sqlite").path
        let error = assertThrows(SQLiteError.self) { try Connection(path: path, options: options) }
        XCTAssertEqual(error?.primaryCode, SQLITE_CANTOPEN)
        XCTAssertTrue(error?.message.contains(path) ?? false, error?.message ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))

        let nestedPath = missingFolder.appendingPathComponent("absent.sqlite").path
        XCTAssertNotNil(assertThrows(SQLiteError.self) { try Connection(path: nestedPath, options: options) })
        XCTAssertFalse(FileManager.default.fileExists(atPath: missingFolder.path), "the folder was created")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testCreateIfMissingFalseOpensAnExistingFile() throws {
        let path = try makeDatabasePath()
        try Connection(path: path).execute("CREATE TABLE t (x)")
        var options = Connection.Options()
        options.createIfMissing = false
        XCTAssertEqual(try Connection(path: path, options: options).tableNames(), ["t"])
    }

    func testReadOnlyConnectionReadsButCannotWrite() throws {
        let path = try makeDatabasePath()
        try Connection(path: path).execute("CREATE TABLE t (x); INSERT INTO t VALUES (5)")
        var options = Connection.Options()
        options.readOnly = true
        let reader = try Connection(path: path, options: options)
        XCTAssertEqual(try reader.scalar("SELECT x FROM t", as: Int.self), 5)
        let error = assertThrows(SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (6)") }
        XCTAssertEqual(error?.primaryCode, SQLITE_READONLY)
        XCTAssertEqual(try reader.scalar("SELECT count(*) FROM t", as: Int.self), 1)
    }

    func testReadOnlyOnAMissingFileFails() throws {
        let path = try makeDatabasePath()
        var options = Connection.Options()
        options.readOnly = true
        XCTAssertNotNil(assertThrows(SQLiteError.self) { try Connection(path: path, options: options) })
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testWriteAheadLogIsAPropertyOfTheFile() throws {
        let path = try makeDatabasePath()
        let connection = try Connection(path: path)
        try connection.execute("CREATE TABLE t (x)")
        XCTAssertEqual(try connection.scalar("PRAGMA journal_mode", as: String.self), "delete")
        try connection.enableWriteAheadLog()
        XCTAssertEqual(try connection.scalar("PRAGMA journal_mode", as: String.self), "wal")
        try connection.execute("INSERT INTO t VALUES (1)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"))
        // A new connection finds the file in WAL mode without asking.
        XCTAssertEqual(try Connection(path: path).scalar("PRAGMA journal_mode", as: String.self), "wal")
        // Enabling it again is harmless.
        XCTAssertNoThrow(try connection.enableWriteAheadLog())
    }

    func testInMemoryDatabase() throws {
        let connection = try Connection(path: ":memory:")
        XCTAssertNoThrow(try connection.enableWriteAheadLog())
        try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2)")
        XCTAssertEqual(try connection.scalar("SELECT sum(x) FROM t", as: Int.self), 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ":memory:"))
    }

    func testPerConnectionSettings() throws {
        let connection = try makeConnection()
        XCTAssertEqual(try connection.scalar("PRAGMA foreign_keys", as: Int.self), 1)
        XCTAssertEqual(try connection.scalar("PRAGMA busy_timeout", as: Int.self), 5_000)
        XCTAssertEqual(try connection.scalar("PRAGMA synchronous", as: Int.self), 1)  // NORMAL
        XCTAssertEqual(try connection.scalar("PRAGMA cache_size", as: Int.self), -2_048)
    }

    func testOptionsAreApplied() throws {
        var options = Connection.Options()
        options.busyTimeoutMilliseconds = 1_234
        options.cacheSizeKiB = 2_048
        options.mmapSizeBytes = 0
        let connection = try Connection(path: try makeDatabasePath(), options: options)
        XCTAssertEqual(try connection.scalar("PRAGMA busy_timeout", as: Int.self), 1_234)
        XCTAssertEqual(try connection.scalar("PRAGMA cache_size", as: Int.self), -2_048)
        XCTAssertEqual(try connection.scalar("PRAGMA mmap_size", as: Int.self), 0)
        XCTAssertEqual(connection.options.busyTimeoutMilliseconds, 1_234)
    }

    func testABulkWriteRunsWithItsOwnCacheAndRestoresTheConnectionsAfterwards() throws {
        var options = Connection.Options()
        options.cacheSizeKiB = 1_024
        options.bulkWriteCacheSizeKiB = 8_192
        let connection = try Connection(path: try makeDatabasePath(), options: options)
        let temporaryTablesCache = try connection.scalar("PRAGMA temp.cache_size", as: Int.self)
        let inside = try connection.withBulkWriteCache {
            try connection.execute("CREATE TEMP TABLE scratch (x)")
            return [try connection.scalar("PRAGMA cache_size", as: Int.self), try connection.scalar("PRAGMA temp.cache_size", as: Int.self)]
        }
        XCTAssertEqual(inside, [-8_192, -2_048], "the temporary tables get a quarter")
        XCTAssertEqual(try connection.scalar("PRAGMA cache_size", as: Int.self), -1_024)
        XCTAssertEqual(try connection.scalar("PRAGMA temp.cache_size", as: Int.self), temporaryTablesCache)

        struct Failure: Error {}
        XCTAssertThrowsError(try connection.withBulkWriteCache { throw Failure() }) { XCTAssertTrue($0 is Failure) }
        XCTAssertEqual(try connection.scalar("PRAGMA cache_size", as: Int.self), -1_024, "restored after a throw")
        XCTAssertEqual(try connection.scalar("PRAGMA temp.cache_size", as: Int.self), temporaryTablesCache, "restored after a throw")

        // A connection whose own cache is larger keeps it for bulk writes too.
        options.cacheSizeKiB = 16_384
        let large = try Connection(path: try makeDatabasePath(), options: options)
        XCTAssertEqual(try large.withBulkWriteCache { try large.scalar("PRAGMA cache_size", as: Int.self) }, -16_384)
    }

    func testDataVersionChangesWhenAnotherConnectionCommits() throws {
        let path = try makeDatabasePath()
        let observer = try Connection(path: path)
        try observer.enableWriteAheadLog()
        try observer.execute("CREATE TABLE t (x)")
        let writer = try Connection(path: path)
        let before = try observer.dataVersion
        XCTAssertEqual(try observer.dataVersion, before, "nothing changed yet")
        try writer.execute("INSERT INTO t VALUES (1)")
        XCTAssertNotEqual(try observer.dataVersion, before)
    }

    func testLastInsertRowIDAndChanges() throws {
        let connection = try makeConnection()
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x)")
        try connection.run("INSERT INTO t (id, x) VALUES (?, ?)", [.integer(40), .text("a")])
        XCTAssertEqual(connection.lastInsertRowID, 40)
        try connection.run("INSERT INTO t (x) VALUES ('b'), ('c')")
        XCTAssertEqual(connection.lastInsertRowID, 42)
        XCTAssertEqual(connection.changes, 2)
        try connection.run("UPDATE t SET x = 'z' WHERE id > ?", [.integer(40)])
        XCTAssertEqual(connection.changes, 2)
        try connection.run("DELETE FROM t")
        XCTAssertEqual(connection.changes, 3)
    }

    func testClosingTheConnectionReleasesTheFile() throws {
        let path = try makeDatabasePath()
        do {
            let connection = try Connection(path: path)
            try connection.enableWriteAheadLog()
            try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
            _ = try connection.cachedStatement("SELECT x FROM t")
        }
        // The last connection to a WAL database checkpoints and removes the log when it closes.
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
        XCTAssertEqual(try Connection(path: path).scalar("SELECT x FROM t", as: Int.self), 1)
    }

    /// A value kept while the file is unchanged is computed again after every kind of write: a
    /// commit by another connection, a row this connection changed (committed or rolled back), a
    /// write by another process's connection; and never handed out after one.
    func testAValueKeptWhileTheFileIsUnchangedIsComputedAgainAfterAnyWrite() throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("stamp.sqlite").path
        let reader = try Connection(path: path), other = try Connection(path: path)
        try other.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        var computations = 0
        func sum() throws -> Int {
            try reader.valueWhileUnchanged("sum") {
                computations += 1
                return try reader.scalar("SELECT sum(x) FROM t", as: Int.self) ?? 0
            }
        }
        XCTAssertEqual(try sum(), 1)
        XCTAssertEqual(try sum(), 1)
        XCTAssertEqual(computations, 1, "nothing changed: kept")
        try other.execute("INSERT INTO t VALUES (2)")
        XCTAssertEqual(try sum(), 3, "another connection committed")
        try reader.execute("INSERT INTO t VALUES (4)")
        XCTAssertEqual(try sum(), 7, "this connection wrote")
        try reader.execute("BEGIN; INSERT INTO t VALUES (8); ROLLBACK")
        XCTAssertEqual(try sum(), 7)
        XCTAssertEqual(computations, 4, "a rolled-back change computes again too")
        let sqlite3 = Process()
        sqlite3.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite3.arguments = [path, "INSERT INTO t VALUES (16)"]
        try sqlite3.run()
        sqlite3.waitUntilExit()
        XCTAssertEqual(sqlite3.terminationStatus, 0)
        XCTAssertEqual(try sum(), 23, "another process committed")
        XCTAssertEqual(try reader.valueWhileUnchanged("count") { try reader.scalar("SELECT count(*) FROM t", as: Int.self) ?? 0 }, 4,
                       "each key its own value")
    }

    /// A file another process is making: while it writes the first page it holds SQLite's
    /// reserved lock, and the file can show its length before its bytes. Read in that instant
    /// (here, 4,096 zeros written while the `sqlite3` shell holds the lock), the file is judged
    /// again once that write has ended, not refused: a command racing another's creation of its
    /// file refused it as "4096 bytes without an SQLite header" (`NewDatabaseRaceCLITests`, once
    /// in a CI run).
    func testAFileAnotherProcessIsMakingIsJudgedOnceItsWriteHasEnded() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("the sqlite3 shell is not installed") }
        let path = try makeTemporaryDirectory().appendingPathComponent("new.sqlite").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let connection = try Connection(path: path)
        let maker = Process(), input = Pipe()
        maker.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        maker.arguments = [path]
        maker.standardInput = input
        maker.standardOutput = FileHandle.nullDevice
        try maker.run()
        // The shell waits for the probe's lock below (without a timeout, a BEGIN IMMEDIATE that met
        // the probe's failed at once, and the probe then waited for a lock no one held: a CI flake).
        input.fileHandleForWriting.write(Data(".timeout 10000\nBEGIN IMMEDIATE;\nCREATE TABLE t (x);\n".utf8))
        var probeOptions = Connection.Options()
        probeOptions.busyTimeoutMilliseconds = 0
        let probe = try Connection(path: path, options: probeOptions)
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            do { try probe.execute("BEGIN IMMEDIATE; ROLLBACK") } catch let error as SQLiteError where error.isBusy { break }
            usleep(10_000)
        }
        XCTAssertThrowsError(try probe.execute("BEGIN IMMEDIATE"), "the shell holds the reserved lock")
        try Data(count: 4_096).write(to: URL(fileURLWithPath: path))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            input.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
            try? input.fileHandleForWriting.close()
        }
        XCTAssertNoThrow(try connection.validateIsDatabase())
        maker.waitUntilExit()
        XCTAssertEqual(maker.terminationStatus, 0)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 't'", as: Int.self), 1)
    }

    /// ``Connection/Options/stopsWaiting`` ends a wait for another connection's lock when it says
    /// so, with `SQLITE_BUSY`, long before the busy timeout; while it says nothing, the wait goes
    /// on as the busy timeout's does and gets the lock once it is let go.
    func testAWaitForALockEndsWhenToldToStop() throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("locked.sqlite").path
        let holder = try Connection(path: path)
        try holder.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1); PRAGMA journal_mode = DELETE")

        final class Stop: @unchecked Sendable {
            let lock = NSLock()
            var isSet = false, questions = 0
        }
        let stop = Stop()
        var options = Connection.Options()
        options.busyTimeoutMilliseconds = 600_000
        options.stopsWaiting = { stop.lock.withLock { stop.questions += 1; return stop.isSet } }
        let waiter = try Connection(path: path, options: options)
        // A rollback journal's exclusive lock, which stops readers.
        try holder.execute("BEGIN EXCLUSIVE")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { stop.lock.withLock { stop.isSet = true } }
        XCTAssertThrowsError(try waiter.scalar("SELECT count(*) FROM t", as: Int.self)) { error in
            XCTAssertTrue((error as? SQLiteError)?.isBusy ?? false, "\(error)")
        }
        XCTAssertGreaterThan(stop.lock.withLock { stop.questions }, 1, "asked while it waited")

        stop.lock.withLock { stop.isSet = false }
        // (The holder is used by that thread alone from now on.)
        nonisolated(unsafe) let releasing = holder
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { try? releasing.execute("COMMIT") }
        XCTAssertEqual(try waiter.scalar("SELECT count(*) FROM t", as: Int.self), 1, "the lock, once let go")
    }
}
