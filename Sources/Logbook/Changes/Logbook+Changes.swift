import Foundation
import SQLiteQuery

/// The change feed: what changed since a ``ChangeToken``, read from the change log that triggers
/// keep for every writer (migrations 0009 and 0010) and from the inserted days no trigger logs
/// (``UnloggedDayChanges``), so that another database (PostgreSQL, another tool) can follow this
/// logbook with exactly what changed.
extension Logbook {
    /// How long the change log keeps entries when `change_log_retention_days` is not set.
    public static let defaultChangeLogRetentionDays = 90

    /// This logbook's id: a UUID made once when the file was created (or migrated to schema 8), kept
    /// by every copy of the file. It names the logbook in change tokens and PostgreSQL exports.
    public func logbookID() throws -> String {
        try database.read { try Self.logbookID(in: $0) }
    }

    /// Calls `body` with every record changed since `token`, in commit order, each once with its
    /// state now (or its deletion), and returns the token to give next time. Without a token,
    /// every record is a change (a full snapshot), drafts first.
    ///
    /// All of it is read in one read transaction: a consistent snapshot, whatever other
    /// connections and processes write meanwhile. Changes that commit after the snapshot come with
    /// the next token. The record the token stopped at is read again each time (its later changes
    /// may be logged under the same entry), so a feed may repeat a record; applying changes is
    /// idempotent. Throws ``LogbookError/changeTokenRefused(_:reason:)`` for another logbook's
    /// token, one older than the change log keeps (`changeLogRetentionDays()`), or one the file no
    /// longer matches because it was restored from a backup (its stamp: ``ChangeToken/stamp``):
    /// start again without a token.
    @discardableResult
    public func changes(since token: ChangeToken?, _ body: (LoggedChange) throws -> Void) throws -> ChangeToken {
        try database.read { connection in
            let (id, start) = (try Self.logbookID(in: connection), try Self.changeLogStart(in: connection))
            let end = try Self.changeToken(in: connection)
            guard let token else {
                try snapshot(in: connection, position: end.position, body)
                return end
            }
            guard token.logbookID == id else {
                let reason = token.logbookID.lowercased() == id.lowercased()
                    ? "its logbook id differs from this logbook's, \(id), in letter case only: give the token as it was printed"
                    : "it is from logbook \(token.logbookID), and this one is \(id)"
                throw LogbookError.changeTokenRefused(token.description, reason: reason)
            }
            guard token.position >= start else {
                throw LogbookError.changeTokenRefused(token.description, reason: "the change log keeps entries from position "
                                                      + "\(start) (\(try Self.retentionDays(in: connection)) days); \(Self.startAgain)")
            }
            guard token.position <= end.position else {
                throw LogbookError.changeTokenRefused(token.description, reason: "it is ahead of this logbook's change log "
                                                      + "(newest position \(end.position)): was the file restored from a backup?")
            }
            try ChangeTokenStamp.check(token, in: connection)
            guard let unloggedBound = try UnloggedDayChanges.bound(since: token, in: connection) else {
                throw LogbookError.changeTokenRefused(token.description, reason: "it has no day mark and is newer than this "
                                                      + "logbook's change log answers without one; \(Self.startAgain)")
            }
            try changes(in: connection, from: token.position, unloggedDaysAbove: unloggedBound, at: end.position, body)
            return end
        }
    }

    /// The way out of a token the log no longer answers: a feed of every record, which also
    /// records its token where a PostgreSQL load keeps it (an export records none, so the refused
    /// token would stay there).
    private static let startAgain = "start again with every record: 'logbook changes' without a token (no --since, or an "
        + "empty one; with --state, delete the file)"

    /// The token of the change log as it is now: what a feed read now would end with.
    func changeTokenNow() throws -> ChangeToken {
        try database.read { try Self.changeToken(in: $0) }
    }

    /// The token of the change log as `connection` reads it.
    private static func changeToken(in connection: Connection) throws -> ChangeToken {
        let newest = try connection.scalar("SELECT max(seq) FROM change_log", as: Int64?.self) ?? nil
        let (position, dayMark) = (try newest ?? changeLogStart(in: connection), try UnloggedDayChanges.dayMark(in: connection))
        return ChangeToken(logbookID: try logbookID(in: connection), position: position, dayMark: dayMark,
                           stamp: try ChangeTokenStamp.make(position: position, dayMark: dayMark, in: connection))
    }

    /// The days the change log keeps an entry (`change_log_retention_days`, by default
    /// ``defaultChangeLogRetentionDays``). Older entries are pruned after the store's first write
    /// that commits a change; a token older than them is refused.
    public func changeLogRetentionDays() throws -> Int {
        try database.read { try Self.retentionDays(in: $0) }
    }

    /// The setting in `logbook_settings` that holds the change log's retention, in days.
    static let retentionSettingName = "change_log_retention_days"

    /// The days a retention setting's `text` gives, or nil when it is not a whole number of days,
    /// 1 or more, written as ``setChangeLogRetention(days:)`` writes it (`abc`, `0`, `-3`, `007`,
    /// stored by another program): the log then keeps ``defaultChangeLogRetentionDays``, and
    /// `check` names the setting.
    static func retentionDays(fromSetting text: String) -> Int? {
        guard let days = Int(text), days >= 1, String(days) == text else { return nil }
        return days
    }

    /// Sets how many days the change log keeps an entry (at least 1), pruning what is older now.
    public func setChangeLogRetention(days: Int) throws {
        guard days >= 1 else {
            throw LogbookError.invalidValue(field: "retention", value: String(days), reason: "the change log keeps at least 1 day")
        }
        try database.write { connection in
            try connection.run("INSERT OR REPLACE INTO logbook_settings (name, value) VALUES (?, ?)",
                               [.text(Self.retentionSettingName), .text(String(days))])
            try Self.pruneChangeLog(in: connection, now: Date())
        }
    }

    /// Deletes the change-log entries older than the retention, keeping the log a contiguous run
    /// of positions ending with the newest entry, and records the first position kept. Reads
    /// first and writes only when the oldest entry has expired, or is stamped ahead of SQLite's
    /// clock, which stamps the entries (written under a clock set ahead, it held back every
    /// entry after it; helper-77). The store runs it as the
    /// housekeeping after its first write that commits a change (``Database``), so opening a
    /// file, a dry run, a command that fails and an edit that changes nothing never prune; a
    /// write that changes only a temporary table (an import that adds nothing) does.
    static func pruneChangeLogIfNeeded(in connection: Connection, now: Date) throws {
        let cutoff = try cutoff(in: connection, now: now)
        guard try connection.scalar("SELECT at < ?1 OR NOT \(stampedByNow) FROM change_log ORDER BY seq LIMIT 1",
                                    [.real(cutoff)], as: Bool.self) == true else {
            return
        }
        try pruneChangeLog(in: connection, now: now)
    }

    /// Whether an entry's stamp is no later than SQLite's clock now (the clock that stamps the
    /// entries; a second more for the rounding of a Julian day).
    private static let stampedByNow = "at <= (julianday('now') - 2451910.5) * 86400 + 1"

    /// The log is kept from its first entry stamped within the retention and not ahead of the
    /// clock on (the newest at the latest): an entry stamped by a clock set ahead no longer
    /// holds the rest back (with one day kept, entries 70 days old stayed; helper-77), and one
    /// stamped by a clock set back, later in the log, cannot cut entries before it that are still
    /// kept (helper-78). The scan stops at that first entry.
    private static func pruneChangeLog(in connection: Connection, now: Date) throws {
        guard let firstKept = try connection.scalar("""
            SELECT coalesce((SELECT min(seq) FROM change_log WHERE at >= ?1 AND \(stampedByNow)), (SELECT max(seq) FROM change_log))
            """, [.real(try cutoff(in: connection, now: now))], as: Int64?.self) ?? nil
        else { return }
        try connection.run("DELETE FROM change_log WHERE seq < ?", [.integer(firstKept)])
        try connection.run("INSERT OR REPLACE INTO logbook_settings (name, value) VALUES ('change_log_start', ?)",
                           [.text(String(firstKept))])
    }

    /// The time (seconds since 2001) before which entries have expired at `now`.
    private static func cutoff(in connection: Connection, now: Date) throws -> Double {
        now.timeIntervalSinceReferenceDate - Double(try retentionDays(in: connection)) * 86_400
    }

    private static func retentionDays(in connection: Connection) throws -> Int {
        let text = try connection.scalar("SELECT value FROM logbook_settings WHERE name = ?", [.text(retentionSettingName)], as: String.self)
        return text.flatMap(retentionDays(fromSetting:)) ?? defaultChangeLogRetentionDays
    }

    private static func changeLogStart(in connection: Connection) throws -> Int64 {
        try connection.scalar("SELECT value FROM logbook_settings WHERE name = 'change_log_start'", as: String.self)
            .flatMap { Int64($0) } ?? 1
    }

    static func logbookID(in connection: Connection) throws -> String {
        guard let id = try connection.scalar("SELECT value FROM logbook_settings WHERE name = 'logbook_id'", as: String.self) else {
            throw LogbookError.damaged(path: connection.path, reason: "logbook_settings has no logbook_id")
        }
        return id
    }

    /// Every record as a change, at `position`: drafts, then days, each in the order stored.
    private func snapshot(in connection: Connection, position: Int64, _ body: (LoggedChange) throws -> Void) throws {
        let drafts = try Tables.drafts.cursor(Tables.drafts.page(), in: connection)
        while let draft = try drafts.next() { try body(LoggedChange(position: position, change: .draft(draft))) }
        let days = try Tables.exerciseDays.cursor(Tables.exerciseDays.page(), in: connection)
        while let day = try days.next() { try body(LoggedChange(position: position, change: .day(day))) }
    }

    /// The change-log entries from position `?1` on with the id of the record each names, `seq`,
    /// `kind`, `id`: an entry without an id (a checklist or exercise row's) names its record by row
    /// key, and a record deleted since has a later entry with its id, so one whose row is gone
    /// names none (`id` NULL).
    static let namedChangeLogEntries = """
        SELECT seq, kind, coalesce(id, CASE kind WHEN 'draft' THEN (SELECT id FROM drafts WHERE pk = change_log.pk)
                                                 ELSE (SELECT id FROM exercise_days WHERE pk = change_log.pk) END) AS id
        FROM change_log WHERE seq >= ?1
        """

    /// The records named by entries from `position` on, each once at its newest entry, in the
    /// order of those entries; then the days above `unloggedBound` (and those miscounted) that no
    /// entry named, at `end`. SQLite groups and orders the entries, in a sorter that spills to a
    /// temporary file, so memory stays flat however many records changed (a dictionary of them
    /// held 256 MB after 1,000,000 edits; helper-31).
    private func changes(in connection: Connection, from position: Int64, unloggedDaysAbove unloggedBound: Int64, at end: Int64,
                         _ body: (LoggedChange) throws -> Void) throws {
        // An id that is not text (another program's) fails the feed before it sends anything, as
        // it did when every entry was read first: grouped by `upper()`, it would join the text
        // form of its record's id, and fail only when its entry came last (helper-33).
        let unreadable = try connection.prepare("""
            SELECT id FROM (\(Self.namedChangeLogEntries)) WHERE typeof(id) NOT IN ('text', 'null') LIMIT 1
            """)
        try unreadable.bind(position, at: 1)
        if try unreadable.step() { _ = try unreadable.column(0, as: String.self) }
        // Grouped as `UUID(text:)` reads an id, in either letter case.
        let entries = try connection.prepare("""
            SELECT max(seq) AS newest, kind = 'draft', id FROM (\(Self.namedChangeLogEntries))
            WHERE id IS NOT NULL GROUP BY kind = 'draft', upper(id) ORDER BY newest
            """)
        try entries.bind(position, at: 1)
        while try entries.step() {
            // Text that is no UUID (another program's) names no record the feed can give.
            guard let id = UUID(text: try entries.column(2, as: String.self)) else { continue }
            try body(LoggedChange(position: try entries.column(0), change: try Self.change(isDraft: try entries.column(1), id: id, in: connection)))
        }
        try UnloggedDayChanges.forEachDay(above: unloggedBound, unnamedByEntriesFrom: position, in: connection) { id in
            try body(LoggedChange(position: end, change: try Self.change(isDraft: false, id: id, in: connection)))
        }
    }

    /// The record with `id` as it is now, or its deletion.
    private static func change(isDraft: Bool, id: UUID, in connection: Connection) throws -> Change {
        isDraft
            ? try Tables.drafts.fetchOne(identity: id, in: connection).map(Change.draft) ?? .draftDeleted(id)
            : try Tables.exerciseDays.fetchOne(identity: id, in: connection).map(Change.day) ?? .dayDeleted(id)
    }
}
