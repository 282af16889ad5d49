/// How one stored property of a record maps to a column.
///
/// ```swift
/// .column("version", \ReleaseDraft.version, comparisonKey: "version_key")
/// .column("submitted_at", \ReleaseDraft.submittedAt)
/// ```
public struct ColumnMapping<Record>: @unchecked Sendable {
    /// The column's name in the table.
    public let name: String
    /// The property it stores; the query layer resolves predicate key paths through it.
    public let keyPath: PartialKeyPath<Record>
    /// For text, the column that holds the value's ``Swift/String/comparisonKey`` (NFC), which
    /// indexes and comparisons use so that SQL compares the way Swift does.
    public let comparisonKeyColumn: String?
    /// The Swift type of the property, for type checks in the query layer.
    public let valueType: Any.Type
    /// Binds the record's value (and its comparison key, if any) from parameter `index` on.
    let bind: (Record, Statement, Int) throws -> Void

    /// How many parameters ``bind`` fills: two when a comparison key travels with the value.
    var parameterCount: Int { comparisonKeyColumn == nil ? 1 : 2 }

    /// The column names this mapping writes, in binding order.
    var writtenColumns: [String] { [name] + (comparisonKeyColumn.map { [$0] } ?? []) }

    /// A column holding `keyPath`'s value as is.
    public static func column<Value: SQLiteValue>(_ name: String, _ keyPath: KeyPath<Record, Value>) -> ColumnMapping {
        ColumnMapping(name: name, keyPath: keyPath, comparisonKeyColumn: nil, valueType: Value.self) { record, statement, index in
            try statement.bind(record[keyPath: keyPath], at: index)
        }
    }

    /// A text column with a comparison-key column beside it.
    public static func column(_ name: String, _ keyPath: KeyPath<Record, String>,
                              comparisonKey keyColumn: String) -> ColumnMapping {
        ColumnMapping(name: name, keyPath: keyPath, comparisonKeyColumn: keyColumn, valueType: String.self) { record, statement, index in
            let text = record[keyPath: keyPath]
            try statement.bind(text, at: index)
            try statement.bind(text.comparisonKey, at: index + 1)
        }
    }
}
