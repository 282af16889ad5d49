/// A text column and the column beside it that holds its ``Swift/String/comparisonKey``.
public struct ComparisonKeyColumn: Sendable, Hashable {
    /// The table that holds both columns.
    public let table: String
    /// The text column.
    public let column: String
    /// The column beside it that holds the text's comparison key.
    public let keyColumn: String

    /// The keyed columns among `columns` of `table`.
    static func all<Record>(in table: String, _ columns: [ColumnMapping<Record>]) -> [ComparisonKeyColumn] {
        columns.compactMap { mapping in
            mapping.comparisonKeyColumn.map { ComparisonKeyColumn(table: table, column: mapping.name, keyColumn: $0) }
        }
    }
}

extension TableDescription {
    /// Every keyed text column of this table and of its owned child tables.
    public var comparisonKeyColumns: [ComparisonKeyColumn] {
        ComparisonKeyColumn.all(in: name, columns) + children.flatMap(\.comparisonKeyColumns)
    }
}

extension Connection {
    /// Recomputes, with the running Swift's Unicode data, every key in `columns` that differs from
    /// the key of its text (keys written under another Unicode version, or by a program that
    /// computed them otherwise). Returns the number of rows changed. Uses `swift_key`, which every
    /// connection registers.
    @discardableResult
    public func refreshComparisonKeys(_ columns: [ComparisonKeyColumn]) throws -> Int {
        var changed = 0
        for column in columns {
            try execute("""
                UPDATE \(column.table) SET \(column.keyColumn) = swift_key(\(column.column))
                WHERE \(column.keyColumn) IS NOT swift_key(\(column.column))
                """)
            changed += self.changes
        }
        return changed
    }
}
