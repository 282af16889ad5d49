/// What a record's fields are to the query layer: names (for the CLI's `--where`), key paths (for
/// `#Predicate` and `SortDescriptor`), kinds, and the SQL that reads each, including derived values
/// (`checklist.count`) and child collections (`exercises`).
public struct QuerySchema<Record>: @unchecked Sendable {
    /// The record's table, which qualifies its columns in SQL.
    public let table: String
    /// The table's `INTEGER PRIMARY KEY` column, which child rows refer to.
    public let rowKey: String
    /// The identity column; ties in every sort of a `RecordQuery` page are broken by it, so pages are stable.
    public let identity: String
    /// Every queryable field, in declaration order.
    public let fields: [QueryField]
    /// The shapes of the predicates translated over this schema so far.
    let templates = PredicateTemplates()

    /// A schema of `fields` over `table`, whose row-key and identity columns are `rowKey` and `identity`.
    public init(table: String, rowKey: String = "pk", identity: String = "id", fields: [QueryField]) {
        self.table = table
        self.rowKey = rowKey
        self.identity = identity
        self.fields = fields
    }

    /// The field a filter or sort calls `name` (case-sensitive), or nil.
    public func field(named name: String) -> QueryField? { fields.first { $0.name == name } }

    /// The field `keyPath` reaches (key paths compared with `==`), or nil.
    public func field(for keyPath: AnyKeyPath) -> QueryField? { fields.first { $0.keyPath == keyPath } }

    /// The names a user may write, in declaration order.
    public var fieldNames: [String] { fields.map(\.name) }
}

/// The kind of a scalar value, as the query layer compares and parses it.
public enum ValueKind: String, Sendable, Equatable {
    /// Text (compared by its NFC comparison key), 64-bit integers, booleans (stored as 0 or 1),
    /// instants (seconds since 2001-01-01T00:00:00Z) and UUIDs (36-character text).
    case text, integer, bool, date, uuid
    /// A calendar day stored as `YYYY-MM-DD` text.
    case day
}

/// One queryable field of a record or of a collection's element.
public struct QueryField: @unchecked Sendable {
    /// Where a field's value comes from in SQL.
    public enum Source {
        /// A stored column, with the column of its comparison key (NFC) for text that has one.
        case column(String, comparisonKey: String?)
        /// A value computed in SQL from the parent row, given the parent's qualifier.
        case derived(@Sendable (String) -> QueryExpression)
        /// A child collection.
        case collection(CollectionField)
    }

    /// The name `--where` filters and `--sort` use.
    public let name: String
    /// The key path `#Predicate` and `SortDescriptor` reach the field by, or nil when there is none
    /// (a scalar collection's element).
    public let keyPath: AnyKeyPath?
    /// nil for a collection.
    public let kind: ValueKind?
    /// Whether the value may be nil (NULL in SQL), which makes `==` and `!=` NULL-safe.
    public let isOptional: Bool
    /// The column, derived expression or collection the value comes from.
    public let source: Source

    /// A field called `name`, reached by `keyPath`, whose value comes from `source`; `kind` is nil
    /// for a collection.
    public init(_ name: String, keyPath: AnyKeyPath?, kind: ValueKind?, isOptional: Bool = false, source: Source) {
        self.name = name
        self.keyPath = keyPath
        self.kind = kind
        self.isOptional = isOptional
        self.source = source
    }

    /// A stored column.
    public static func column(_ name: String, _ keyPath: AnyKeyPath?, _ kind: ValueKind, column: String,
                              comparisonKey: String? = nil, isOptional: Bool = false) -> QueryField {
        QueryField(name, keyPath: keyPath, kind: kind, isOptional: isOptional,
                   source: .column(column, comparisonKey: comparisonKey))
    }
}

/// A child collection as the query layer sees it: the table, how it refers to the parent, and its
/// element, which is either one scalar column (a day's exercise names) or a record with fields (a
/// checklist item).
public struct CollectionField: @unchecked Sendable {
    /// What one row of a child collection holds.
    public enum Element {
        /// One value, in `column`, with the column of its NFC comparison key for text that has one.
        case scalar(ValueKind, column: String, comparisonKey: String?)
        /// A record, whose fields are columns of the row.
        case record([QueryField])
    }

    /// The child table.
    public let table: String
    /// The child table's column that holds its parent's row key.
    public let parentColumn: String
    /// What each row holds.
    public let element: Element

    /// The collection stored in `table`, whose rows refer to their parent through `parentColumn`.
    public init(table: String, parentColumn: String, element: Element) {
        self.table = table
        self.parentColumn = parentColumn
        self.element = element
    }

    /// The rows of this collection that belong to the parent row `qualifier.rowKey`, as `alias`.
    public func scope(parent qualifier: String, rowKey: String, alias: String) -> ChildScope {
        ChildScope(table: table, alias: alias, parentColumn: parentColumn,
                   parentKey: .column(qualifier: qualifier, name: rowKey))
    }
}
