/// Where a change feed stopped: the logbook it came from and a position in that logbook's change
/// log, written `LOGBOOK-ID:POSITION`. Give it to the next ``Logbook/changes(since:_:)`` to get
/// what changed after it.
public struct ChangeToken: Sendable, Hashable, CustomStringConvertible, LosslessStringConvertible {
    /// The id of the logbook the feed came from (``Logbook/logbookID()``).
    public let logbookID: String
    /// The newest change-log entry the feed had read.
    public let position: Int64

    /// A token for `position` in the log of the logbook `logbookID`.
    public init(logbookID: String, position: Int64) {
        self.logbookID = logbookID
        self.position = position
    }

    /// Reads `LOGBOOK-ID:POSITION`; nil for any other text.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, let position = Int64(parts[1]), position >= 0 else { return nil }
        self.init(logbookID: String(parts[0]), position: position)
    }

    /// `LOGBOOK-ID:POSITION`.
    public var description: String { "\(logbookID):\(position)" }
}
