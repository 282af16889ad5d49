import Foundation
@testable import Logbook
import SQLiteQuery
import XCTest

/// SQLite's temporary database (path `""`), which `import --dry-run` writes into when there is no
/// file yet: a store like any other while it is open, named in errors by what it is, and never
/// taken for a file to read.
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
}
