import Foundation
import SQLiteQuery

/// How many records without an id of each content an import's file held before the one at hand,
/// so that identical records (two blank drafts an app made, the same workout twice in a hand-made
/// file) each get an id of their own, the same at every import of the file
/// (``ContentID/forDay(_:occurrence:)``). Counted in a temporary table, made on first use: memory
/// stays flat whatever the file's size (a dictionary of every content took about 75 bytes a
/// record; helper-70).
struct IDlessOccurrences {
    private let connection: Connection
    /// Whether the temporary table was made.
    private var hasTable = false

    init(in connection: Connection) {
        self.connection = connection
    }

    /// How many records of `kind` with the content whose first copy's id is `content` came
    /// before this one; counts this one.
    mutating func countBefore(_ kind: EarlierRecords.Kind, content: UUID) throws -> Int {
        if !hasTable {
            try connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS logbook_import_occurrences (kind TEXT NOT NULL, content TEXT NOT NULL,
                                                                            seen INTEGER NOT NULL, PRIMARY KEY (kind, content)) WITHOUT ROWID;
                DELETE FROM temp.logbook_import_occurrences;
                """)
            hasTable = true
        }
        let count = try connection.cachedStatement("""
            INSERT INTO temp.logbook_import_occurrences (kind, content, seen) VALUES (?1, ?2, 1)
            ON CONFLICT (kind, content) DO UPDATE SET seen = seen + 1 RETURNING seen - 1
            """)
        defer { count.reset() }
        try count.bind(kind.rawValue, at: 1)
        try count.bind(content, at: 2)
        guard try count.step() else { return 0 }
        let before = try count.column(0, as: Int.self)
        while try count.step() {}
        return before
    }

    /// Drops the temporary table, once the import is done.
    mutating func finish() throws {
        guard hasTable else { return }
        try connection.execute("DROP TABLE IF EXISTS temp.logbook_import_occurrences")
        hasTable = false
    }
}
