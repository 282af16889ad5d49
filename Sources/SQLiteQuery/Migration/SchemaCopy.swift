/// A database in memory made with the `CREATE` statements of another one's tables, views,
/// indexes and triggers, without their rows: what a migration can be tried on whatever the file's
/// size (in time that grows with the number of objects: SQLite took 0.6 s for 3,000).
enum SchemaCopy {
    /// A copy of the schema of `connection`'s main database, and the rows of `tables` (small ones: the migration
    /// histories), with its `user_version`. An object SQLite will not make again in memory (a
    /// virtual table of a module this process lacks, a virtual table's own tables, which making it
    /// made) is left out, and whatever needs it fails in the copy as it would in no file.
    static func make(of connection: Connection, withRowsOf tables: [String]) throws -> Connection {
        let copy = try Connection(path: ":memory:")
        try copy.transaction(.immediate) {
            try makeObjects(of: connection, "type = 'table'", in: copy)
            // The rows once the tables are made, before any trigger that could fire on them
            // (another program's audit of the history, which might refuse them).
            let made = try copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE")
            for table in tables {
                made.reset()
                try made.bind(table, at: 1)
                if try made.step() { try copyRows(of: table, from: connection, to: copy) }
            }
            try makeObjects(of: connection, "type <> 'table'", in: copy)
            let userVersion = try connection.scalar("PRAGMA user_version", as: Int.self) ?? 0
            try copy.execute("PRAGMA user_version = \(userVersion)")
        }
        return copy
    }

    /// Makes in `copy` the objects of `connection`'s file that `condition` (SQL on `sqlite_master`)
    /// selects, views before indexes before triggers, each in the order it was made; one SQLite
    /// will not make, or whose text is not UTF-8 (a migration that remakes it refuses it by name),
    /// is left out.
    private static func makeObjects(of connection: Connection, _ condition: String, in copy: Connection) throws {
        let objects = try connection.prepare("""
            SELECT sql FROM sqlite_master
            WHERE \(condition) AND sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY CASE type WHEN 'view' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid
            """)
        while try objects.step() {
            guard let sql = try? objects.column(0, as: String.self) else { continue }
            do {
                try copy.execute(sql)
            } catch is SQLiteError {
                continue
            }
        }
    }

    /// Inserts every row of `table` of `connection`'s file into the same table of `copy`.
    private static func copyRows(of table: String, from connection: Connection, to copy: Connection) throws {
        let rows = try connection.prepare("SELECT * FROM \(table.quotedSQLIdentifier)")
        let placeholders = Array(repeating: "?", count: rows.columnCount).joined(separator: ", ")
        let insert = try copy.prepare("INSERT INTO \(table.quotedSQLIdentifier) VALUES (\(placeholders))")
        while try rows.step() {
            insert.reset()
            try insert.bind((0..<rows.columnCount).map { try rows.column($0, as: DatabaseValue.self) })
            _ = try insert.step()
        }
    }
}
