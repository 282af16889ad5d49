/// What a record's fields are to the query layer: names (for the CLI's `--where`), key paths (for
/// `#Predicate` and `SortDescriptor`), kinds, and the SQL that reads each, including derived values
/// (`checklist.count`) and child collections (`exercises`).
public struct QuerySchema<Record>: @unchecked Sendable {
    public let table: String
    public let rowKey: String
    /// The identity column; ties in every sort are broken by it, so pages are stable.
    public let identity: String
    public let fields: [QueryField]

    public init(table: String, rowKey: String = "pk", identity: String = "id", fields: [QueryField]) {
        self.table = table
        self.rowKey = rowKey
        self.identity = identity
        self.fields = fields
    }

    public func field(named name: String) -> QueryField? { fields.first { $0.name == name } }

    public func field(for keyPath: AnyKeyPath) -> QueryField? { fields.first { $0.keyPath == keyPath } }

    /// The names a user may write, in declaration order.
    public var fieldNames: [String] { fields.map(\.name) }
}

/// The kind of a scalar value, as the query layer compares and parses it.
public enum ValueKind: String, Sendable, Equatable {
    case text, integer, bool, date, uuid
    /// A calendar day stored as `YYYY-MM-DD` text.
    case day
}

/// One queryable field of a record or of a collection's element.
public struct QueryField: @unchecked Sendable {
    public enum Source {
        /// A stored column, with the column of its comparison key (NFC) for text that has one.
        case column(String, comparisonKey: String?)
        /// A value computed in SQL from the parent row, given the parent's qualifier.
        case derived(@Sendable (String) -> QueryExpression)
        /// A child collection.
        case collection(CollectionField)
    }

    public let name: String
    public let keyPath: AnyKeyPath?
    /// nil for a collection.
    public let kind: ValueKind?
    public let isOptional: Bool
    public let source: Source

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
    public enum Element {
        case scalar(ValueKind, column: String, comparisonKey: String?)
        case record([QueryField])
    }

    public let table: String
    public let parentColumn: String
    public let element: Element

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
