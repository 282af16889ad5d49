import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
import Logbook

/// An app keeps its own record types in the store's file: the Note/Tag model, one declaration
/// each plus a named migration set, beside drafts and days, with the repositories' API.
final class AppTablesTests: XCTestCase {
    private typealias Note = NoteTagModel.Note
    private typealias Tag = NoteTagModel.Tag
    private static let utc = TimeZone(identifier: "UTC")!

    private static let addPinned = Migration(version: 2, name: "add_pinned", sql: "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;")

    private func notesSet(_ migrations: [Migration] = [NoteTagModel.migration]) throws -> Migrator {
        try Migrator(migrations: migrations, set: "notes")
    }

    func testNotesLiveBesideDraftsWithTheRepositoryAPI() async throws {
        let folder = try TemporaryFolder("logbook-app")
        let path = folder.file("app.sqlite").path
        let store = try Logbook(path: path, timeZone: Self.utc, appMigrations: try notesSet())
        let notes = store.records(NoteTagModel.notes)
        let swift = Tag(name: "swift"), ideas = Tag(name: "ideas")
        let first = Note(title: "Predicates", createdAt: Date(timeIntervalSinceReferenceDate: 1), tags: [swift])
        let second = Note(title: "Cafe\u{301}", createdAt: Date(timeIntervalSinceReferenceDate: 2), tags: [ideas, swift])
        try await notes.save(first)
        try await notes.save(second)
        try await store.drafts.save(ReleaseDraft(version: "1.0"))

        let cutoff = Date(timeIntervalSinceReferenceDate: 1.5)
        let recent = try await notes.fetch(FetchDescriptor(predicate: #Predicate<Note> { $0.createdAt > cutoff },
                                                           sortBy: [SortDescriptor(\.title)]))
        XCTAssertEqual(recent.map(\.id), [second.id])
        let byTitle = try await notes.fetch(FetchDescriptor(predicate: #Predicate<Note> { $0.title == "Caf\u{E9}" }))
        XCTAssertEqual(byTitle.map(\.id), [second.id], "text compares as Swift does, through the declared key")
        let fetched = try await notes.fetch(identity: first.id)
        XCTAssertEqual(fetched?.tags, [swift])
        let count = try await notes.fetchCount()
        XCTAssertEqual(count, 2)
        let deleted = try await notes.delete(identity: first.id)
        XCTAssertTrue(deleted)
        let remaining = try await notes.fetchCount(), drafts = try await store.drafts.fetchCount()
        XCTAssertEqual([remaining, drafts], [1, 1])

        // The app's tables are no problem for Logbook's own checks, nor for a Logbook without the app.
        let report = try await store.check()
        XCTAssertTrue(report.isHealthy, "\(report)")
        let plain = try Logbook(path: path, timeZone: Self.utc)
        let plainDrafts = try await plain.drafts.fetchCount()
        XCTAssertEqual(plainDrafts, 1)
        let versions = (try await plain.schemaVersion(), try await store.schemaVersion())
        XCTAssertEqual(versions.0, versions.1)
    }

    @MainActor
    func testALiveQueryOfTheAppsRecordsFollowsCommits() async throws {
        let folder = try TemporaryFolder("logbook-app")
        let store = try Logbook(path: folder.file("app.sqlite").path, timeZone: Self.utc, appMigrations: try notesSet())
        let notes = store.records(NoteTagModel.notes)
        let live = notes.liveCount()
        await live.loaded()
        XCTAssertEqual(live.value, 0)
        try await notes.save(Note(title: "One", createdAt: .now))
        let deadline = ContinuousClock.now + .seconds(10)
        while live.value == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(live.value, 1)
    }

    func testTheAppsSetIsMigratedInOrderAndANewerOneIsRefused() throws {
        let folder = try TemporaryFolder("logbook-app")
        let path = folder.file("app.sqlite").path
        _ = try Logbook(path: path, timeZone: Self.utc, appMigrations: try notesSet())
        let newer = try Logbook(path: path, timeZone: Self.utc, appMigrations: try notesSet([NoteTagModel.migration, Self.addPinned]))
        let recorded = try newer.underlyingDatabase.read { try Migrator.appliedAppMigrations(in: $0) }
        XCTAssertEqual(recorded.map { "\($0.set) \($0.migration.version) \($0.migration.name)" },
                       ["notes 1 create_notes", "notes 2 add_pinned"])
        XCTAssertEqual(try newer.schemaVersion(), try Schema.migrator().latestVersion, "Logbook's own version is its own")

        // The older app, on the file the newer one migrated: refused, the file unchanged.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Logbook(path: path, timeZone: Self.utc, appMigrations: try notesSet())) { error in
            XCTAssertTrue("\(error)".contains("notes 0002_add_pinned"), "\(error)")
            XCTAssertTrue("\(error)".contains("newer version"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)

        // An app migration edited after it ran is refused too.
        let edited = Migration(version: 2, name: "add_pinned", sql: Self.addPinned.sql + " -- edited")
        XCTAssertThrowsError(try Logbook(path: path, timeZone: Self.utc,
                                         appMigrations: try notesSet([NoteTagModel.migration, edited]))) { error in
            XCTAssertTrue("\(error)".contains("was edited"), "\(error)")
        }
        // A set needs a name: an unnamed one would be taken for Logbook's own.
        XCTAssertThrowsError(try Logbook(path: path, timeZone: Self.utc, appMigrations: try Migrator(migrations: [NoteTagModel.migration])))
    }
    /// An app's migrations may reach Logbook's tables (an index on drafts, a trigger on them, rows
    /// copied from them): they run on the file, where those tables are (a look ahead that ran
    /// them alone in memory refused every open; helper-5).
    func testAnAppsMigrationsMayReachLogbooksTables() throws {
        let folder = try TemporaryFolder("logbook-app")
        let path = folder.file("app.sqlite").path
        let store = try Logbook(path: path, timeZone: Self.utc)
        try store.drafts.save(ReleaseDraft(version: "1.0"))
        let reaching = Migration(version: 1, name: "reach", sql: """
            CREATE TABLE draft_notes (version TEXT);
            INSERT INTO draft_notes SELECT version FROM drafts;
            CREATE INDEX drafts_by_app ON drafts (created_at);
            CREATE TRIGGER drafts_deleted_notes AFTER DELETE ON drafts BEGIN DELETE FROM draft_notes WHERE version = OLD.version; END;
            """)
        let app = try Logbook(path: path, timeZone: Self.utc, appMigrations: try Migrator(migrations: [reaching], set: "notes"))
        var copied: [String] = []
        try app.query("SELECT version FROM draft_notes", columns: { _ in }) { copied.append("\($0)") }
        XCTAssertEqual(copied.count, 1)
        XCTAssertTrue(try app.check().isHealthy)
    }

    /// An app migration that clashes with Logbook's own table is named as the app's, with the
    /// clash; one that commits or begins a transaction inside its SQL is refused before it runs a
    /// statement, the file unchanged (a `COMMIT; BEGIN;` in it committed its first half).
    func testAnAppMigrationThatClashesOrEndsItsTransactionIsRefusedChangingNothing() throws {
        let folder = try TemporaryFolder("logbook-app")
        let path = folder.file("app.sqlite").path
        _ = try Logbook(path: path, timeZone: Self.utc)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let clash = Migration(version: 1, name: "create_drafts", sql: "CREATE TABLE drafts (x);")
        XCTAssertThrowsError(try Logbook(path: path, timeZone: Self.utc, appMigrations: try Migrator(migrations: [clash], set: "mine"))) { error in
            XCTAssertTrue("\(error)".contains("of the app's set 'mine'"), "\(error)")
            XCTAssertTrue("\(error)".contains("drafts already exists"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        for sql in ["CREATE TABLE mine (x); COMMIT; BEGIN; CREATE TABLE mine2 (y);", "CREATE TABLE mine (x); SAVEPOINT s; RELEASE s;",
                    "CREATE TABLE mine (x); ROLLBACK;", "BEGIN; CREATE TABLE mine (x); END;"] {
            let ending = Migration(version: 1, name: "create_mine", sql: sql)
            XCTAssertThrowsError(try Logbook(path: path, timeZone: Self.utc, appMigrations: try Migrator(migrations: [ending], set: "mine"))) { error in
                XCTAssertTrue("\(error)".contains("begins or ends a transaction"), "\(sql): \(error)")
            }
            let store = try Logbook(path: path, timeZone: Self.utc)
            var tables: [String] = []
            try store.query("SELECT name FROM sqlite_master WHERE name LIKE 'mine%' OR name = 'app_migrations'", columns: { _ in }) {
                tables.append("\($0)")
            }
            XCTAssertEqual(tables, [], sql)
            XCTAssertTrue(try store.check().isHealthy, sql)
        }
    }
}
