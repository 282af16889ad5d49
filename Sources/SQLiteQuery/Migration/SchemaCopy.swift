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
        let objects = try connection.prepare("""
            SELECT type = 'table', name, sql FROM sqlite_master
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, rowid
            """)
        // By name as SQLite tells names apart, by bytes (Swift's `String` would merge NFC and NFD twins).
        var made = Set<[UInt8]>()
        var rowsCopied = false
        try copy.transaction(.immediate) {
            while try objects.step() {
                let (isTable, name, sql): (Bool, String, String) = (try objects.column(0), try objects.column(1), try objects.column(2))
                // The rows once the tables are made, before any trigger that could fire on them
                // (another program's audit of the history, which might refuse them).
                if !isTable && !rowsCopied {
                    try copyRows(of: tables.filter { made.contains(Array($0.sqlNameKey.utf8)) }, from: connection, to: copy)
                    rowsCopied = true
                }
                do {
                    try copy.execute(sql)
                    made.insert(Array(name.sqlNameKey.utf8))
                } catch is SQLiteError {
                    continue
                }
            }
            if !rowsCopied { try copyRows(of: tables.filter { made.contains(Array($0.sqlNameKey.utf8)) }, from: connection, to: copy) }
            let userVersion = try connection.scalar("PRAGMA user_version", as: Int.self) ?? 0
            try copy.execute("PRAGMA user_version = \(userVersion)")
        }
        return copy
    }

    /// Inserts every row of `tables` of `connection`'s file into the same tables of `copy`.
    private static func copyRows(of tables: [String], from connection: Connection, to copy: Connection) throws {
        for table in tables {
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
}
