/// Where a change feed stopped: the logbook it came from, a position in that logbook's change log,
/// and the highest row key of a day record then, written `LOGBOOK-ID:POSITION:DAY-MARK`. Give it
/// to the next ``Logbook/changes(since:_:)`` to get what changed after it.
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

    /// A token for `position` in the log of the logbook `logbookID`, when the highest row key of
    /// a day record was `dayMark`.
    public init(logbookID: String, position: Int64, dayMark: Int64?) {
        self.logbookID = logbookID
        self.position = position
        self.dayMark = dayMark
    }

    /// Reads `LOGBOOK-ID:POSITION:DAY-MARK` (or an older token's `LOGBOOK-ID:POSITION`); nil for
    /// any other text.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, !parts[0].isEmpty, let position = Int64(parts[1]), position >= 0 else { return nil }
        var dayMark: Int64?
        if parts.count == 3 {
            guard let mark = Int64(parts[2]), mark >= 0 else { return nil }
            dayMark = mark
        }
        self.init(logbookID: String(parts[0]), position: position, dayMark: dayMark)
    }

    /// `LOGBOOK-ID:POSITION:DAY-MARK` (`LOGBOOK-ID:POSITION` without a day mark).
    public var description: String { "\(logbookID):\(position)" + (dayMark.map { ":\($0)" } ?? "") }
}
