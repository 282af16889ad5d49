import SQLiteQuery

/// What ``Logbook/repair(dryRun:)`` changed (or, for a dry run, would change).
public struct RepairReport: Sendable, Equatable {
    /// One line per kind of change, for people: "recomputed 3 keys", …; empty when all was well.
    public var changes: [String]
}

extension Logbook {
    /// Puts right, in one transaction, what other programs' writes can leave inconsistent: removes
    /// rows whose parent is gone, renumbers positions that are not 1…n (keeping their order),
    /// recomputes every key, and recounts every tally and day total. The database passes
    /// ``check()`` after it (unless the file itself is damaged). A dry run reports and writes nothing.
    @discardableResult
    public func repair(dryRun: Bool = false) throws -> RepairReport {
        RepairReport(changes: try database.write(dryRun: dryRun) { try DerivedDataAudit.repair(in: $0).lines })
    }
}
