import Foundation
import CSQLite
import XCTest
@testable import SQLiteQuery

/// `Connection.transaction` commits or rolls back whole; nested calls become savepoints.
final class TransactionTests: XCTestCase {
    private struct Failure: Error, Equatable {
        let reason: String
    }

    private var connection: Connection!

    override func setUpWithError() throws {
        connection = try makeConnection()
        try connection.execute("CREATE TABLE items (name TEXT PRIMARY KEY)")
    }

    override func tearDown() {
        connection = nil
    }

    private func insert(_ name: String) throws {
        try connection.run("INSERT INTO items (name) VALUES (?)", [.text(name)])
    }

    private func names() throws -> [String] {
        try connection.column("SELECT name FROM items ORDER BY name", as: String.self)
    }

    func testCommitKeepsTheWorkAndReturnsTheBodysResult() throws {
        XCTAssertTrue(connection.isAutocommit)
        let result = try connection.transaction { () throws -> Int in
            XCTAssertFalse(connection.isAutocommit, "no transaction is open inside the body")
            try insert("a")
            try insert("b")
            return 42
        }
        XCTAssertEqual(result, 42)
        XCTAssertEqual(try names(), ["a", "b"])
        XCTAssertTrue(connection.isAutocommit)
    }

    func testThrowingBodyRollsBackAndRethrowsTheSameError() throws {
        try insert("before")
        do {
            try connection.transaction {
                try insert("a")
                throw Failure(reason: "stop")
            }
            XCTFail("the transaction did not rethrow")
        } catch let error as Failure {
            XCTAssertEqual(error, Failure(reason: "stop"))
        }
        XCTAssertEqual(try names(), ["before"])
        XCTAssertTrue(connection.isAutocommit)
    }

    func testSQLErrorInsideBodyRollsBackEarlierStatements() throws {
        let error = assertThrows(SQLiteError.self) {
            try connection.transaction {
                try insert("a")
                try insert("a")  // violates the primary key
            }
        }
        XCTAssertEqual(error?.code, ResultCode.primaryKeyConstraint)
        XCTAssertEqual(try names(), [])
        XCTAssertTrue(connection.isAutocommit)
    }

    func testEveryTransactionKindCommits() throws {
        for kind in [TransactionKind.deferred, .immediate, .exclusive] {
            try connection.transaction(kind) { try insert(kind.rawValue) }
        }
        XCTAssertEqual(try names(), ["DEFERRED", "EXCLUSIVE", "IMMEDIATE"])
        XCTAssertTrue(connection.isAutocommit)
    }

    func testNestedFailureRollsBackOnlyTheInnerWork() throws {
        try connection.transaction {
            try insert("outer-before")
            do {
                try connection.transaction {
                    try insert("inner")
                    XCTAssertEqual(try names(), ["inner", "outer-before"])
                    throw Failure(reason: "inner")
                }
                XCTFail("the nested transaction did not rethrow")
            } catch let error as Failure {
                XCTAssertEqual(error.reason, "inner")
            }
            XCTAssertFalse(connection.isAutocommit, "the inner rollback ended the outer transaction")
            try insert("outer-after")
        }
        XCTAssertEqual(try names(), ["outer-after", "outer-before"])
        XCTAssertTrue(connection.isAutocommit)
    }

    func testNestedSuccessCommitsWithTheOuterTransaction() throws {
        try connection.transaction {
            try insert("outer")
            try connection.transaction { try insert("inner") }
            XCTAssertFalse(connection.isAutocommit)
        }
        XCTAssertEqual(try names(), ["inner", "outer"])
        XCTAssertTrue(connection.isAutocommit)
    }

    func testOuterFailureAlsoUndoesReleasedInnerWork() throws {
        XCTAssertThrowsError(try connection.transaction {
            try connection.transaction { try insert("inner") }
            try insert("outer")
            throw Failure(reason: "outer")
        })
        XCTAssertEqual(try names(), [])
        XCTAssertTrue(connection.isAutocommit)
    }

    func testThreeLevelsRollBackTheMiddleLevelWithWhatItContains() throws {
        try connection.transaction {
            try insert("level1")
            XCTAssertThrowsError(try connection.transaction {
                try insert("level2")
                try connection.transaction { try insert("level3") }
                throw Failure(reason: "level2")
            })
            // The savepoint names are reused correctly after the failure.
            try connection.transaction { try insert("level2-again") }
        }
        XCTAssertEqual(try names(), ["level1", "level2-again"])
        XCTAssertTrue(connection.isAutocommit)
    }

    /// A statement with no statement journal that fills the disk makes SQLite roll the whole
    /// transaction back, savepoints and all: a write nested in another reports the full disk (not
    /// the savepoint that went with the transaction), and the outer transaction does not commit.
    /// The disk is filled with `PRAGMA max_page_count`; the statement is a single-row insert.
    func testAFullDiskInsideASavepointIsReportedAsAFullDisk() throws {
        try insert("before")
        let pages = try XCTUnwrap(try connection.scalar("PRAGMA page_count", as: Int.self))
        try connection.execute("PRAGMA max_page_count = \(pages + 4)")
        var innerError: Error?
        XCTAssertThrowsError(try connection.transaction {
            try insert("outer")
            do {
                try connection.transaction { try insert(String(repeating: "x", count: 100_000)) }
            } catch {
                innerError = error
            }
        }) { error in
            XCTAssertEqual((error as? SQLiteError)?.code, SQLITE_ABORT, "the outer transaction says it did not commit: \(error)")
        }
        XCTAssertEqual((innerError as? SQLiteError).map { $0.code & 0xFF }, SQLITE_FULL, "\(String(describing: innerError))")
        XCTAssertEqual(try names(), ["before"])
        XCTAssertTrue(connection.isAutocommit)
    }

    func testSavepointOutsideATransactionCommitsOnRelease() throws {
        try connection.savepoint { try insert("a") }
        XCTAssertTrue(connection.isAutocommit)
        XCTAssertThrowsError(try connection.savepoint {
            try insert("b")
            throw Failure(reason: "b")
        })
        XCTAssertTrue(connection.isAutocommit)
        XCTAssertEqual(try names(), ["a"])
    }

    func testAnotherConnectionSeesTheWorkOnlyAfterCommit() throws {
        try connection.enableWriteAheadLog()
        let reader = try Connection(path: connection.path)
        try connection.transaction {
            try insert("a")
            XCTAssertEqual(try reader.scalar("SELECT count(*) FROM items", as: Int.self), 0)
        }
        XCTAssertEqual(try reader.scalar("SELECT count(*) FROM items", as: Int.self), 1)
    }

    func testImmediateTransactionTakesTheWriteLockAtBegin() throws {
        try connection.enableWriteAheadLog()
        var options = Connection.Options()
        options.busyTimeoutMilliseconds = 0
        let other = try Connection(path: connection.path, options: options)
        try connection.transaction(.immediate) {
            // Nothing written yet, but the lock is held: another writer cannot begin.
            let error = assertThrows(SQLiteError.self) { try other.transaction(.immediate) {} }
            XCTAssertEqual(error?.primaryCode, SQLITE_BUSY)
            XCTAssertEqual(error?.isBusy, true)
        }
        XCTAssertTrue(other.isAutocommit)
        try other.transaction(.immediate) { try other.run("INSERT INTO items VALUES ('other')") }
        XCTAssertEqual(try names(), ["other"])
    }

    /// A file moved while a transaction commits (here, by SQLite's commit hook): the change is
    /// committed to the file the connection opened, and the transaction says so instead of
    /// returning as if the path held it (a backup put back with `mv` in that instant; helper-26).
    func testAFileMovedWhileItsWriteCommitsIsNotReportedAsWritten() throws {
        let path = try makeDatabasePath()
        let writer = try Connection(path: path)
        try writer.enableWriteAheadLog()
        try writer.execute("CREATE TABLE items (name TEXT)")
        let context = strdup(path)
        defer { free(context) }
        sqlite3_commit_hook(writer.handle, { pointer in
            guard let pointer else { return 0 }
            let path = String(cString: pointer.assumingMemoryBound(to: CChar.self))
            _ = rename(path, path + ".moved")
            return 0  // the commit goes on
        }, context)
        let error = assertThrows(SQLiteError.self) {
            try writer.transaction(.immediate) { try writer.run("INSERT INTO items VALUES ('kept')") }
        }
        XCTAssertEqual(error?.code, ResultCode.movedFile)
        XCTAssertTrue(error?.message.contains("while a write ran") ?? false, "\(String(describing: error))")
        sqlite3_commit_hook(writer.handle, nil, nil)
        XCTAssertTrue(writer.isAutocommit, "the transaction ended, committed")
        XCTAssertEqual(try writer.scalar("SELECT name FROM items", as: String.self), "kept", "committed to the file the connection opened")
    }
}
