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
    /// day record at its day mark is another and no change since says why (a change of that row,
    /// or a deletion, which logs a lower day mark). A token without a stamp (`ID:POSITION:MARK`,
    /// written before stamps) is checked only where it can be: a day mark above every day record's
    /// row key, which no deletion since explains, is refused too (the days that come to take the
    /// row keys up to it would never be sent).
    static func check(_ token: ChangeToken, in connection: Connection) throws {
        guard let mark = token.dayMark else { return }
        let restored = "; was the file restored from a backup? Start again from a full export ('logbook export … --format postgres', "
            + "or 'logbook changes' without --since)"
        let unexplained: String
        if let stamp = token.stamp {
            // (A token made when its position held no entry yet, a new log's, is answered by what
            // comes there.)
            let entry = stamp.prefix(8)
            guard try entry == hash("") || entry == entryPart(token.position, in: connection) else {
                throw LogbookError.changeTokenRefused(token.description, reason: "this logbook's change log holds another entry at "
                                                      + "position \(token.position) than the one the token was made at" + restored)
            }
            guard stamp.suffix(8) != (try dayPart(mark, in: connection)) else { return }
            unexplained = "the day record at row key \(mark) is not the one the token saw"
        } else {
            let highest = try UnloggedDayChanges.dayMark(in: connection)
            guard mark > highest else { return }
            unexplained = "its day mark \(mark) is above every day record's row key (the highest is \(highest))"
        }
        let explained = try connection.scalar("""
            SELECT EXISTS (SELECT 1 FROM change_log WHERE seq > ?1 AND ((kind = 'day' AND pk = ?2) OR day_mark < ?2))
            """, [.integer(token.position), .integer(mark)], as: Bool.self) ?? false
        guard explained else {
            throw LogbookError.changeTokenRefused(token.description, reason: unexplained + ", and no change since says why" + restored)
        }
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
