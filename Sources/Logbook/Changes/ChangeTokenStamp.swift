import Foundation
import SQLiteQuery

/// The stamp of a ``ChangeToken`` (``ChangeToken/stamp``): eight hexadecimal digits for the
/// change-log entry at the token's position (its sequence number, kind, row key, id and time) and
/// eight for the id of the day record at its day mark, each a 32-bit FNV-1a hash. A file restored
/// from a backup reaches the position again with entries of other times, or gives the row key to
/// another day, and the token no longer matches it.
enum ChangeTokenStamp {
    /// The stamp of the file as it is now, for a token at `position` and `dayMark`.
    static func make(position: Int64, dayMark: Int64, in connection: Connection) throws -> String {
        try entryPart(position, in: connection) + dayPart(dayMark, in: connection)
    }

    /// Throws ``LogbookError/changeTokenRefused(_:reason:)`` when `token`'s stamp does not match the
    /// file: its position's entry is another (the log was rolled back and written again), or the
    /// day record at its day mark is another and the log since holds no entry for the one the token
    /// saw (its deletion, or its id changed), which the feed would then send: a file restored from a
    /// backup lost that day without a word, and any later change, even a deletion of another day
    /// that logs a lower day mark, says nothing of it. A token without a stamp (`ID:POSITION:MARK`,
    /// written before stamps) is checked only where it can be: a day mark above every day record's
    /// row key, which no deletion since explains, is refused too (the days that come to take the
    /// row keys up to it would never be sent).
    static func check(_ token: ChangeToken, in connection: Connection) throws {
        guard let mark = token.dayMark else { return }
        let restored = "; was the file restored from a backup? Start again from a full export ('logbook export … --format postgres', "
            + "or 'logbook changes' without --since)"
        if let stamp = token.stamp {
            // (A token made when its position held no entry yet, a new log's, is answered by what
            // comes there.)
            let entry = stamp.prefix(8)
            guard try entry == hash("") || entry == entryPart(token.position, in: connection) else {
                throw LogbookError.changeTokenRefused(token.description, reason: "this logbook's change log holds another entry at "
                                                      + "position \(token.position) than the one the token was made at" + restored)
            }
            let seenDay = stamp.suffix(8)
            guard try seenDay != dayPart(mark, in: connection) && !isDayLogged(hashed: seenDay, since: token.position, in: connection) else {
                return
            }
            throw LogbookError.changeTokenRefused(token.description, reason: "the day record at row key \(mark) is not the one the "
                                                  + "token saw, and the change log since says nothing of that one" + restored)
        }
        let highest = try UnloggedDayChanges.dayMark(in: connection)
        guard mark > highest else { return }
        let explained = try connection.scalar("""
            SELECT EXISTS (SELECT 1 FROM change_log WHERE seq > ?1 AND ((kind = 'day' AND pk = ?2) OR day_mark < ?2))
            """, [.integer(token.position), .integer(mark)], as: Bool.self) ?? false
        guard explained else {
            throw LogbookError.changeTokenRefused(token.description, reason: "its day mark \(mark) is above every day record's row key "
                                                  + "(the highest is \(highest)), and no change since says why" + restored)
        }
    }

    /// Whether the change log holds an entry after `position` for a day record whose id hashes to
    /// `hashed` (``dayPart(_:in:)``'s hash): the feed since `position` sends that record, as it is
    /// now or as deleted.
    private static func isDayLogged(hashed: Substring, since position: Int64, in connection: Connection) throws -> Bool {
        let entries = try connection.cachedStatement("SELECT quote(id) FROM change_log WHERE seq > ? AND kind = 'day' ORDER BY seq")
        defer { entries.reset() }
        try entries.bind(position, at: 1)
        while try entries.step() {
            if hash(try entries.column(0, as: String.self)) == hashed { return true }
        }
        return false
    }

    /// The hash of the change-log entry at `position` (of nothing when there is none).
    private static func entryPart(_ position: Int64, in connection: Connection) throws -> String {
        // Quoted by SQLite: whatever another program stored there, it hashes.
        let entry = "SELECT quote(seq) || '|' || quote(kind) || '|' || quote(pk) || '|' || quote(id) || '|' || quote(at) "
            + "FROM change_log WHERE seq = ?"
        return hash(try connection.scalar(entry, [.integer(position)], as: String.self) ?? "")
    }

    /// The hash of the id of the day record with row key `dayMark` (of nothing when there is none).
    private static func dayPart(_ dayMark: Int64, in connection: Connection) throws -> String {
        hash(try connection.scalar("SELECT quote(id) FROM exercise_days WHERE pk = ?", [.integer(dayMark)], as: String.self) ?? "")
    }

    /// The FNV-1a hash of `text`'s UTF-8 bytes, as eight lowercase hexadecimal digits.
    private static func hash(_ text: String) -> String {
        let digits = String(FNV1a.hash(text.utf8), radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
