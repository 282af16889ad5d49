/// A column that records are read from, with the kind of value a row must hold there to be read:
/// what an audit of another program's writes checks (see `Logbook.check()`).
public struct StoredColumn: Sendable, Hashable {
    /// The table.
    public let table: String
    /// The column.
    public let column: String
    /// The kind of value a row must hold in the column to be read.
    public let kind: ValueKind
    /// Whether NULL is a value (nil) rather than a defect.
    public let isOptional: Bool
    /// The columns that name one row of `table` for people: its row key, or its parent's row key
    /// and its position.
    public let rowColumns: [String]

    /// A column that a table description does not declare (a lookup table's key), with the kind of
    /// value its rows must hold.
    public init(table: String, column: String, kind: ValueKind, isOptional: Bool = false, rowColumns: [String]) {
        self.table = table
        self.column = column
        self.kind = kind
        self.isOptional = isOptional
        self.rowColumns = rowColumns
    }

    /// The columns among `columns` of `table`, whose rows are named by `rowColumns`.
    static func all<Record>(in table: String, _ columns: [ColumnMapping<Record>], rowColumns: [String]) -> [StoredColumn] {
        columns.map { mapping in
            StoredColumn(table: table, column: mapping.name, kind: mapping.kind, isOptional: mapping.isOptional,
                         rowColumns: rowColumns)
        }
    }
}

extension TableDescription {
    /// Every column a record of this table is read from, its identity first, then those of its
    /// owned child tables.
    public var storedColumns: [StoredColumn] {
        StoredColumn.all(in: name, columns, rowColumns: [rowKey]) + children.flatMap(\.storedColumns)
    }
}
