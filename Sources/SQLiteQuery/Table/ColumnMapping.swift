/// How one stored property of a record maps to a column, and what the property is to queries.
///
/// ```swift
/// .column("version", \ReleaseDraft.version, comparisonKey: "version_key")
/// .column("submitted_at", \ReleaseDraft.submittedAt)      // queried as "submittedAt"
/// ```
///
/// The field's name, the one `--where` filters and sorts use, is the column's in camelCase
/// (`submitted_at` → `submittedAt`) unless given.
public struct ColumnMapping<Record>: @unchecked Sendable {
    /// The column's name in the table.
    public let name: String
    /// The property it stores; the query layer resolves predicate key paths through it.
    public let keyPath: PartialKeyPath<Record>
    /// For text, the column that holds the value's ``Swift/String/comparisonKey`` (NFC), which
    /// indexes and comparisons use so that SQL compares the way Swift does.
    public let comparisonKeyColumn: String?
    /// The name queries use for the property.
    public let fieldName: String
    /// How queries compare the value (text, integer, date, …).
    public let kind: ValueKind
    /// Whether the property is optional, stored as NULL for nil.
    public let isOptional: Bool
    /// Binds the record's value (and its comparison key, if any) from parameter `index` on.
    @usableFromInline let bind: (Record, Statement, Int) throws -> Void

    /// How many parameters ``bind`` fills: two when a comparison key travels with the value.
    @usableFromInline var parameterCount: Int { comparisonKeyColumn == nil ? 1 : 2 }

    /// The column names this mapping writes, in binding order.
    var writtenColumns: [String] { [name] + (comparisonKeyColumn.map { [$0] } ?? []) }

    /// The field as the query layer sees it.
    var queryField: QueryField {
        .column(fieldName, keyPath, kind, column: name, comparisonKey: comparisonKeyColumn, isOptional: isOptional)
    }

    /// A column holding `keyPath`'s value as is.
    public static func column<Value: SQLiteValue & QueryValue>(_ name: String, _ keyPath: KeyPath<Record, Value>,
                                                               field: String? = nil) -> ColumnMapping {
        let value = reader(keyPath)
        return ColumnMapping(name: name, keyPath: keyPath, comparisonKeyColumn: nil, fieldName: field ?? camelCase(name),
                             kind: Value.queryKind, isOptional: false) { record, statement, index in
            try statement.bind(value(record), at: index)
        }
    }

    /// A column holding `keyPath`'s optional value, NULL for nil.
    public static func column<Value: SQLiteValue & QueryValue>(_ name: String, _ keyPath: KeyPath<Record, Value?>,
                                                               field: String? = nil) -> ColumnMapping {
        let value = reader(keyPath)
        return ColumnMapping(name: name, keyPath: keyPath, comparisonKeyColumn: nil, fieldName: field ?? camelCase(name),
                             kind: Value.queryKind, isOptional: true) { record, statement, index in
            try statement.bind(value(record), at: index)
        }
    }

    /// A text column with a comparison-key column beside it.
    public static func column(_ name: String, _ keyPath: KeyPath<Record, String>, comparisonKey keyColumn: String,
                              field: String? = nil) -> ColumnMapping {
        let value = reader(keyPath)
        return ColumnMapping(name: name, keyPath: keyPath, comparisonKeyColumn: keyColumn, fieldName: field ?? camelCase(name),
                             kind: .text, isOptional: false) { record, statement, index in
            let text = value(record)
            try statement.bind(text, at: index)
            try statement.bind(text.comparisonKey, at: index + 1)
        }
    }

    /// Reads `keyPath`'s value from a record (``PropertyReader``).
    private static func reader<Value>(_ keyPath: KeyPath<Record, Value>) -> (Record) -> Value {
        let reader = PropertyReader(keyPath)
        return { reader.read($0) }
    }

    /// `submitted_at` → `submittedAt`.
    static func camelCase(_ snake: String) -> String {
        let words = snake.split(separator: "_")
        return (words.first.map(String.init) ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
