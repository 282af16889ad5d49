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
            SELECT name, sql FROM sqlite_master
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, rowid
            """)
        // By name as SQLite tells names apart, by bytes (Swift's `String` would merge NFC and NFD twins).
        var made = Set<[UInt8]>()
        try copy.transaction(.immediate) {
            while try objects.step() {
                let (name, sql): (String, String) = (try objects.column(0), try objects.column(1))
                do {
                    try copy.execute(sql)
                    made.insert(Array(name.sqlNameKey.utf8))
                } catch is SQLiteError {
                    continue
                }
            }
            for table in tables where made.contains(Array(table.sqlNameKey.utf8)) {
                let rows = try connection.prepare("SELECT * FROM \(table.quotedSQLIdentifier)")
                let placeholders = Array(repeating: "?", count: rows.columnCount).joined(separator: ", ")
                let insert = try copy.prepare("INSERT INTO \(table.quotedSQLIdentifier) VALUES (\(placeholders))")
                while try rows.step() {
                    insert.reset()
                    try insert.bind((0..<rows.columnCount).map { try rows.column($0, as: DatabaseValue.self) })
                    _ = try insert.step()
                }
            }
            let userVersion = try connection.scalar("PRAGMA user_version", as: Int.self) ?? 0
            try copy.execute("PRAGMA user_version = \(userVersion)")
        }
        return copy
    }
}
