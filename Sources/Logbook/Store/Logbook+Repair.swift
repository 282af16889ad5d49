import SQLiteQuery

/// What `Logbook.repair(dryRun:)` changed (or, for a dry run, would change).
public struct RepairReport: Sendable, Equatable {
    /// One line per kind of change, for people: "recomputed 3 keys", …; empty when all was well.
    public var changes: [String]
}

extension Logbook {
    /// Puts right, in one transaction, what other programs' writes can leave inconsistent: removes
    /// rows whose parent is gone, renumbers positions that are not 1…n (keeping their order),
    /// recomputes every key, and recounts every tally and day total. The database passes
    /// `check()` after it (unless the file itself is damaged). A dry run reports and writes nothing.
    ///
    /// Throws ``LogbookError/repairRefused(path:problems:)``, writing nothing, while a row holds a
    /// value Logbook cannot read (``CheckReport/storedValueProblems``): those need a person.
    @discardableResult
    public func repair(dryRun: Bool = false) throws -> RepairReport {
        RepairReport(changes: try database.write(dryRun: dryRun) { connection in
            let unreadable = try StoredValueAudit.problems(in: connection)
            guard unreadable.isEmpty else { throw LogbookError.repairRefused(path: path, problems: unreadable) }
            return try DerivedDataAudit.repair(in: connection).lines
        })
    }
}
