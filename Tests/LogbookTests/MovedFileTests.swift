import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// A store whose file another program deletes or replaces while it is open refuses to write,
/// saying so, instead of writing to a file no path leads to (with a write-ahead log SQLite itself
/// would write, and the change would be gone when the store closed). The file now at the path is
/// left as it is.
final class MovedFileTests: XCTestCase {
    func testAStoreWhoseFileWasDeletedRefusesToWrite() throws {
        let scratch = try TemporaryFolder()
        let path = scratch.file("logbook.sqlite").path
        let store = try Logbook(path: path)
        _ = try store.history.addDoneExercise("Squat", at: instant("2030-01-01T10:00:00Z"))
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }

        XCTAssertThrowsError(try store.history.addDoneExercise("Run", at: instant("2030-01-02T10:00:00Z"))) { error in
            guard case LogbookError.database(let named, let sqliteError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(named, path)
            XCTAssertEqual(sqliteError.code, ResultCode.movedFile)
            XCTAssertEqual("\(error)", "\(path): the database file was deleted, moved or replaced after it was opened (or a folder "
                           + "above it was renamed), so nothing was written: the write could have been lost; open it again")
        }
        XCTAssertThrowsError(try store.drafts.save(ReleaseDraft(version: "1.0")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the refusal made a file at the path")

        // A new logbook made at the path meanwhile is its own; opening the path again writes there.
        let again = try Logbook(path: path)
        XCTAssertEqual(try again.history.count(), 0)
        _ = try again.history.addDoneExercise("Row", at: instant("2030-01-03T10:00:00Z"))
        XCTAssertThrowsError(try store.history.addDoneExercise("Run", at: instant("2030-01-02T10:00:00Z")))
        XCTAssertEqual(try again.history.fetchAll().map(\.exercises), [["Row"]])
    }

    /// A file moved over the store's (a backup put back with `mv`): the store refuses to write,
    /// and the file put back stays byte for byte what it was, the store's close included, and
    /// reads as it was when opened again. (SQLite skips its checkpoint at close for a moved file
    /// and left the store's write-ahead log, full, at the path, where the next connection read
    /// the file put back through it: damaged, or holding the store's records; helper-26. The
    /// store now empties its log into the file it opened as it closes.)
    func testAStoreWhoseFileWasReplacedRefusesToWriteAndLeavesTheNewFileAsItWas() throws {
        let scratch = try TemporaryFolder()
        var (store, path, backup): (Logbook?, String, String) = try storeAndBackup(in: scratch)
        let saved = try Data(contentsOf: URL(fileURLWithPath: backup))
        XCTAssertEqual(rename(backup, path), 0)

        XCTAssertThrowsError(try store?.drafts.save(ReleaseDraft(version: "after"))) { error in
            guard case LogbookError.database(_, let sqliteError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(sqliteError.code, ResultCode.movedFile)
        }
        store = nil
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), saved)
        try assertHoldsOnlyTheBackup(path)
    }

    /// A file moved over the store's while a write runs (a backup put back with `mv` during an
    /// import): the write fails, saying its change went to the file the store opened, and the
    /// file put back reads as it was once the store has closed (the import exited 0 and left the
    /// file damaged; helper-26).
    func testAFileReplacedDuringAWriteFailsAndIsReadAsItWas() throws {
        let scratch = try TemporaryFolder()
        var (store, path, backup): (Logbook?, String, String) = try storeAndBackup(in: scratch)
        let utc = TimeZone(identifier: "UTC")!
        let days = (0..<2_000).map { index in
            let date = Date(timeIntervalSinceReferenceDate: Double(index) * 86_400 + 36_000)
            return ExerciseDay(date: date, day: CalendarDay(date, in: utc), exercises: ["Squat", "Row"])
        }
        XCTAssertThrowsError(try store?.underlyingDatabase.write { _ in
            try store?.history.save(days)
            XCTAssertEqual(rename(backup, path), 0)
        }) { error in
            guard case LogbookError.database(_, let sqliteError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(sqliteError.code, ResultCode.movedFile)
        }
        store = nil
        try assertHoldsOnlyTheBackup(path)
    }

    /// A store at `logbook.sqlite` in `scratch` that has saved the draft "before" (in its log), and
    /// beside it `backup.sqlite`, closed, holding the one draft "from the backup".
    private func storeAndBackup(in scratch: TemporaryFolder) throws -> (store: Logbook, path: String, backup: String) {
        let path = scratch.file("logbook.sqlite").path
        let backup = scratch.file("backup.sqlite").path
        do {
            let other = try Logbook(path: backup)
            try other.drafts.save(ReleaseDraft(version: "from the backup"))
        }
        let store = try Logbook(path: path)
        try store.drafts.save(ReleaseDraft(version: "before"))
        return (store, path, backup)
    }

    /// Opens `path` afresh: the file must be sound and hold the backup's one draft, no day.
    private func assertHoldsOnlyTheBackup(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let reopened = try Logbook(path: path)
        XCTAssertEqual(try reopened.drafts.fetchAll().map(\.version), ["from the backup"], file: file, line: line)
        XCTAssertEqual(try reopened.history.count(), 0, file: file, line: line)
        let integrity = try reopened.underlyingDatabase.withConnection { try $0.scalar("PRAGMA integrity_check", as: String.self) }
        XCTAssertEqual(integrity, "ok", file: file, line: line)
    }

    /// SQLite's test cannot tell a renamed folder from a moved file, so a store whose folder was
    /// renamed refuses to write too; what it had written is in the file at the new path, and a
    /// store opened there writes.
    func testAStoreWhoseFolderWasRenamedRefusesToWriteAndKeepsWhatItWrote() throws {
        let scratch = try TemporaryFolder()
        let folder = scratch.file("old"), renamed = scratch.file("new")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var store: Logbook? = try Logbook(path: folder.appendingPathComponent("logbook.sqlite").path)
        _ = try store?.history.addDoneExercise("Squat", at: instant("2030-01-01T10:00:00Z"))
        XCTAssertEqual(rename(folder.path, renamed.path), 0)
        XCTAssertThrowsError(try store?.history.addDoneExercise("Run", at: instant("2030-01-02T10:00:00Z")))
        store = nil
        let reopened = try Logbook(path: renamed.appendingPathComponent("logbook.sqlite").path)
        _ = try reopened.history.addDoneExercise("Row", at: instant("2030-01-03T10:00:00Z"))
        XCTAssertEqual(try reopened.history.fetchAll().map(\.exercises), [["Squat"], ["Row"]])
    }
}
