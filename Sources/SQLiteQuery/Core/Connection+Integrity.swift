import CSQLite

extension Connection {
    /// `PRAGMA integrity_check`: `["ok"]` for a sound file, else one line per problem (a name in
    /// it that is not UTF-8 as ``Statement/schemaText(_:)`` shows it).
    public func integrityCheck() throws -> [String] {
        let statement = try prepare("PRAGMA integrity_check")
        var lines: [String] = []
        while try statement.step() { lines.append(try statement.schemaText(0)) }
        return lines
    }

    /// `PRAGMA foreign_key_check`, one line per foreign key that rows violate, naming the rows by
    /// the parent key they hold (the first three by their quoted text, so that one state reads the
    /// same whatever order a table's rows are in): `exercises: 2 rows refer to exercise_days pk 7, 9,
    /// which are gone`. A parent table that is gone, and a table whose foreign keys SQLite cannot
    /// check (a parent key that is not unique: "foreign key mismatch"), are said so, table by table.
    /// (The pragma itself gives no row for a `WITHOUT ROWID` table.) A table or parent whose name is
    /// not UTF-8 (another program's) is checked too, by SQLite's own copy of the name, and its
    /// rows are counted, not shown.
    public func foreignKeyViolations() throws -> [String] {
        let tables = try prepare("""
            SELECT rowid, name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid
            """)
        var lines: [String] = []
        while try tables.step() {
            let table = try tables.schemaText(1)
            let exactName = try? tables.column(1, as: String.self)
            var keys: [(parent: String, id: Int64, rows: Int)] = []
            do {
                let check = try prepare("SELECT parent, fkid FROM pragma_foreign_key_check((SELECT name FROM sqlite_master WHERE rowid = ?))")
                try check.bind(try tables.column(0, as: Int64.self), at: 1)
                while try check.step() {
                    let key = (parent: try check.schemaText(0), id: try check.column(1, as: Int64.self))
                    if let index = keys.firstIndex(where: { $0.parent == key.parent && $0.id == key.id }) {
                        keys[index].rows += 1
                    } else {
                        keys.append((key.parent, key.id, 1))
                    }
                }
            } catch let error as SQLiteError where error.primaryCode == SQLITE_ERROR {
                lines.append("\(table): its foreign keys cannot be checked (\(error.message))")
                continue
            }
            for key in keys {
                guard exactName != nil, !key.parent.contains("\u{FFFD}") else {
                    lines.append("\(table): \(key.rows) \(key.rows == 1 ? "row refers" : "rows refer") to \(key.parent), which "
                                 + "\(key.rows == 1 ? "is" : "are") gone (a name that is not UTF-8: the rows are not shown)")
                    continue
                }
                lines.append(try violationLine(table: table, parent: key.parent, id: key.id, rows: key.rows))
            }
        }
        return lines
    }

    /// The line of ``foreignKeyViolations()`` for foreign key `id` of `table`, to `parent`, that
    /// `rows` rows violate.
    private func violationLine(table: String, parent: String, id: Int64, rows: Int) throws -> String {
        let noun = rows == 1 ? "row refers" : "rows refer"
        guard try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE",
                         [.text(parent)], as: Int.self) == 1 else {
            return "\(table): \(rows) \(noun) to \(parent), which the file does not have"
        }
        let columns = try foreignKeyColumns(of: table, id: id)
        let missing = "(\(columns.map(\.from.quotedSQLIdentifier).joined(separator: ", "))) NOT IN "
            + "(SELECT \(columns.map(\.to.quotedSQLIdentifier).joined(separator: ", ")) FROM \(parent.quotedSQLIdentifier))"
        let count = try scalar("SELECT count(*) FROM \(table.quotedSQLIdentifier) WHERE \(missing)", as: Int.self) ?? 0
        let examples = try prepare("""
            SELECT DISTINCT \(columns.map { "quote(\($0.from.quotedSQLIdentifier))" }.joined(separator: " || ', ' || "))
            FROM \(table.quotedSQLIdentifier) WHERE \(missing) ORDER BY 1 LIMIT 4
            """)
        var parents: [String] = []
        while try examples.step() { parents.append(try examples.column(0)) }
        let separator = columns.count == 1 ? ", " : "; "
        let shown = parents.prefix(3).joined(separator: separator) + (parents.count > 3 ? separator + "…" : "")
        return "\(table): \(count) \(count == 1 ? "row refers" : "rows refer") to \(parent) "
            + "\(columns.map(\.to).joined(separator: ", ")) \(shown), which \(parents.count == 1 ? "is" : "are") gone"
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
