/// Where a change feed stopped: the logbook it came from, a position in that logbook's change log,
/// the highest row key of a day record then, and a stamp of both, written
/// `LOGBOOK-ID:POSITION:DAY-MARK:STAMP`. Give it to the next ``Logbook/changes(since:_:)`` to get
/// what changed after it.
public struct ChangeToken: Sendable, Hashable, CustomStringConvertible, LosslessStringConvertible {
    /// The id of the logbook the feed came from (`logbookID()`).
    public let logbookID: String
    /// The newest change-log entry the feed had read.
    public let position: Int64
    /// The highest row key of a day record when the feed was read: days stored later, by any
    /// program, are above it (inserted rows are not logged; see migration 0010). Nil in a token
    /// written before Logbook kept day marks (`LOGBOOK-ID:POSITION`), which is answered while the
    /// change log still holds the entries from its position on.
    public let dayMark: Int64?
    /// Sixteen hexadecimal digits that fingerprint the change-log entry at ``position`` (its
    /// time, to the millisecond) and the id of the day record at ``dayMark``, as they were: a file
    /// restored from a backup, whose log reaches the position again with other entries, or whose
    /// row keys go to other days, is told from the file the token came from. Nil in a token
    /// written before Logbook kept stamps, which is answered without that check.
    public let stamp: String?

    /// A token for `position` in the log of the logbook `logbookID`, when the highest row key of
    /// a day record was `dayMark`, with the ``stamp`` of the two.
    public init(logbookID: String, position: Int64, dayMark: Int64?, stamp: String? = nil) {
        self.logbookID = logbookID
        self.position = position
        self.dayMark = dayMark
        self.stamp = stamp
    }

    /// Reads `LOGBOOK-ID:POSITION:DAY-MARK:STAMP` (or an older token's `LOGBOOK-ID:POSITION:DAY-MARK`
    /// or `LOGBOOK-ID:POSITION`); nil for any other text.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...4).contains(parts.count), !parts[0].isEmpty, let position = Int64(parts[1]), position >= 0 else { return nil }
        var dayMark: Int64?
        if parts.count >= 3 {
            guard let mark = Int64(parts[2]), mark >= 0 else { return nil }
            dayMark = mark
        }
        var stamp: String?
        if parts.count == 4 {
            guard parts[3].utf8.count == 16, parts[3].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
            stamp = String(parts[3])
        }
        self.init(logbookID: String(parts[0]), position: position, dayMark: dayMark, stamp: stamp)
    }

    /// `LOGBOOK-ID:POSITION:DAY-MARK:STAMP` (without the parts the token lacks).
    public var description: String {
        "\(logbookID):\(position)" + (dayMark.map { ":\($0)" + (stamp.map { ":\($0)" } ?? "") } ?? "")
    }
}
