import SQLiteQuery

extension Database {
    /// Runs `body` in a write transaction that commits, or for a dry run is rolled back once
    /// `body` has returned: the result says what would be written, and nothing is.
    func write<Result>(dryRun: Bool, _ body: (Connection) throws -> Result) throws -> Result {
        var result: Result?
        do {
            try write { connection in
                result = try body(connection)
                if dryRun { throw DryRunRollback() }
            }
        } catch is DryRunRollback {}
        guard let result else { preconditionFailure("a write that returned has a result") }
        return result
    }
}

/// Thrown at the end of a dry run so that its transaction rolls back.
private struct DryRunRollback: Error {}
