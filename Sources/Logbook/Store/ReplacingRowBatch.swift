import SQLiteQuery

/// Rows written to a table of derived data, each replacing the stored row of its key if there is
/// one, in ``RowBatch``es that SQLite runs without a statement journal while no stored row is met.
///
/// SQLite keeps a statement journal for a statement that may write several rows and may abort
/// half-way, so as to undo that statement alone. A multi-row `INSERT OR REPLACE` into a table with
/// `CHECK` constraints is one (under `REPLACE` a `CHECK` fails as `ABORT`), and once a statement's
/// journal outgrows 64 KiB SQLite keeps it in a temporary file for the rest of the transaction: a
/// bulk save of a million exercises wrote to that file about 100,000 times (*Performance*).
/// `INSERT OR FAIL … ON CONFLICT DO NOTHING` never aborts (a failed `CHECK` stops the statement,
/// whose error then rolls back the write it is part of), so it needs no journal. A batch that met a
/// stored row (it inserted fewer rows than it was given) is written again as `INSERT OR REPLACE`,
/// which leaves what that alone would have left. A single row is written as `INSERT OR REPLACE`
/// at once: a statement of one row needs no statement journal.
struct ReplacingRowBatch {
    private let insertUnlessStored: RowBatch
    private let replace: RowBatch

    /// A batch writing rows of `columns` (each bound as one parameter) to `table`.
    init(into table: String, columns: [String]) {
        let (columnList, row) = (columns.joined(separator: ", "), "(\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
        insertUnlessStored = RowBatch("INSERT OR FAIL INTO \(table) (\(columnList)) VALUES", row: row, parametersPerRow: columns.count,
                                      "ON CONFLICT DO NOTHING")
        replace = RowBatch("INSERT OR REPLACE INTO \(table) (\(columnList)) VALUES", row: row, parametersPerRow: columns.count)
    }

    /// Writes `rows`, binding each as ``RowBatch/run(_:in:bind:use:)`` does.
    func run<Rows: Collection>(_ rows: Rows, in connection: Connection,
                               bind: (_ row: Rows.Element, _ statement: Statement, _ firstParameter: Int) throws -> Void) throws {
        guard rows.count > 1 else { return try replace.run(rows, in: connection, bind: bind) }
        var inserted = 0
        try insertUnlessStored.run(rows, in: connection, bind: bind) { statement in
            try statement.execute()
            inserted += connection.changes
        }
        if inserted < rows.count { try replace.run(rows, in: connection, bind: bind) }
    }
}
