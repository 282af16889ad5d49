import SQLiteQuery

/// The row key of `exercise_days` up to which the month and year tallies and the period totals
/// count the exercise rows (`tallied_through` in `logbook_settings`, migration 0016). A day above
/// it is *waiting*: saved by a small write (``ExerciseTallies/apply(in:)``), counted in its day's
/// totals but not yet in its week's, month's and year's, which reports count from its rows until a
/// later write counts it and moves the mark up to the last day row.
enum TalliedThrough {
    /// The mark's name in `logbook_settings`.
    static let settingName = "tallied_through"

    /// The stored mark as SQL: NULL when the row is missing or holds no row key (another
    /// program's write).
    private static let storedSQL = """
        (SELECT CAST(value AS INTEGER) FROM logbook_settings \
        WHERE name = '\(settingName)' AND typeof(value) = 'text' AND value <> '' AND value NOT GLOB '*[^0-9]*')
        """

    /// The last day row's key as SQL (0 for none).
    private static let lastDaySQL = "(SELECT coalesce(max(pk), 0) FROM exercise_days)"

    /// The stored mark as SQL when it is at most the last day row's key: NULL when it is not
    /// stored, or is above every row key (which another program's deletion of the last day rows
    /// leaves, and another program's write over days that waited too: the write that counts the
    /// waiting days tells them apart, ``ExerciseTallies/countWaitingDays(in:)``).
    static let storedWithinRowsSQL = "(SELECT stored FROM (SELECT \(storedSQL) AS stored) WHERE stored <= \(lastDaySQL))"

    /// The mark as SQL: without a stored one, the last day row, as ``read(in:)`` takes it.
    static let sql = "coalesce(\(storedSQL), \(lastDaySQL))"

    /// The most row keys a small save may leave above the mark, so the most days that may wait; a
    /// save that would leave more counts them all.
    static let waitingRowKeyLimit: Int64 = 256

    /// ``read(in:)``'s statement, built once: its text stays at one address, where the statement
    /// cache finds it without hashing it (a save of one day reads it).
    private static let readSQL = "SELECT \(storedSQL), \(lastDaySQL)"

    /// The mark, nil when the row is missing or holds no row key (another program's write): then
    /// no day may be left waiting, as nothing tells which days the tallies count; and the last
    /// day row's key.
    static func read(in connection: Connection) throws -> (mark: Int64?, lastDay: Int64) {
        let statement = try connection.cachedStatement(readSQL)
        defer { statement.reset() }
        _ = try statement.step()
        return (try statement.column(0), try statement.column(1))
    }

    /// Moves the mark to the last day row, once every day has been counted (and writes it again
    /// when another program removed or changed it).
    static func advance(in connection: Connection) throws {
        try connection.run("""
            INSERT OR REPLACE INTO logbook_settings (name, value)
            SELECT '\(settingName)', \(lastDaySQL)
            WHERE (SELECT value FROM logbook_settings WHERE name = '\(settingName)')
                  IS NOT CAST(\(lastDaySQL) AS TEXT)
            """)
    }
}
