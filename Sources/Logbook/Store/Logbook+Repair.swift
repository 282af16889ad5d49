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
    /// `check()` after it. A dry run reports and writes nothing.
    ///
    /// Throws ``LogbookError/damaged(path:reason:)``, writing nothing, when SQLite's integrity
    /// check finds the file itself damaged (an index out of step with its table, a page gone bad;
    /// not a row that breaks a `CHECK` or `NOT NULL`), which no recount puts right and which can
    /// make a recount read wrong rows: it said "nothing to repair" there, and `check` still failed
    /// (helper-49). Throws ``LogbookError/repairRefused(path:problems:)``, writing nothing,
    /// while a row holds a value Logbook cannot read (``CheckReport/storedValueProblems``): those
    /// need a person.
    @discardableResult
    public func repair(dryRun: Bool = false) throws -> RepairReport {
        RepairReport(changes: try database.write(dryRun: dryRun) { connection in
            // A row that breaks its table's CHECK or NOT NULL (a derived row another program wrote)
            // is for the recount below, or for a person when a record holds it; the rest is damage.
            let damage = try connection.integrityCheck().filter {
                $0 != "ok" && !$0.hasPrefix("CHECK constraint failed in ") && !$0.hasPrefix("NULL value in ")
            }
            if let first = damage.first {
                throw LogbookError.damaged(path: path, reason: "SQLite's integrity check fails: \(first.prefix(200))"
                                            + (damage.count > 1 ? " and \(damage.count - 1) more" : "")
                                            + "; repair recounts what other programs' writes leave inconsistent, not damaged pages")
            }
            let unreadable = try StoredValueAudit.problems(in: connection)
            guard unreadable.isEmpty else { throw LogbookError.repairRefused(path: path, problems: unreadable) }
            return try DerivedDataAudit.repair(in: connection).lines
        })
    }
}
