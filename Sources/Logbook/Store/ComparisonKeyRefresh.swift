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
        let current = ComparisonKeyVersion.current
        guard try database.read({ try $0.scalar(storedVersionSQL, as: String.self) }) != current else { return }
        do {
            try database.write { connection in
                // Another process may have done it since the read above.
                guard try connection.scalar(storedVersionSQL, as: String.self) != current else { return }
                try connection.refreshComparisonKeys(columns)
                try ExerciseTallies.recountStaleDays(in: connection)
                try connection.run("INSERT OR REPLACE INTO logbook_settings (name, value) VALUES ('comparison_keys', ?)",
                                   [.text(current)])
            }
        } catch let error as SQLiteError where error.isReadOnly {
            return
        }
    }
}
