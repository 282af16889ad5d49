import Foundation
import LogbookTestSupport
import XCTest
import SQLiteQuery

/// The table layer is general: a SwiftData-style `Note` with `Tag`s in a many-to-many relationship,
/// which is no part of Logbook, needs only a migration and table descriptions.
final class NoteTagTableTests: XCTestCase {
    typealias Tag = NoteTagModel.Tag
    typealias Note = NoteTagModel.Note
    static let migration = NoteTagModel.migration
    static let tags = NoteTagModel.tags
    static let notes = NoteTagModel.notes

    private var folder: TemporaryFolder!
    private var database: Database!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("notes")
        database = try Database(path: folder.file("notes.sqlite").path, migrator: try Migrator(migrations: [Self.migration]))
    }

    override func tearDownWithError() throws {
        database = nil
        folder = nil
    }

    func testManyToManyInsertFetchFilterUpdateAndCascade() throws {
        let swift = Tag(id: UUID(), name: "swift")
        let sqlite = Tag(id: UUID(), name: "sqlite")
        let ideas = Tag(id: UUID(), name: "ideas")
        let first = Note(id: UUID(), title: "Predicates", createdAt: Date(timeIntervalSinceReferenceDate: 1),
                         tags: [swift, sqlite])
        let second = Note(id: UUID(), title: "Cafe\u{301}", createdAt: Date(timeIntervalSinceReferenceDate: 2),
                          tags: [ideas, swift, swift])
        let third = Note(id: UUID(), title: "Untagged", createdAt: Date(timeIntervalSinceReferenceDate: 3), tags: [])
        try database.write { connection in
            for note in [first, second, third] { try Self.notes.insert(note, in: connection) }
        }

        try database.read { connection in
            XCTAssertEqual(try Self.notes.fetchOne(identity: second.id, in: connection), second)
            XCTAssertEqual(try Self.notes.fetchAll(orderBy: "notes.created_at", in: connection), [first, second, third])
            XCTAssertEqual(try Self.tags.count(in: connection), 3, "a tag shared by notes is stored once")

            // Filter through the relationship: notes tagged "swift", newest first.
            let tagged = try Self.notes.fetchAll(
                where: "EXISTS (SELECT 1 FROM note_tags JOIN tags ON tags.pk = note_tags.tag_pk "
                    + "WHERE note_tags.note_pk = notes.pk AND tags.name = ?)",
                arguments: [.text("swift")], orderBy: "notes.created_at DESC", in: connection)
            XCTAssertEqual(tagged.map(\.id), [second.id, first.id])

            // Titles compare as Swift strings: the NFC key finds the NFD title, which is kept as given.
            let cafe = try Self.notes.fetchAll(where: "notes.title_key = ?", arguments: [.text("Caf\u{E9}")], in: connection)
            XCTAssertEqual(cafe.map(\.id), [second.id])
            XCTAssertEqual(Array(cafe[0].title.utf8), Array("Cafe\u{301}".utf8))

            // The one declaration also serves #Predicate and SortDescriptor: fields by key path,
            // text compared as Swift compares it (through title_key), no schema written twice.
            let cutoff = Date(timeIntervalSinceReferenceDate: 2.5)
            let swiftly = try Self.notes.fetch(FetchDescriptor(
                predicate: #Predicate<Note> { $0.title == "Caf\u{E9}" || $0.createdAt > cutoff },
                sortBy: [SortDescriptor(\.createdAt, order: .reverse)]), in: connection)
            XCTAssertEqual(swiftly.map(\.id), [third.id, second.id])
            XCTAssertEqual(swiftly.last?.tags, [ideas, swift, swift])
            XCTAssertEqual(Self.notes.querySchema.fieldNames, ["id", "title", "createdAt"])

            // Paging keeps the children of exactly the fetched page.
            let page = try Self.notes.fetchAll(orderBy: "notes.created_at", limit: 1, offset: 1, in: connection)
            XCTAssertEqual(page, [second])
        }

        // Update: rename a tag through a note, reorder and drop links.
        var renamed = first
        renamed.tags = [Tag(id: sqlite.id, name: "SQLite")]
        _ = try database.write { try Self.notes.upsert(renamed, in: $0) }
        try database.read { connection in
            XCTAssertEqual(try Self.notes.fetchOne(identity: first.id, in: connection)?.tags, [Tag(id: sqlite.id, name: "SQLite")])
            XCTAssertEqual(try Self.tags.count(in: connection), 3, "dropping a link keeps the tag")
        }

        // Deleting a note deletes its links, never its tags; deleting a tag unlinks it everywhere.
        try database.write { connection in
            XCTAssertTrue(try Self.notes.delete(identity: second.id, in: connection))
            XCTAssertFalse(try Self.notes.delete(identity: second.id, in: connection))
            XCTAssertEqual(try connection.scalar("SELECT count(*) FROM note_tags", as: Int.self), 1)
            XCTAssertTrue(try Self.tags.delete(identity: sqlite.id, in: connection))
        }
        try database.read { connection in
            XCTAssertEqual(try Self.notes.fetchOne(identity: first.id, in: connection)?.tags, [])
            XCTAssertEqual(try Self.tags.count(in: connection), 2)
            XCTAssertEqual(try connection.scalar("SELECT count(*) FROM pragma_foreign_key_check", as: Int.self), 0)
        }
    }

    /// Records whose children are selected one parent at a time (a condition with a subquery, an
    /// order no index holds): every record with its own children in order, also while another
    /// fetch of the same table runs between two records of the cursor, on the same connection and
    /// its same cached statements; a cursor left early leaves the connection usable.
    func testFetchesOneParentAtATimeKeepEveryRecordsChildren() throws {
        let tags = (0..<7).map { Tag(id: UUID(), name: "tag \($0)") }
        let count = 2_345
        let notes = (0..<count).map { index in
            Note(id: UUID(), title: "note \(index)", createdAt: Date(timeIntervalSinceReferenceDate: Double(index)),
                 tags: (0..<(index % 5)).map { tags[(index + $0) % tags.count] })
        }
        try database.write { connection in for note in notes { try Self.notes.insert(note, in: connection) } }
        try database.read { connection in
            let expected = notes.filter { $0.tags.count != 2 }.reversed()
            XCTAssertEqual(try Self.notes.fetchAll(where: "(SELECT count(*) FROM note_tags WHERE note_pk = notes.pk) != 2",
                                                   orderBy: "notes.created_at DESC", in: connection), Array(expected))
            let cursor = try Self.notes.cursor(Self.notes.page(orderBy: "notes.created_at"), in: connection)
            for (index, note) in notes.prefix(1_010).enumerated() {
                XCTAssertEqual(try cursor.next(), note)
                if index % 100 == 0 {
                    XCTAssertEqual(try Self.notes.fetchAll(where: "notes.title = ?", arguments: [.text("note \(count - 1 - index)")],
                                                           orderBy: "notes.created_at", in: connection), [notes[count - 1 - index]])
                }
            }
        }
        try database.read { connection in XCTAssertEqual(try Self.notes.count(in: connection), count) }
    }

    func testUpdateOfMissingRecordThrowsAndInsertOfDuplicateFails() throws {
        let note = Note(id: UUID(), title: "x", createdAt: Date(), tags: [])
        XCTAssertThrowsError(try database.write { try Self.notes.update(note, in: $0) }) { error in
            XCTAssertEqual(error as? RecordNotFound, RecordNotFound(table: "notes", identity: note.id.uuidString))
        }
        _ = try database.write { try Self.notes.insert(note, in: $0) }
        XCTAssertThrowsError(try database.write { try Self.notes.insert(note, in: $0) }) { error in
            XCTAssertEqual((error as? SQLiteError)?.code, 2067 /* SQLITE_CONSTRAINT_UNIQUE */)
        }
        var changed = note
        changed.title = "changed"
        _ = try database.write { try Self.notes.update(changed, in: $0) }
        XCTAssertEqual(try database.read { try Self.notes.fetchOne(identity: note.id, in: $0) }?.title, "changed")
    }

    func testStatementsAreCachedAcrossOperations() throws {
        let notes = (0..<50).map { Note(id: UUID(), title: "n\($0)", createdAt: Date(), tags: [Tag(id: UUID(), name: "t\($0)")]) }
        try database.write { connection in
            try Self.notes.insert(notes[0], in: connection)
            let afterFirst = connection.cachedStatementCount
            for note in notes.dropFirst() { try Self.notes.insert(note, in: connection) }
            XCTAssertEqual(connection.cachedStatementCount, afterFirst, "inserting more notes prepares nothing new")
        }
    }
}

extension NoteTagTableTests {
    /// An upsert that updates (even of the row inserted just before) replaces the children; one
    /// that inserts adds them without deleting anything.
    func testUpsertReplacesChildrenOfAnExistingRowOnly() throws {
        let tag = Tag(id: UUID(), name: "a")
        var note = Note(id: UUID(), title: "n", createdAt: Date(), tags: [tag, tag])
        _ = try database.write { try Self.notes.upsert(note, in: $0) }
        note.tags = [Tag(id: UUID(), name: "b")]
        _ = try database.write { try Self.notes.upsert(note, in: $0) }
        _ = try database.write { try Self.notes.upsert(note, in: $0) }
        XCTAssertEqual(try database.read { try Self.notes.fetchOne(identity: note.id, in: $0) }?.tags, note.tags)
    }
}

extension NoteTagTableTests {
    /// A fetch's statements are cached together under its page's SQL: running it again with other
    /// values reads the new values' records; the same fetch inside a walk of itself (its cached
    /// statements being stepped) reads through statements of its own; and a description of the
    /// same table without the collection does not get the statements that read it.
    func testCachedFetchStatementsFollowValuesNestingAndTheDescription() throws {
        let tags = (0..<4).map { Tag(id: UUID(), name: "t\($0)") }
        let notes = (0..<12).map { index in
            Note(id: UUID(), title: "n\(index)", createdAt: Date(timeIntervalSinceReferenceDate: Double(index)),
                 tags: Array(tags.prefix(index % 5)))
        }
        try database.write { connection in for note in notes { try Self.notes.insert(note, in: connection) } }
        func after(_ cutoff: Double) -> FetchDescriptor<Note> {
            let instant = Date(timeIntervalSinceReferenceDate: cutoff)
            return FetchDescriptor(predicate: #Predicate<Note> { $0.createdAt > instant }, sortBy: [SortDescriptor(\.createdAt)])
        }
        try database.read { connection in
            for cutoff in [-1.0, 5.5, 3.5, 20, 0.5] {
                XCTAssertEqual(try Self.notes.fetch(after(cutoff), in: connection),
                               notes.filter { $0.createdAt.timeIntervalSinceReferenceDate > cutoff }, "after \(cutoff)")
            }
            let statementsBefore = connection.cachedStatementCount
            _ = try Self.notes.fetch(after(2), in: connection)
            XCTAssertEqual(connection.cachedStatementCount, statementsBefore, "the same fetch with another value prepares nothing")

            let outer = try Self.notes.cursor(Self.notes.page(try Self.notes.querySchema.query(for: after(1)),
                                                              schema: Self.notes.querySchema, in: connection), in: connection)
            var walked: [Note] = []
            while let note = try outer.next() {
                walked.append(note)
                let inner = try Self.notes.fetch(after(note.createdAt.timeIntervalSinceReferenceDate + 5), in: connection)
                XCTAssertEqual(inner, notes.filter { $0.createdAt > note.createdAt.addingTimeInterval(5) })
            }
            XCTAssertEqual(walked, Array(notes.dropFirst(2)), "the walk is not disturbed by the fetches inside it")

            let untagged = TableDescription<Note>(
                "notes", identity: .column("id", \.id),
                columns: [.column("title", \.title, comparisonKey: "title_key"), .column("created_at", \.createdAt)],
                decode: { Note(id: try $0.column(0), title: try $0.column(1), createdAt: try $0.column(2), tags: []) })
            // A shape neither description ran yet, first without the collection, then with it.
            let newestFirst = FetchDescriptor<Note>(predicate: #Predicate { $0.title != "" }, sortBy: [SortDescriptor(\.createdAt, order: .reverse)])
            XCTAssertEqual(try untagged.fetch(newestFirst, in: connection),
                           notes.reversed().map { Note(id: $0.id, title: $0.title, createdAt: $0.createdAt, tags: []) })
            XCTAssertEqual(try Self.notes.fetch(newestFirst, in: connection), notes.reversed())
        }
    }
}
