import Foundation
@testable import Logbook
import SQLiteQuery
import XCTest

/// SQLite's temporary database (path `""`), which `import --dry-run` writes into when there is no
/// file yet, and its in-memory one (`:memory:`): stores like any other while they are open (their
/// SQL queries read them, not another connection's empty database), named in errors by what they
/// are, and never taken for a file to read.
final class TemporaryDatabaseTests: XCTestCase {
    func testATemporaryDatabaseIsAStoreNamedInErrorsAndNoFileToRead() throws {
        let utc = TimeZone(identifier: "UTC")!
        let store = try Logbook(path: "", timeZone: utc)
        let day = CalendarDay(year: 2026, month: 1, day: 5)!
        try store.history.save([ExerciseDay(id: UUID(), date: day.start(in: utc), day: day, exercises: ["Squat", "Row"])])
        XCTAssertEqual(try store.history.fetchCount(), 1)
        let full = LogbookError.reported(SQLiteError(code: 13, message: "database or disk is full"), path: store.path)
        // Named, with the folder SQLite keeps it in, which is the disk that filled.
        XCTAssertTrue(String(describing: full).hasPrefix("SQLite's temporary database: database or disk is full; "
                                                         + "SQLite keeps its temporary database in "), "\(full)")
        XCTAssertTrue(String(describing: full).hasSuffix(": set SQLITE_TMPDIR to a folder with room (SQLite error 13: database or disk is full)"),
                      "\(full)")
        XCTAssertThrowsError(try Logbook.openForReading(path: "", timeZone: utc)) { error in
            guard case LogbookError.noDatabase = error else { return XCTFail("\(error)") }
        }
    }

    func testSQLQueriesReadTheStoresOwnDatabaseAndLeaveItWritable() throws {
        let utc = TimeZone(identifier: "UTC")!
        for path in ["", ":memory:"] {
            let store = try Logbook(path: path, timeZone: utc)
            let first = CalendarDay(year: 2026, month: 1, day: 5)!, second = CalendarDay(year: 2026, month: 1, day: 6)!
            try store.history.save([ExerciseDay(id: UUID(), date: first.start(in: utc), day: first, exercises: ["Squat", "Row"])])
            let count = "SELECT count(*) AS days, (SELECT count(*) FROM exercises) AS exercises FROM exercise_days"
            var columns: [String] = [], rows: [[DatabaseValue]] = []
            try store.query(count, columns: { columns = $0 }, row: { rows.append($0) })
            XCTAssertEqual(columns, ["days", "exercises"], path)
            XCTAssertEqual(rows, [[.integer(1), .integer(2)]], path)
            for refused in ["DELETE FROM exercises", "PRAGMA query_only = OFF", "ATTACH 'x.sqlite' AS x"] {
                XCTAssertThrowsError(try store.query(refused, columns: { _ in }, row: { _ in }), "\(path): \(refused)") { error in
                    guard case LogbookError.queryRefused = error else { return XCTFail("\(path): \(refused): \(error)") }
                }
            }
            // The store writes as before, and the next query sees it.
            try store.history.save([ExerciseDay(id: UUID(), date: second.start(in: utc), day: second, exercises: ["Plank"])])
            rows = []
            try store.query(count, columns: { _ in }, row: { rows.append($0) })
            XCTAssertEqual(rows, [[.integer(2), .integer(3)]], path)
            XCTAssertEqual(try store.history.fetchCount(), 2, path)
        }
    }

    /// A query on a store's own connection neither ends a transaction its caller has open (a
    /// `COMMIT` committed a write's first half) nor leaves the connection unable to write (a
    /// cancellation during a query nested in a streaming read left it `query_only`), and its row
    /// callback may use the store; transaction statements are refused on every store.
    func testAQueryOnTheStoresConnectionLeavesItsCallerAndTheConnectionAsTheyWere() throws {
        let utc = TimeZone(identifier: "UTC")!
        func day(_ number: Int, _ names: [String]) -> ExerciseDay {
            let day = CalendarDay(year: 2026, month: 2, day: number)!
            return ExerciseDay(id: UUID(), date: day.start(in: utc), day: day, exercises: names)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("query-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        for path in ["", ":memory:", file] {
            let store = try Logbook(path: path, timeZone: utc)
            for statement in ["COMMIT", "ROLLBACK", "BEGIN", "SAVEPOINT s", "RELEASE s", "END"] {
                XCTAssertThrowsError(try store.query(statement, columns: { _ in }, row: { _ in }), "\(path): \(statement)") { error in
                    guard case LogbookError.queryRefused = error else { return XCTFail("\(path): \(statement): \(error)") }
                }
            }
            struct Abandoned: Error {}
            XCTAssertThrowsError(try store.underlyingDatabase.write { _ in
                try store.history.save([day(1, ["Squat"])])
                _ = try? store.query("COMMIT", columns: { _ in }, row: { _ in })
                throw Abandoned()
            })
            XCTAssertEqual(try store.history.fetchCount(), 0, "\(path): the abandoned write was committed")

            try store.history.save([day(2, ["Row"]), day(3, ["Plank"])])
            let cancellation = Cancellation()
            XCTAssertThrowsError(try cancellation.run {
                try store.history.forEach(RecordQuery()) { _ in
                    try store.query("SELECT value FROM json_each('[1,2,3,4]')", columns: { _ in }, row: { _ in cancellation.cancel() })
                }
            })
            try store.history.save([day(4, ["Lunge"])])
            var inCallback: [Int] = []
            try store.query("SELECT 1", columns: { _ in }, row: { _ in
                try store.history.save([day(5, ["Dip"])])
                inCallback.append(try store.history.fetchCount())
            })
            XCTAssertEqual(inCallback, [4], path)
            XCTAssertEqual(try store.history.fetchCount(), 4, path)
        }
    }
}
