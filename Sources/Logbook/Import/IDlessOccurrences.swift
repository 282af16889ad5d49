import Foundation
import SQLiteQuery

/// How many records without an id of each content an import's file held before the one at hand,
/// so that identical records (two blank drafts an app made, the same workout twice in a hand-made
/// file) each get an id of their own, the same at every import of the file
/// (``ContentID/forDay(_:occurrence:)``).
///
/// The counts are kept in memory for up to ``countsHeldInMemory`` contents, which every
/// hand-made file of a lifetime's days stays within. Past them they move to a temporary table, in
/// the order of its key (much faster than one by one), with a ``SeenContentsFilter`` that tells
/// almost every new content from one the table holds, without looking: memory stays flat
/// whatever the file's size (a dictionary of every content took about 90 bytes a content, and
/// helper-70 found an import of two million days without ids growing by 150 MB).
struct IDlessOccurrences {
    /// How many contents' counts are held in memory before they move to the temporary table.
    static let countsHeldInMemory = 100_000

    private struct Content: Hashable {
        let kind: EarlierRecords.Kind
        let id: UUID

        /// The id's 16 bytes as two integers, the table's key with the kind: compared faster than
        /// its text.
        var halves: (high: Int64, low: Int64) {
            withUnsafeBytes(of: id.uuid) { ($0.loadUnaligned(as: Int64.self), $0.loadUnaligned(fromByteOffset: 8, as: Int64.self)) }
        }
    }

    private let connection: Connection
    /// The counts of the contents met since the counts last moved to the table: for each, how
    /// many records of it the file held so far, earlier ones in the table included.
    private var recentCounts: [Content: Int] = [:]
    /// The contents the table holds (nil: no table yet).
    private var inTable: SeenContentsFilter?

    init(in connection: Connection) {
        self.connection = connection
    }

    /// How many records of `kind` with the content whose first copy's id is `content` came
    /// before this one; counts this one.
    mutating func countBefore(_ kind: EarlierRecords.Kind, content: UUID) throws -> Int {
        let key = Content(kind: kind, id: content)
        let before = try recentCounts[key] ?? countInTable(key)
        recentCounts[key] = before + 1
        if recentCounts.count >= Self.countsHeldInMemory { try moveRecentCountsToTable() }
        return before
    }

    /// Drops the temporary table, once the import is done.
    mutating func finish() throws {
        recentCounts = [:]
        guard inTable != nil else { return }
        try connection.execute("DROP TABLE IF EXISTS temp.logbook_import_occurrences")
        inTable = nil
    }

    /// The count the table holds for `key`; 0 for a content it does not hold.
    private func countInTable(_ key: Content) throws -> Int {
        let halves = key.halves
        guard let inTable, inTable.mayHold(halves) else { return 0 }
        let find = try connection.cachedStatement("""
            SELECT seen FROM temp.logbook_import_occurrences WHERE high = ?1 AND low = ?2 AND kind = ?3
            """)
        defer { find.reset() }
        try find.bind(halves.high, at: 1)
        try find.bind(halves.low, at: 2)
        try find.bind(key.kind.rawValue, at: 3)
        return try find.step() ? try find.column(0, as: Int.self) : 0
    }

    private mutating func moveRecentCountsToTable() throws {
        if inTable == nil {
            try connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS logbook_import_occurrences (
                    high INTEGER NOT NULL, low INTEGER NOT NULL, kind TEXT NOT NULL, seen INTEGER NOT NULL,
                    PRIMARY KEY (high, low, kind)) WITHOUT ROWID;
                DELETE FROM temp.logbook_import_occurrences;
                """)
            inTable = SeenContentsFilter()
        }
        let write = try connection.cachedStatement("""
            INSERT INTO temp.logbook_import_occurrences (high, low, kind, seen) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (high, low, kind) DO UPDATE SET seen = excluded.seen
            """)
        let counts = recentCounts.map { (halves: $0.key.halves, kind: $0.key.kind, seen: $0.value) }
            .sorted { ($0.halves.high, $0.halves.low, $0.kind.rawValue) < ($1.halves.high, $1.halves.low, $1.kind.rawValue) }
        for count in counts {
            defer { write.reset() }
            try write.bind(count.halves.high, at: 1)
            try write.bind(count.halves.low, at: 2)
            try write.bind(count.kind.rawValue, at: 3)
            try write.bind(count.seen, at: 4)
            while try write.step() {}
            inTable?.add(count.halves)
        }
        recentCounts.removeAll(keepingCapacity: true)
    }
}
