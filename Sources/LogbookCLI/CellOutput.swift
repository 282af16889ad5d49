import Logbook

/// Rows to stdout in any `--format`: a table for people, JSON/NDJSON/CSV for scripts (each row's
/// cells made, and written, on a thread of their own: ``BackgroundRowWriter``).
struct CellOutput<Row: SizedRow> {
    private var table: TableWriter?
    private var rows: BackgroundRowWriter<Row>?
    private let cells: @Sendable (Row) -> [Cell]

    /// An output of `columns` in `format`, each row written as the cells `cells` makes of it.
    init(columns: [String], format: OutputFormat, cells: @escaping @Sendable (Row) -> [Cell]) throws {
        // A JSON object with a member twice is read differently by each reader (most keep the
        // last; Logbook's import refuses it), so two columns of one name cannot be written as one.
        if format.dataFormat == .json || format.dataFormat == .ndjson,
           let name = columns.enumerated().first(where: { column in columns[..<column.offset].contains { $0.utf8.elementsEqual(column.element.utf8) } })?.element {
            throw CommandFailure("two columns are named '\(name)', which a JSON object cannot hold twice; name them apart with AS")
        }
        self.cells = cells
        if let data = format.dataFormat {
            rows = try BackgroundRowWriter(RowStreamWriter(format: data, columns: columns, writingBytes: Console.write(bytes:)), cells: cells)
        } else {
            table = TableWriter(header: columns)
        }
    }

    mutating func add(_ row: Row) throws {
        try rows?.add(row)
        try table?.add(cells(row).map { $0 == .null ? "-" : $0.plainText })
    }

    mutating func finish() throws {
        try rows?.finish()
        try table?.finish()
    }
}

extension CellOutput where Row == [Cell] {
    /// An output of rows given as their cells.
    init(columns: [String], format: OutputFormat) throws {
        try self.init(columns: columns, format: format) { $0 }
    }
}
