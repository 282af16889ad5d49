import SQLiteQuery

/// One SQL statement applied to many rows in few executions: the text `prefix`, then the row
/// template once per row, separated by commas, then `suffix`. A multi-row `VALUES` or `IN (…)`
/// list, so that the derived data a bulk write adds costs SQLite one statement per
/// ``rowsPerStatement`` rows instead of one per row (measured with the C API: 9,400 instructions
/// per row of `exercise_day_totals` one at a time, 5,900 in statements of 50).
///
/// Both texts (a full batch and a single row, for the rest) are built once, so each use finds its
/// cached statement by the text's address. Instances are meant to be `static let`s.
struct RowBatch {
    /// The rows one full statement takes.
    static let rowsPerStatement = 32

    /// The parameters (`?`) each row binds.
    let parametersPerRow: Int
    private let fullText: String
    private let singleText: String

    /// A batch of `prefix` + `row` (repeated, comma-separated) + `suffix`; `row` holds
    /// `parametersPerRow` unnumbered parameters (`?`), bound row by row in order.
    init(_ prefix: String, row: String, parametersPerRow: Int, _ suffix: String = "") {
        self.parametersPerRow = parametersPerRow
        fullText = "\(prefix) \(Array(repeating: row, count: Self.rowsPerStatement).joined(separator: ", ")) \(suffix)"
        singleText = "\(prefix) \(row) \(suffix)"
    }

    /// Runs the statement over `rows`: for each execution, `bind` binds each of its rows from
    /// `firstParameter` on, then `use` runs it (by default to completion); the statement is reset
    /// after.
    func run<Rows: Collection>(_ rows: Rows, in connection: Connection,
                               bind: (_ row: Rows.Element, _ statement: Statement, _ firstParameter: Int) throws -> Void,
                               use: (Statement) throws -> Void = { try $0.execute() }) throws {
        var remaining = rows[...]
        while !remaining.isEmpty {
            let count = remaining.count >= Self.rowsPerStatement ? Self.rowsPerStatement : 1
            let statement = try connection.cachedStatement(count == 1 ? singleText : fullText)
            defer { statement.reset() }
            var parameter = 1
            for row in remaining.prefix(count) {
                try bind(row, statement, parameter)
                parameter += parametersPerRow
            }
            try use(statement)
            remaining = remaining.dropFirst(count)
        }
    }
}
