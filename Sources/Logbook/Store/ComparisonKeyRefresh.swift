import SQLiteQuery

/// Keeps the `*_key` columns equal to the keys the running Swift computes (see
/// `ComparisonKeyVersion` in SQLiteQuery): the file records in `logbook_settings` (migration 0006)
/// the Unicode version that wrote its keys, and a store that opens it for writing under another
/// version recomputes them, recounts the tallies of the exercises whose keys changed, and records
/// its own version. When the versions agree, opening costs one read of that row.
enum ComparisonKeyRefresh {
    private static let storedVersionSQL = "SELECT value FROM logbook_settings WHERE name = 'comparison_keys'"

    /// Every keyed text column of Logbook's tables.
    static var columns: [ComparisonKeyColumn] {
        Tables.drafts.comparisonKeyColumns + Tables.exerciseDays.comparisonKeyColumns
    }

    /// Recomputes the keys of `database` if another Unicode version wrote them. A file that cannot
    /// be written is left as it is.
    static func refreshIfNeeded(_ database: Database) throws {
        guard try database.read({ try $0.scalar(storedVersionSQL, as: String.self) }) != ComparisonKeyVersion.current else { return }
        do {
            try database.write { try refresh(in: $0) }
        } catch let error as SQLiteError where error.isReadOnly {
            return
        }
    }

    /// Recomputes the keys, inside the write transaction of `connection`, if another Unicode
    /// version wrote them: after migrating, in the migrations' own transaction, so that a file is
    /// migrated with its keys current or not at all (a full disk met by a refresh of its own, after
    /// the migrations committed, failed the command though the file was migrated).
    static func refresh(in connection: Connection) throws {
        let current = ComparisonKeyVersion.current
        // Another process may have done it since a read before the transaction.
        guard try connection.scalar(storedVersionSQL, as: String.self) != current else { return }
        try connection.refreshComparisonKeys(columns)
        try ExerciseTallies.recountStaleDays(in: connection)
        try connection.run("INSERT OR REPLACE INTO logbook_settings (name, value) VALUES ('comparison_keys', ?)", [.text(current)])
    }
}
