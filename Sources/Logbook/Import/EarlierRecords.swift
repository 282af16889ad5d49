import Foundation
import SQLiteQuery

/// The records an import met earlier in its own file, so that a record that comes again is told
/// from one that meets a record stored before the import: the same content again (byte for byte)
/// is skipped, other content refuses the file, whatever the conflict policy (which settles stored
/// records only), so that neither copy is lost in silence.
///
/// A record this import inserted is found by its row key (above the last one when the import
/// began) and read back as it was inserted, as long as nothing changed it. Before anything does (a
/// same-day merge into it), and for every record that met a stored one (skipped, replaced, or
/// merged into another record as an alias), its content is kept in a temporary table: memory stays
/// flat whatever the file's size, and an import of new records writes nothing there.
struct EarlierRecords {
    enum Kind: String {
        case draft, day
    }

    private let connection: Connection
    /// The last row keys of the drafts and of the day records when the import began; nil for a
    /// source that holds each id once (another logbook), where nothing is kept or found.
    private let lastKeys: (draft: Int64, day: Int64)?
    /// Whether the temporary table was made (on first use).
    private var hasTable = false

    /// Tracks the records of a source that may hold an id twice (a file: `true`), or of one that
    /// cannot (another logbook's tables: `false`).
    init(in connection: Connection, sourceMayRepeatIDs: Bool) throws {
        self.connection = connection
        lastKeys = sourceMayRepeatIDs
            ? (try connection.scalar("SELECT coalesce(max(pk), 0) FROM drafts", as: Int64.self) ?? 0,
               try connection.scalar("SELECT coalesce(max(pk), 0) FROM exercise_days", as: Int64.self) ?? 0)
            : nil
    }

    /// Whether the stored record of `kind` with row key `key` was inserted by this import (always
    /// false where the source holds each id once).
    func isInsertedByThisImport(_ kind: Kind, key: Int64) -> Bool {
        guard let lastKeys else { return false }
        return key > (kind == .draft ? lastKeys.draft : lastKeys.day)
    }

    /// Keeps `content` (``content(of:)``) as that of the record of `kind` with `id` that the file
    /// gave first, unless one is kept already.
    mutating func remember(_ kind: Kind, id: UUID, content: String) throws {
        guard lastKeys != nil else { return }
        if !hasTable {
            try connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS logbook_import_records (kind TEXT NOT NULL, id TEXT NOT NULL, content TEXT NOT NULL,
                                                                        PRIMARY KEY (kind, id)) WITHOUT ROWID;
                DELETE FROM temp.logbook_import_records;
                """)
            hasTable = true
        }
        try connection.run("INSERT OR IGNORE INTO temp.logbook_import_records (kind, id, content) VALUES (?, ?, ?)",
                           [.text(kind.rawValue), id.databaseValue, .text(content)])
    }

    /// The content kept for the record of `kind` with `id`, or nil.
    func rememberedContent(_ kind: Kind, id: UUID) throws -> String? {
        guard hasTable else { return nil }
        return try connection.scalar("SELECT content FROM temp.logbook_import_records WHERE kind = ? AND id = ?",
                                     [.text(kind.rawValue), id.databaseValue], as: String.self)
    }

    /// Drops the temporary table, once the import is done.
    mutating func finish() throws {
        guard hasTable else { return }
        try connection.execute("DROP TABLE IF EXISTS temp.logbook_import_records")
        hasTable = false
    }

    /// What tells two drafts of one id apart: the draft's JSON text, as `export` writes it, then
    /// its dates exactly (``exactly(_:)``).
    static func content(of draft: ReleaseDraft) -> String {
        json(draft.writeJSON(to:)) + exactly([draft.submittedAt, draft.createdAt, draft.updatedAt])
    }

    /// What tells two day records of one id apart: the record's JSON text, as `export` writes it,
    /// then its date exactly (``exactly(_:)``).
    static func content(of day: ExerciseDay) -> String {
        json(day.writeJSON(to:)) + exactly([day.date])
    }

    private static func json(_ write: (inout JSONText) -> Void) -> String {
        var json = JSONText()
        write(&json)
        return json.text
    }

    /// `dates` as the bits of their `Double`s: JSON gives them to the microsecond, and two copies
    /// of a record whose dates differ by less are two contents, not one to skip. Zero is one value
    /// whatever its sign (SQLite reads back -0.0 as 0.0).
    private static func exactly(_ dates: [Date?]) -> String {
        dates.map { date in
            date.map { String(($0.timeIntervalSinceReferenceDate == 0 ? 0 : $0.timeIntervalSinceReferenceDate).bitPattern, radix: 16) } ?? "-"
        }.joined(separator: " ")
    }
}
