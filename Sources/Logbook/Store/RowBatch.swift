import SQLiteQuery

/// One SQL statement applied to many rows in few executions: the text `prefix`, then the row
/// template once per row, separated by commas, then `suffix`. A multi-row `VALUES` or `IN (…)`
/// list, so that the derived data a bulk write adds costs SQLite one statement per
/// ``rowsPerStatement`` rows instead of one per row (measured with the C API: 9,400 instructions
/// per row of `exercise_day_totals` one at a time, 5,900 in statements of 50).
///
/// The texts (a statement of each power-of-two number of rows up to the full batch, so that a
/// save of a few rows writes them in one or two statements, not one a row) are built once, so each
/// use finds its cached statement by the text's address. Instances are meant to be `static let`s.
struct RowBatch {
    /// The rows one full statement takes (a power of two).
    static let rowsPerStatement = 32

    /// The parameters (`?`) each row binds.
    let parametersPerRow: Int
    /// The statement for 2^k rows at index k: 1, 2, 4, … ``rowsPerStatement`` rows.
    private let texts: [String]

    /// A batch of `prefix` + `row` (repeated, comma-separated) + `suffix`; `row` holds
    /// `parametersPerRow` unnumbered parameters (`?`), bound row by row in order.
    init(_ prefix: String, row: String, parametersPerRow: Int, _ suffix: String = "") {
        self.parametersPerRow = parametersPerRow
        texts = sequence(first: 1) { $0 < Self.rowsPerStatement ? $0 * 2 : nil }.map { count in
            "\(prefix) \(Array(repeating: row, count: count).joined(separator: ", ")) \(suffix)"
        }
    }

    /// Runs the statement over `rows`, in statements of the largest power-of-two number of rows
    /// left (at most ``rowsPerStatement``): for each execution, `bind` binds each of its rows from
    /// `firstParameter` on, then `use` runs it (by default to completion); the statement is reset
    /// after.
    func run<Rows: Collection>(_ rows: Rows, in connection: Connection,
                               bind: (_ row: Rows.Element, _ statement: Statement, _ firstParameter: Int) throws -> Void,
                               use: (Statement) throws -> Void = { try $0.execute() }) throws {
        var remaining = rows[...]
        while !remaining.isEmpty {
            let size = texts.indices.last { 1 << $0 <= remaining.count } ?? 0
            let count = 1 << size
            let statement = try connection.cachedStatement(texts[size])
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
