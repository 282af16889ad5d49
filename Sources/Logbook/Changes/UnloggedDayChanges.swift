import Foundation
import SQLiteQuery

/// The changes of day records that no trigger logs (migration 0010), found when the feed is read:
/// days stored after a token, by row key; exercise rows another program added to a stored day, by
/// the day's exercise count against its `exercise_day_totals` row. Logbook keeps that second way
/// sound by logging every day before it recounts the day's totals.
enum UnloggedDayChanges {
    /// The days whose exercise rows may have changed without an entry: marked stale, or with a
    /// count of exercise rows other than their totals row's (every change but an insert marks the
    /// day stale; Logbook's own inserts keep the totals equal). Columns `pk`, `id`.
    private static let miscountedDays = """
        SELECT d.pk, d.id FROM exercise_days AS d
        WHERE d.day IN (SELECT day FROM exercise_tallies_stale) OR \(ExerciseTallies.isMiscounted("d"))
        ORDER BY d.pk
        """

    /// Logs the days marked stale: called before a recount clears the marks and makes the totals
    /// equal to the rows again, which would hide exercise rows another program added to them.
    static func logStaleDays(in connection: Connection) throws {
        try connection.run("""
            INSERT INTO change_log (kind, pk, id)
            SELECT 'day', d.pk, d.id FROM exercise_tallies_stale AS s CROSS JOIN exercise_days AS d ON d.day = s.day ORDER BY d.pk
            """)
    }

    /// Logs the day with row key `dayKey`, as the day row's update trigger does: for a change to its
    /// exercise rows that leaves the row itself as it was (``AppendedExercisesCount``).
    static func logDay(dayKey: Int64, in connection: Connection) throws {
        try connection.run("INSERT INTO change_log (kind, pk, id) SELECT 'day', pk, id FROM exercise_days WHERE pk = ?", [.integer(dayKey)])
    }

    /// Logs every day whose rows may have changed without an entry: called before all totals are
    /// recounted (`logbook repair`).
    static func logMiscountedDays(in connection: Connection) throws {
        try connection.run("INSERT INTO change_log (kind, pk, id) SELECT 'day', pk, id FROM (\(miscountedDays))")
    }

    /// The row key above which every day changed since `token` without an entry: the token's day
    /// mark, or a lower mark logged since, when days were deleted. Nil when `token` has no day
    /// mark and is newer than the entry migration 0010 left: it cannot be answered.
    static func bound(since token: ChangeToken, in connection: Connection) throws -> Int64? {
        if token.dayMark == nil {
            // Only the migration's own entry (row key 0) vouches that every earlier day was logged.
            guard try connection.scalar("SELECT EXISTS (SELECT 1 FROM change_log WHERE seq >= ? AND pk = 0 AND day_mark IS NOT NULL)",
                                        [.integer(token.position)], as: Bool.self) == true else { return nil }
        }
        // Marks logged after the token: a deletion since may let a new day take a row key at or
        // under the token's mark. The entry the token stops at came before its mark was taken, so
        // it counts only for a token without one (counting it made a token that stopped at the
        // migration's entry, of mark 0, send every day again on every run).
        let loggedMark = try connection.scalar("SELECT min(day_mark) FROM change_log WHERE seq \(token.dayMark == nil ? ">=" : ">") ?",
                                               [.integer(token.position)], as: Int64?.self) ?? nil
        return [token.dayMark, loggedMark].compactMap({ $0 }).min()
    }

    /// Calls `body` with the id of each day changed without an entry that no entry from `position`
    /// on names, in row-key order: the days above `bound`, then, when the totals do not account
    /// for every exercise row, the miscounted days at or under it. Which days the entries name,
    /// SQLite keeps (a temporary index for `NOT IN`), not memory.
    static func forEachDay(above bound: Int64, unnamedByEntriesFrom position: Int64, in connection: Connection,
                           _ body: (UUID) throws -> Void) throws {
        let unnamed = """
            upper(d.id) NOT IN (SELECT upper(id) FROM (\(Logbook.namedChangeLogEntries)) WHERE kind <> 'draft' AND id IS NOT NULL)
            """
        try forEachID("SELECT d.id FROM exercise_days AS d WHERE d.pk > ?2 AND \(unnamed) ORDER BY d.pk",
                      position: position, bound: bound, in: connection, body)
        if try !ExerciseTallies.areCurrent(in: connection) {
            try forEachID("SELECT d.id FROM (\(miscountedDays)) AS d WHERE d.pk <= ?2 AND \(unnamed) ORDER BY d.pk",
                          position: position, bound: bound, in: connection, body)
        }
    }

    private static func forEachID(_ sql: String, position: Int64, bound: Int64, in connection: Connection,
                                  _ body: (UUID) throws -> Void) throws {
        let statement = try connection.prepare(sql)
        try statement.bind(position, at: 1)
        try statement.bind(bound, at: 2)
        // Text that is no UUID (another program's) names no record the feed can give, as in the log.
        while try statement.step() {
            if let id = UUID(text: try statement.column(0, as: String.self)) { try body(id) }
        }
    }

    /// The highest row key of a day record now: the day mark of a token read now.
    static func dayMark(in connection: Connection) throws -> Int64 {
        try connection.scalar("SELECT coalesce(max(pk), 0) FROM exercise_days", as: Int64.self) ?? 0
    }
}
