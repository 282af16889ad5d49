extension Connection {
    /// `PRAGMA integrity_check`: `["ok"]` for a sound file, else one line per problem.
    public func integrityCheck() throws -> [String] {
        let statement = try prepare("PRAGMA integrity_check")
        var lines: [String] = []
        while try statement.step() { lines.append(try statement.column(0)) }
        return lines
    }

    /// `PRAGMA foreign_key_check`, one line per row whose parent is missing: `table row N refers to a missing parent row`.
    public func foreignKeyViolations() throws -> [String] {
        let statement = try prepare("PRAGMA foreign_key_check")
        var violations: [String] = []
        while try statement.step() {
            let table: String = try statement.column(0)
            let rowid: Int64? = try statement.column(1)
            let parent: String = try statement.column(2)
            violations.append("\(table) row \(rowid.map(String.init) ?? "?") refers to a missing \(parent) row")
        }
        return violations
    }

    /// What the main file's header says is wrong with the file itself (not an SQLite database, cut
    /// short, a size that is not a whole number of pages); empty when nothing is.
    public func fileProblems() -> [String] {
        DatabaseFileHeader.problems(of: self)
    }
}
