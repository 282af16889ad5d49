import SQLiteQuery

/// The row key of `exercise_days` up to which the month and year tallies and the period totals
/// count the exercise rows (`tallied_through` in `logbook_settings`, migration 0016). A day above
/// it is *waiting*: saved by a small write (``ExerciseTallies/apply(in:)``), counted in its day's
/// totals but not yet in its week's, month's and year's, which reports count from its rows until a
/// later write counts it and moves the mark up to the last day row.
enum TalliedThrough {
    /// The mark as SQL: a missing row (a file whose setting another program deleted) counts as the
    /// last day row, as it was in every file before the migration.
    static let sql = """
        coalesce((SELECT CAST(value AS INTEGER) FROM logbook_settings WHERE name = 'tallied_through'), \
        (SELECT max(pk) FROM exercise_days), 0)
        """

    /// The most days that may wait; a write that would leave more counts them all.
    static let waitingLimit = 256

    /// The mark, and the last day row's key.
    static func read(in connection: Connection) throws -> (mark: Int64, lastDay: Int64) {
        let statement = try connection.cachedStatement("SELECT \(sql), (SELECT coalesce(max(pk), 0) FROM exercise_days)")
        defer { statement.reset() }
        _ = try statement.step()
        return (try statement.column(0), try statement.column(1))
    }

    /// Moves the mark to the last day row, once every day has been counted.
    static func advance(in connection: Connection) throws {
        try connection.run("""
            INSERT OR REPLACE INTO logbook_settings (name, value)
            SELECT 'tallied_through', (SELECT coalesce(max(pk), 0) FROM exercise_days)
            WHERE \(sql) IS NOT (SELECT coalesce(max(pk), 0) FROM exercise_days)
            """)
    }
}
