import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// What leaves the file as it was, with every change-log entry long expired: opening it, a dry
/// run, a write that fails and an edit that changes nothing. The store prunes the expired entries
/// after its first write that commits a change, in a transaction of its own. (It pruned them in a transaction of its own when
/// it opened the file to write, so `--dry-run` and failing commands changed the file and made
/// older change tokens unusable; helper-10.)
final class WritesThatChangeNothingTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!
    private let then = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// The change log's entries and its first position, read by a connection of its own.
    private func changeLog(at path: String) throws -> [String] {
        let connection = try Connection(path: path)
        let entries = try connection.prepare("SELECT seq || ' ' || kind || ' ' || quote(at) FROM change_log ORDER BY seq")
        var rows: [String] = []
        while try entries.step() { rows.append(try entries.column(0)) }
        let start = try connection.scalar("SELECT value FROM logbook_settings WHERE name = 'change_log_start'", as: String.self)
        return rows + ["start: \(start ?? "none")"]
    }

    func testOnlyAWriteThatChangesTheFilePrunesTheChangeLog() throws {
        let folder = try TemporaryFolder("prune")
        let path = folder.file("logbook.sqlite").path
        let firstDay = CalendarDay(then, in: utc)
        do {
            let store = try Logbook(path: path, timeZone: utc, now: { [then] in then })
            try store.history.save([ExerciseDay(date: then, day: firstDay, exercises: ["Squat"])])
            try store.drafts.save(ReleaseDraft(version: "1.0"))
        }
        let logged = try changeLog(at: path)
        XCTAssertGreaterThan(logged.count, 2)

        let later = then + 400 * 86_400
        let store = try Logbook(path: path, timeZone: utc, now: { later })
        XCTAssertEqual(try changeLog(at: path), logged, "opening the file")

        let newDay = #"{"day":"2030-01-01","exercises":["Row"]}"# + "\n"
        _ = try store.importRecords(from: Data(newDay.utf8), named: "new.ndjson", options: ImportOptions(dryRun: true))
        _ = try store.history.renameExercise("Squat", to: "Squats", dryRun: true)
        XCTAssertEqual(try changeLog(at: path), logged, "dry runs")

        XCTAssertThrowsError(try store.drafts.delete("no such draft"))
        XCTAssertThrowsError(try store.history.moveDay(firstDay.adding(days: 9)!, to: firstDay.adding(days: 10)!))
        XCTAssertEqual(try changeLog(at: path), logged, "writes that failed")

        XCTAssertEqual(try store.history.renameExercise("Squat", to: "Squat").exercises, 0)
        XCTAssertEqual(try changeLog(at: path), logged, "an edit that changes nothing")

        _ = try store.importRecords(from: Data(newDay.utf8), named: "new.ndjson")
        let pruned = try changeLog(at: path)
        XCTAssertFalse(pruned.contains(logged[0]), "the first write that commits a change prunes the expired entries after it")
        XCTAssertNotEqual(pruned.last, logged.last, "and moves the log's start")
        XCTAssertTrue(try store.check().isHealthy)
    }
}
