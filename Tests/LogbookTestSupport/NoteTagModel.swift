import Foundation
import SQLiteQuery

/// A SwiftData-style `Note` with `Tag`s in a many-to-many relationship, no part of Logbook: the
/// test model that shows a record type of one's own needs one migration and one declaration each.
public enum NoteTagModel {
    public struct Tag: Sendable, Equatable, Codable {
        public var id: UUID
        public var name: String
        public init(id: UUID = UUID(), name: String) { self.id = id; self.name = name }
    }

    public struct Note: Sendable, Equatable, Codable {
        public var id: UUID
        public var title: String
        public var createdAt: Date
        public var tags: [Tag]
        public init(id: UUID = UUID(), title: String, createdAt: Date, tags: [Tag] = []) {
            self.id = id; self.title = title; self.createdAt = createdAt; self.tags = tags
        }
    }

    public static let migration = Migration(version: 1, name: "create_notes", sql: """
        CREATE TABLE notes (
            pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, title_key TEXT NOT NULL,
            created_at REAL NOT NULL);
        CREATE TABLE tags (pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
        CREATE TABLE note_tags (
            note_pk INTEGER NOT NULL REFERENCES notes (pk) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            tag_pk INTEGER NOT NULL REFERENCES tags (pk) ON DELETE CASCADE,
            PRIMARY KEY (note_pk, position)) WITHOUT ROWID;
        CREATE INDEX note_tags_by_tag ON note_tags (tag_pk);
        """)

    public static let tags = TableDescription<Tag>(
        "tags", identity: .column("id", \.id), columns: [.column("name", \.name)],
        decode: { Tag(id: try $0.column(0), name: try $0.column(1)) })

    public static let notes = TableDescription<Note>(
        "notes", identity: .column("id", \.id),
        columns: [.column("title", \.title, comparisonKey: "title_key"), .column("created_at", \.createdAt)],
        children: [LinkedChildren(\Note.tags, through: "note_tags", parentColumn: "note_pk", elementColumn: "tag_pk",
                                  elementTable: tags)],
        decode: { Note(id: try $0.column(0), title: try $0.column(1), createdAt: try $0.column(2), tags: []) })
}
