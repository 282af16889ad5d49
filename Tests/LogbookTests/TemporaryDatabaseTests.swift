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
        XCTAssertEqual(String(describing: full), "SQLite's temporary database: database or disk is full (SQLite error 13)")
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
}
