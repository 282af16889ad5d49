import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// The library under misuse (issue 15, items 7, 11 and 12): errors an app can show, nested calls
/// with the same SQL, and a failed savepoint rollback that must not let a transaction go on.
final class LibraryMisuseTests: XCTestCase {
    private func loadedStore() throws -> TestStore {
        let test = try TestStore()
        let utc = TimeZone(identifier: "UTC")!
        for index in 0..<5 {
            try test.store.history.addDoneExercises(["Squat", "Burpee"], at: CalendarDay(year: 2026, month: 1, day: index + 1)!.start(in: utc) + 60)
            try test.store.drafts.save(ReleaseDraft(version: "1.\(index)", checklist: [ChecklistItem(title: "a"), ChecklistItem(title: "b")]))
        }
        return test
    }

    // 11. The same query inside its own loop, and inside report callbacks.
    func testTheSameQueryNestedInsideItsOwnLoopRunsBothToTheEnd() throws {
        let test = try loadedStore()
        var outer = 0
        try test.store.history.forEach(RecordQuery()) { day in
            outer += 1
            XCTAssertEqual(day.exercises, ["Squat", "Burpee"])
            let inner = try test.store.history.fetch(RecordQuery())
            XCTAssertEqual(inner.map(\.exercises.count), [2, 2, 2, 2, 2])
            guard outer < 20 else { throw CancellationError() }
        }
        XCTAssertEqual(outer, 5)

        var drafts = 0
        try test.store.drafts.forEach(RecordQuery()) { draft in
            drafts += 1
            XCTAssertEqual(draft.checklist.count, 2)
            try test.store.drafts.forEach(RecordQuery()) { XCTAssertEqual($0.checklist.count, 2) }
            guard drafts < 20 else { throw CancellationError() }
        }
        XCTAssertEqual(drafts, 5)

        var periods = 0, innerRows = 0
        try test.store.reports.history(by: .day) { _ in
            periods += 1
            try test.store.reports.history(by: .day) { _ in innerRows += 1 }
            try test.store.reports.exercises { _ in }
            guard periods < 50 else { throw CancellationError() }
        }
        XCTAssertEqual(periods, 5)
        XCTAssertEqual(innerRows, 25)
    }

    /// A backup called from inside a write of the same store: SQLite locks the copy out while the
    /// connection writes, so it retried for about five seconds and then said only that the
    /// database "stayed locked" (helper-11). It is refused at once, saying why, the target is not
    /// created, and the same backup after the write succeeds.
    func testABackupFromInsideAWriteOfTheSameStoreIsRefusedSayingWhy() throws {
        let test = try loadedStore()
        let folder = try TemporaryFolder("backup-inside-write")
        let target = folder.file("copy.sqlite").path
        XCTAssertThrowsError(try test.store.underlyingDatabase.write { _ in try test.store.backup(to: target) }) { error in
            XCTAssertTrue("\(error)".contains("cannot run inside a write of the same database"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), [], "nothing written beside the target")
        XCTAssertGreaterThan(try test.store.backup(to: target).pages, 0)
        XCTAssertEqual(try Logbook(path: target).history.count(), 5)
    }

    /// A write made from code a store call hands control to while it holds a transaction (an
    /// import's progress callback; a read's callback on a store without read connections) would
    /// be part of that transaction, rolled back with a failed or dry-run import although it
    /// returned: it is refused instead, and the caller's writes after the call are their own.
    func testWritesFromInsideAnImportOrAReadOfTheSameStoreAreRefusedNotLost() throws {
        let test = try loadedStore()
        let good = (1...5_001).map { index in
            "{\"id\":\"\(UUID().uuidString)\",\"day\":\"\(CalendarDay(year: 2030, month: 1, day: 1)!.adding(days: index)!)\","
                + "\"date\":\"2030-01-01T00:00:00Z\",\"exercises\":[\"Row\"]}"
        }
        final class Outcomes: @unchecked Sendable {
            var errors: [Error] = []
            var saved: [ReleaseDraft] = []
        }
        for (lines, dryRun) in [(good + ["{oops"], false), (good, true)] {
            let outcomes = Outcomes()
            var options = ImportOptions(format: .ndjson, dryRun: dryRun)
            let store = test.store
            options.progress = { _, _ in
                do {
                    outcomes.saved.append(try store.drafts.save(ReleaseDraft(version: "from the callback")))
                } catch {
                    outcomes.errors.append(error)
                }
            }
            let before = try test.store.drafts.fetchCount()
            _ = try? test.store.importRecords(from: Data(lines.joined(separator: "\n").utf8), named: "days.ndjson", options: options)
            // Called at record 5,000 inside the transaction (refused), and once after it (a write of its own).
            XCTAssertEqual(outcomes.errors.count, 1, "dry run \(dryRun)")
            XCTAssertTrue(outcomes.errors.first.map { "\($0)".contains("progress callback") } ?? false, "\(outcomes.errors)")
            XCTAssertEqual(try test.store.drafts.fetchCount(), before + outcomes.saved.count, "every save that returned is stored")
        }

        for path in [":memory:", test.folder.appendingPathComponent("pooled.sqlite").path] {
            let store = try Logbook(path: path, timeZone: TimeZone(identifier: "UTC")!)
            try store.drafts.save(ReleaseDraft(version: "1.0"))
            var outcome: Result<ReleaseDraft, Error>?
            try store.drafts.forEach(RecordQuery()) { _ in
                outcome = Result { try store.drafts.save(ReleaseDraft(version: "inside")) }
            }
            switch (path, outcome) {
            case (":memory:", .failure(let error)?):
                XCTAssertTrue("\(error)".contains("from inside a read"), "\(error)")
                XCTAssertEqual(try store.drafts.fetchCount(), 1)
            case (":memory:", _): XCTFail("a write inside a read on the store's one connection: \(String(describing: outcome))")
            case (_, .success?): XCTAssertEqual(try store.drafts.fetchCount(), 2, "a read connection's callback writes on its own")
            default: XCTFail("\(String(describing: outcome))")
            }
        }
    }

    /// A path holding a NUL names no file: refused, where the system would have used its first part.
    func testAPathWithANulIsRefusedAndCreatesNothing() throws {
        let test = try loadedStore()
        let folder = test.folder.path
        XCTAssertThrowsError(try Logbook(path: folder + "/nul\u{0}hidden.sqlite")) { error in
            XCTAssertTrue("\(error)".contains("NUL"), "\(error)")
        }
        XCTAssertThrowsError(try test.store.backup(to: folder + "/copy\u{0}.sqlite")) { error in
            XCTAssertTrue("\(error)".contains("NUL"), "\(error)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertFalse(names.contains { $0.hasPrefix("nul") || $0.hasPrefix("copy") }, "\(names)")
    }

    /// A store opened at a path is the file the system finds at that path: seeded paths of names,
    /// `.`, `..`, empty names and trailing slashes, over folders and files that earlier paths
    /// made. Each is opened (creating), written and read back through the same path, or refused
    /// creating nothing; a folder's path (`new.sqlite/`, which SQLite took as `new.sqlite`) and
    /// `..` after a name that is no folder (which SQLite drops with the name) are refused.
    /// `LOGBOOK_PATH_SEED` repeats a run.
    func testAStoreIsTheFileItsPathNamesOrIsRefusedCreatingNothing() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_PATH_SEED", default: 2_611))
        let folder = try TemporaryFolder()
        let utc = TimeZone(identifier: "UTC")!
        func tree() -> [String] {
            (FileManager.default.enumerator(atPath: folder.url.path)?.allObjects as? [String] ?? []).sorted()
        }
        var (opened, refused) = (0, 0)
        for step in 0..<PropertyTestSettings.scaled(150, by: "LOGBOOK_PROPERTY_SCALE") {
            let names = (0..<random.int(1...4)).map { _ in random.pick(["db.sqlite", "a", "b", ".", "..", "", "a/db.sqlite"]) }
            let path = folder.url.path + "/" + names.joined(separator: "/") + (random.chance(0.15) ? "/" : "")
            let before = tree()
            let exercise = "Step \(step)"
            do {
                let store = try Logbook(path: path, timeZone: utc)
                try store.history.addDoneExercise(exercise, at: Date(timeIntervalSinceReferenceDate: Double(step) * 86_400))
            } catch {
                refused += 1
                XCTAssertEqual(tree(), before, "step \(step): refusing \(path) (\(error)) created something")
                continue
            }
            opened += 1
            var status = stat()
            XCTAssertTrue(stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG, "step \(step): \(path) names no file")
            let reader = try Logbook.openForReading(path: path, timeZone: utc)
            XCTAssertTrue(try reader.history.fetchAll().contains { $0.exercises.contains(exercise) }, "step \(step): \(path)")
        }
        _ = try Logbook(path: folder.url.path + "/file.sqlite", timeZone: utc)
        for path in ["new.sqlite/", "new.sqlite/.", "new.sqlite/..", "missing/../new.sqlite", "file.sqlite/../new.sqlite", "file.sqlite/"] {
            XCTAssertThrowsError(try Logbook(path: folder.url.path + "/" + path, timeZone: utc), path) { error in
                XCTAssertTrue("\(error)".contains("a folder's path") || "\(error)".contains("names nothing"), "\(path): \(error)")
            }
        }
        XCTAssertGreaterThan(opened, 10)
        XCTAssertGreaterThan(refused, 10)
    }

    // 7. Errors an app can show, naming what was wrong.
    func testErrorsAreLogbookErrorsWithADescriptionAnAppCanShow() throws {
        let test = try loadedStore()
        let utc = TimeZone(identifier: "UTC")!
        let day = CalendarDay(year: 2026, month: 1, day: 1)!
        XCTAssertThrowsError(try test.store.history.save([ExerciseDay(date: day.start(in: utc), day: day, exercises: ["Row"])])) { error in
            guard case LogbookError.dayTaken(let taken, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(taken, day)
            XCTAssertTrue(error.localizedDescription.hasPrefix("2026-01-01 already has a record"), error.localizedDescription)
            XCTAssertFalse(error.localizedDescription.contains("INSERT"))
        }
        XCTAssertThrowsError(try test.store.drafts.resolve("9.9")) { error in
            XCTAssertEqual(error.localizedDescription, "no draft with id or version '9.9'")
        }
        XCTAssertThrowsError(try test.store.drafts.fetch(FetchDescriptor(predicate: #Predicate<ReleaseDraft> { $0.version.count > 1 },
                                                                         sortBy: [SortDescriptor(\.summary)]))) { error in
            guard case LogbookError.unsupportedQuery = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.localizedDescription.contains("sorting by"), error.localizedDescription)
        }
        // NaN, which SQLite binds as NULL (`!=` would then answer as for nil), is refused, captured alone or in a list.
        let notANumber = Date(timeIntervalSinceReferenceDate: .nan)
        let dates = [Date(), notANumber]
        for predicate in [#Predicate<ReleaseDraft> { $0.createdAt != notANumber }, #Predicate<ReleaseDraft> { !($0.createdAt < notANumber) },
                          #Predicate<ReleaseDraft> { $0.submittedAt != notANumber }, #Predicate<ReleaseDraft> { dates.contains($0.createdAt) }] {
            XCTAssertThrowsError(try test.store.drafts.fetchCount(FetchDescriptor(predicate: predicate))) { error in
                guard case LogbookError.unsupportedQuery = error else { return XCTFail("\(error)") }
                XCTAssertTrue(error.localizedDescription.contains("NaN"), error.localizedDescription)
            }
        }
        XCTAssertThrowsError(try test.store.query("SELECT missing FROM nowhere", columns: { _ in }, row: { _ in })) { error in
            guard case LogbookError.database(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, test.store.path)
            XCTAssertTrue(error.localizedDescription.hasPrefix(test.store.path + ": no such table: nowhere"), error.localizedDescription)
        }
        let importFile = test.folder.appendingPathComponent("bad.json")
        try Data(#"[{"version":1}]"#.utf8).write(to: importFile)
        XCTAssertThrowsError(try test.store.importRecords(from: FileHandle(forReadingFrom: importFile), file: "bad.json",
                                                          options: ImportOptions())) { error in
            guard case LogbookError.importRefused(let refusal) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(refusal.record, 1)
            XCTAssertEqual(error.localizedDescription, refusal.description)
        }
    }

    // 12. A savepoint that cannot be rolled back says so, and its transaction does not commit.
    func testAFailedSavepointRollbackIsReported() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x)")
        struct Failure: Error {}
        var savepointError: Error?
        XCTAssertThrowsError(try connection.transaction {
            try connection.run("INSERT INTO t VALUES (1)")
            do {
                // The inner work ends the whole transaction, as SQLite does after SQLITE_FULL.
                try connection.savepoint {
                    try connection.execute("ROLLBACK")
                    throw Failure()
                }
            } catch {
                savepointError = error
            }
        }, "the transaction that lost its savepoint does not report success")
        XCTAssertTrue(savepointError is SQLiteError, "the failed rollback is reported, not swallowed: \(String(describing: savepointError))")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM t", as: Int.self), 0)
    }

    func testFunctionsSayWhatSQLiteMayAssume() throws {
        let connection = try Connection(path: ":memory:")
        var calls = 0
        try connection.createFunction("counted", argumentCount: 0) { _ in
            calls += 1
            return .integer(Int64(calls))
        }
        // Not deterministic: evaluated for each row.
        XCTAssertEqual(try connection.scalar("SELECT group_concat(counted()) FROM (SELECT 1 UNION ALL SELECT 2)", as: String.self), "1,2")
        XCTAssertThrowsError(try connection.execute("CREATE TABLE t (x); CREATE INDEX t_counted ON t (x + counted())"),
                             "a function that is not deterministic cannot be used in an index")
        try connection.createFunction("pure", argumentCount: 1, options: [.deterministic, .innocuous]) { $0[0] }
        try connection.execute("CREATE INDEX t_pure ON t (pure(x))")
    }
}
