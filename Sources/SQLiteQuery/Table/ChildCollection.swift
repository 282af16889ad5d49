/// An ordered collection property of a record stored as rows of another table, one row per element
/// with a 1-based position, and a foreign key to the parent's row key (`ON DELETE CASCADE`).
///
/// Two kinds conform: ``OwnedChildren`` (the rows are the elements, e.g. a draft's checklist) and
/// ``LinkedChildren`` (the rows link to records of another table, many-to-many).
public protocol ChildCollection<Record>: Sendable {
    associatedtype Record

    /// The record's collection property.
    var keyPath: PartialKeyPath<Record> { get }
    /// The table whose rows hold (or link to) the elements.
    var table: String { get }
    /// The column that refers to the parent's row key.
    var parentColumn: String { get }
    /// The column that orders the elements, 1-based.
    var positionColumn: String { get }

    /// Replaces the stored elements of the parent row `parentKey` with the record's elements, in order.
    func save(_ record: Record, parentKey: Int64, in connection: Connection) throws

    /// Fills the collection of each of `records`, whose row keys are `keys` (same order), reading
    /// the children of the parents that `parentKeysSQL` selects (a subquery over the parent table
    /// returning row keys, with `arguments`).
    func load(into records: inout [Record], keys: [Int64], parentKeysSQL: String?,
              arguments: [DatabaseValue], in connection: Connection) throws
}

extension ChildCollection {
    /// Reads `(parent key, element)` rows in parent then position order and assigns each parent's
    /// elements at once; shared by both kinds of collection.
    func assignRows<Element>(_ statement: Statement, into records: inout [Record], keys: [Int64],
                             collection: WritableKeyPath<Record, [Element]>,
                             readElement: (Statement) throws -> Element) throws {
        var indexOfKey: [Int64: Int] = [:]
        indexOfKey.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() { indexOfKey[key] = index }
        var currentKey: Int64?
        var elements: [Element] = []
        func flush() {
            if let currentKey, let index = indexOfKey[currentKey] {
                records[index][keyPath: collection] = elements
            }
        }
        while try statement.step() {
            let key: Int64 = try statement.column(0)
            if key != currentKey {
                flush()
                currentKey = key
                elements.removeAll(keepingCapacity: true)
            }
            elements.append(try readElement(statement))
        }
        flush()
    }

    /// `WHERE parent IN (subquery)`, or nothing when every parent is wanted.
    func parentFilter(_ parentKeysSQL: String?) -> String {
        parentKeysSQL.map { " WHERE \(parentColumn) IN (\($0))" } ?? ""
    }
}

/// Elements stored as the child rows themselves: a draft's checklist items, a day's exercises.
///
/// ```swift
/// OwnedChildren(\ReleaseDraft.checklist, table: "checklist_items", parentColumn: "draft_pk",
///               columns: [.column("id", \.id), .column("title", \.title), .column("is_done", \.isDone)],
///               decode: { ChecklistItem(id: try $0.column(0), title: try $0.column(1), isDone: try $0.column(2)) })
/// ```
/// `decode` reads the element's columns in the order of `columns`, from index 0.
public struct OwnedChildren<Record, Element>: ChildCollection, @unchecked Sendable {
    public let collection: WritableKeyPath<Record, [Element]>
    public let table: String
    public let parentColumn: String
    public let positionColumn: String
    public let columns: [ColumnMapping<Element>]
    let decode: (ElementRow) throws -> Element
    private let insertSQL: String
    private let deleteSQL: String
    private let selectColumns: String

    public var keyPath: PartialKeyPath<Record> { collection }

    public init(_ collection: WritableKeyPath<Record, [Element]>, table: String, parentColumn: String,
                positionColumn: String = "position", columns: [ColumnMapping<Element>],
                decode: @escaping (ElementRow) throws -> Element) {
        self.collection = collection
        self.table = table
        self.parentColumn = parentColumn
        self.positionColumn = positionColumn
        self.columns = columns
        self.decode = decode
        let written = [parentColumn, positionColumn] + columns.flatMap(\.writtenColumns)
        insertSQL = "INSERT INTO \(table) (\(written.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: written.count).joined(separator: ", ") + ")"
        deleteSQL = "DELETE FROM \(table) WHERE \(parentColumn) = ?"
        selectColumns = ([parentColumn] + columns.map(\.name)).joined(separator: ", ")
    }

    public func save(_ record: Record, parentKey: Int64, in connection: Connection) throws {
        try connection.run(deleteSQL, [.integer(parentKey)])
        let insert = try connection.cachedStatement(insertSQL)
        for (offset, element) in record[keyPath: collection].enumerated() {
            try insert.bind(parentKey, at: 1)
            try insert.bind(offset + 1, at: 2)
            var index = 3
            for column in columns {
                try column.bind(element, insert, index)
                index += column.parameterCount
            }
            try insert.execute()
        }
    }

    public func load(into records: inout [Record], keys: [Int64], parentKeysSQL: String?,
                     arguments: [DatabaseValue], in connection: Connection) throws {
        let statement = try connection.cachedStatement(
            "SELECT \(selectColumns) FROM \(table)\(parentFilter(parentKeysSQL)) ORDER BY \(parentColumn), \(positionColumn)")
        defer { statement.reset() }
        try statement.bind(arguments)
        try assignRows(statement, into: &records, keys: keys, collection: collection) {
            try decode(ElementRow(statement: $0, offset: 1))
        }
    }
}

/// Elements that are records of their own table, linked through a join table with a position:
/// many-to-many, as SwiftData's relationships. Saving upserts each element by id in its own table,
/// then rewrites the links; deleting the parent deletes its links (cascade), never the elements.
public struct LinkedChildren<Record, Element>: ChildCollection, @unchecked Sendable {
    public let collection: WritableKeyPath<Record, [Element]>
    /// The join table.
    public let table: String
    public let parentColumn: String
    public let positionColumn: String
    /// The join table's column that refers to the element's row key.
    public let elementColumn: String
    public let elementTable: TableDescription<Element>
    private let insertLinkSQL: String
    private let deleteLinksSQL: String

    public var keyPath: PartialKeyPath<Record> { collection }

    public init(_ collection: WritableKeyPath<Record, [Element]>, through table: String, parentColumn: String,
                positionColumn: String = "position", elementColumn: String, elementTable: TableDescription<Element>) {
        self.collection = collection
        self.table = table
        self.parentColumn = parentColumn
        self.positionColumn = positionColumn
        self.elementColumn = elementColumn
        self.elementTable = elementTable
        insertLinkSQL = "INSERT INTO \(table) (\(parentColumn), \(positionColumn), \(elementColumn)) VALUES (?, ?, ?)"
        deleteLinksSQL = "DELETE FROM \(table) WHERE \(parentColumn) = ?"
    }

    public func save(_ record: Record, parentKey: Int64, in connection: Connection) throws {
        try connection.run(deleteLinksSQL, [.integer(parentKey)])
        for (offset, element) in record[keyPath: collection].enumerated() {
            let elementKey = try elementTable.upsert(element, in: connection)
            try connection.run(insertLinkSQL, [.integer(parentKey), .integer(Int64(offset + 1)), .integer(elementKey)])
        }
    }

    public func load(into records: inout [Record], keys: [Int64], parentKeysSQL: String?,
                     arguments: [DatabaseValue], in connection: Connection) throws {
        let element = elementTable.name
        let columns = elementTable.columns.map { "\(element).\($0.name)" }.joined(separator: ", ")
        let filter = parentKeysSQL.map { " WHERE link.\(parentColumn) IN (\($0))" } ?? ""
        let statement = try connection.cachedStatement("""
            SELECT link.\(parentColumn), \(columns) FROM \(table) AS link
            JOIN \(element) ON \(element).\(elementTable.rowKey) = link.\(elementColumn)\(filter)
            ORDER BY link.\(parentColumn), link.\(positionColumn)
            """)
        defer { statement.reset() }
        try statement.bind(arguments)
        try assignRows(statement, into: &records, keys: keys, collection: collection) {
            try elementTable.decode(ElementRow(statement: $0, offset: 1))
        }
    }
}

/// The current row of a statement, seen from a column offset: `row.column(0)` reads the first
/// column of the record or element being decoded.
public struct ElementRow {
    let statement: Statement
    let offset: Int

    @inline(__always)
    public func column<Value: SQLiteValue>(_ index: Int, as type: Value.Type = Value.self) throws -> Value {
        try statement.column(offset + index, as: Value.self)
    }
}
