extension Connection {
    /// `PRAGMA integrity_check`: `["ok"]` for a sound file, else one line per problem.
    public func integrityCheck() throws -> [String] {
        let statement = try prepare("PRAGMA integrity_check")
        var lines: [String] = []
        while try statement.step() { lines.append(try statement.column(0)) }
        return lines
    }

    /// `PRAGMA foreign_key_check`, one line per foreign key that rows violate, naming the rows by
    /// the parent key they hold (the first three by their quoted text, so that one state reads the
    /// same whatever order a table's rows are in): `exercises: 2 rows refer to exercise_days pk 7, 9,
    /// which are gone`.
    /// (The pragma itself gives no row for a `WITHOUT ROWID` table.)
    public func foreignKeyViolations() throws -> [String] {
        let check = try prepare("PRAGMA foreign_key_check")
        var keys: [(table: String, parent: String, id: Int64)] = []
        while try check.step() {
            let key = (table: try check.column(0, as: String.self), parent: try check.column(2, as: String.self),
                       id: try check.column(3, as: Int64.self))
            if !keys.contains(where: { $0 == key }) { keys.append(key) }
        }
        return try keys.map { key in
            let columns = try foreignKeyColumns(of: key.table, id: key.id)
            let missing = "(\(columns.map { "\"\($0.from)\"" }.joined(separator: ", "))) NOT IN "
                + "(SELECT \(columns.map { "\"\($0.to)\"" }.joined(separator: ", ")) FROM \"\(key.parent)\")"
            let count = try scalar("SELECT count(*) FROM \"\(key.table)\" WHERE \(missing)", as: Int.self) ?? 0
            let examples = try prepare("""
                SELECT DISTINCT \(columns.map { "quote(\"\($0.from)\")" }.joined(separator: " || ', ' || "))
                FROM \"\(key.table)\" WHERE \(missing) ORDER BY 1 LIMIT 4
                """)
            var parents: [String] = []
            while try examples.step() { parents.append(try examples.column(0)) }
            let separator = columns.count == 1 ? ", " : "; "
            let shown = parents.prefix(3).joined(separator: separator) + (parents.count > 3 ? separator + "…" : "")
            return "\(key.table): \(count) \(count == 1 ? "row refers" : "rows refer") to \(key.parent) "
                + "\(columns.map(\.to).joined(separator: ", ")) \(shown), which \(parents.count == 1 ? "is" : "are") gone"
        }
    }

    /// The child and parent columns of foreign key `id` of `table`, in order.
    private func foreignKeyColumns(of table: String, id: Int64) throws -> [(from: String, to: String)] {
        let statement = try prepare("SELECT \"from\", coalesce(\"to\", 'rowid') FROM pragma_foreign_key_list(?) WHERE id = ? ORDER BY seq")
        try statement.bind(table, at: 1)
        try statement.bind(id, at: 2)
        var columns: [(from: String, to: String)] = []
        while try statement.step() { columns.append((try statement.column(0), try statement.column(1))) }
        return columns
    }

    /// What the main file's header says is wrong with the file itself (not an SQLite database, cut
    /// short, a size that is not a whole number of pages, text stored as UTF-16, which
    /// ``validateTextIsStoredAsUTF8()`` refuses); empty when nothing is.
    public func fileProblems() -> [String] {
        let header = DatabaseFileHeader.problems(of: self)
        guard header.isEmpty, let encoding = try? textEncodingProblem() else { return header }
        return [encoding]
    }
}
