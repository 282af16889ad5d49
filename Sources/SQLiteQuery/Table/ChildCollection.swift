/// An ordered collection property of a record stored as rows of another table, one row per element
/// with a 1-based position, and a foreign key to the parent's row key (`ON DELETE CASCADE`).
///
/// Two kinds conform: ``OwnedChildren`` (the rows are the elements, e.g. a draft's checklist) and
/// ``LinkedChildren`` (the rows link to records of another table, many-to-many).
public protocol ChildCollection<Record>: Sendable {
    /// The type of the record that has the collection.
    associatedtype Record

    /// The record's collection property.
    var keyPath: PartialKeyPath<Record> { get }
    /// The table whose rows hold (or link to) the elements.
    var table: String { get }
    /// The column that refers to the parent's row key.
    var parentColumn: String { get }
    /// The column that orders the elements, 1-based.
    var positionColumn: String { get }
    /// The text columns of the child table that have a comparison-key column.
    var comparisonKeyColumns: [ComparisonKeyColumn] { get }
    /// The columns of the child table that elements are read from (none for links, which hold row keys).
    var storedColumns: [StoredColumn] { get }
    /// The collection as the query layer sees it (`contains`, `count`, …), or nil when it cannot be queried.
    var queryField: QueryField? { get }

    /// Stores the record's elements, in order, for the parent row `parentKey`; with `replacing`,
    /// deletes the parent's stored elements first (a new parent has none to delete).
    func save(_ record: Record, parentKey: Int64, replacing: Bool, in connection: Connection) throws

    /// The statement that reads this collection's rows for the parents of `page`, in the page's
    /// order and then by position, as `(parent row key, element columns…)`; it takes the page's
    /// arguments. A function of the page's SQL and the collection alone, so a fetch may cache it
    /// with the page's (``TableDescription/cursor(_:in:)``).
    func readerSQL(for page: FetchPage) -> String

    /// A reader of this collection's rows from `statement`, prepared from ``readerSQL(for:)``,
    /// bound and not yet stepped.
    func makeReader(reading statement: Statement) throws -> any ChildRowReader<Record>

    /// A reader of this collection's rows one parent at a time from `statement`, prepared from
    /// ``readerSQL(for:)`` on the page of one parent (`WHERE <table>.<rowKey> = ?1`), which it
    /// runs again for each parent with the parent's row key bound.
    func makeOneParentReader(reading statement: Statement) -> any ChildRowReader<Record>
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
    /// The record's array property that holds the elements.
    public let collection: WritableKeyPath<Record, [Element]>
    /// The name queries use for the collection.
    public let fieldName: String
    /// The child table, one row per element.
    public let table: String
    /// The child table's column that holds the parent's row key.
    public let parentColumn: String
    /// The child table's column that holds each element's 1-based position.
    public let positionColumn: String
    /// How the element's stored properties map to columns of the child table, in the order `decode`
    /// reads them.
    public let columns: [ColumnMapping<Element>]
    /// Reads a parent's elements into its record (``ChildRows/filler(_:_:)``, compiled where the
    /// collection is described).
    @usableFromInline let fill: (inout Record, ChildRows, Int64) throws -> Void
    /// How many elements one `INSERT` writes at most: 1, or more when the child table's foreign
    /// key is `DEFERRABLE INITIALLY DEFERRED` (see ``init(_:field:table:parentColumn:positionColumn:rowsPerInsert:columns:decode:)``).
    public var rowsPerInsert: Int { insertSQL.count }
    /// Inserts a record's elements, given the parent's row key and the insert statement for a
    /// number of rows (``insertingRows(_:_:rowsPerInsert:)``, compiled where the collection is described).
    @usableFromInline let insertRows: (Record, Int64, (Int) throws -> Statement) throws -> Void
    /// The insert of 1, 2, … ``rowsPerInsert`` rows (at least 1).
    private let insertSQL: [String]
    private let deleteSQL: String
    private let selectColumns: String

    /// ``OwnedChildren/collection``, type-erased.
    public var keyPath: PartialKeyPath<Record> { collection }

    /// The element columns that have a comparison-key column beside them.
    public var comparisonKeyColumns: [ComparisonKeyColumn] { ComparisonKeyColumn.all(in: table, columns) }

    /// Every element column, its rows named by their parent's row key and their position.
    public var storedColumns: [StoredColumn] { StoredColumn.all(in: table, columns, rowColumns: [parentColumn, positionColumn]) }

    /// The child table for the query layer: one scalar column when the element is the value itself
    /// (a day's exercise names, `\.self`), else a record of the element's fields.
    public var collectionField: CollectionField {
        let element: CollectionField.Element
        if columns.count == 1, let only = columns.first, only.keyPath == \Element.self as PartialKeyPath<Element> {
            element = .scalar(only.kind, column: only.name, comparisonKey: only.comparisonKeyColumn)
        } else {
            element = .record(columns.map(\.queryField))
        }
        return CollectionField(table: table, parentColumn: parentColumn, element: element)
    }

    /// The collection as a field named ``OwnedChildren/fieldName``, for `contains`,
    /// `contains(where:)`, `allSatisfy`, `count` and `isEmpty`; never nil.
    public var queryField: QueryField? {
        QueryField(fieldName, keyPath: collection, kind: nil, source: .collection(collectionField))
    }

    /// `field` is the collection's name in queries, by default the table's in camelCase.
    ///
    /// `rowsPerInsert` above 1 writes up to that many elements with one multi-row
    /// `INSERT OR FAIL`. Only for a child table whose foreign key to the parent is declared
    /// `DEFERRABLE INITIALLY DEFERRED`: SQLite keeps a statement journal for a statement that may
    /// write several rows and then abort (an immediate foreign key check, or the default `ABORT`
    /// of a `NOT NULL`, `CHECK` or key constraint), a temporary file once a bulk write outgrows the
    /// page cache. `OR FAIL` leaves the rows written before a failing one in place, so the save
    /// must run in a transaction or savepoint that is rolled back when it throws, as every write
    /// of ``Database`` is.
    ///
    /// Inlinable: the loops that read the elements (with `decode`) and write them are compiled
    /// here, for the concrete record and element types.
    @inlinable
    public init(_ collection: WritableKeyPath<Record, [Element]>, field: String? = nil, table: String, parentColumn: String,
                positionColumn: String = "position", rowsPerInsert: Int = 1, columns: [ColumnMapping<Element>],
                decode: @escaping (ElementRow) throws -> Element) {
        let rowsPerInsert = max(1, rowsPerInsert)
        self.init(collection, field: field, table: table, parentColumn: parentColumn, positionColumn: positionColumn,
                  rowsPerInsert: rowsPerInsert, columns: columns, fill: ChildRows.filler(collection, decode),
                  insertRows: Self.insertingRows(collection, columns, rowsPerInsert: rowsPerInsert))
    }

    @usableFromInline
    init(_ collection: WritableKeyPath<Record, [Element]>, field: String?, table: String, parentColumn: String,
         positionColumn: String, rowsPerInsert: Int, columns: [ColumnMapping<Element>],
         fill: @escaping (inout Record, ChildRows, Int64) throws -> Void,
         insertRows: @escaping (Record, Int64, (Int) throws -> Statement) throws -> Void) {
        self.collection = collection
        fieldName = field ?? ColumnMapping<Element>.camelCase(table)
        self.table = table
        self.parentColumn = parentColumn
        self.positionColumn = positionColumn
        self.columns = columns
        self.fill = fill
        self.insertRows = insertRows
        let written = [parentColumn, positionColumn] + columns.flatMap(\.writtenColumns)
        let row = "(" + Array(repeating: "?", count: written.count).joined(separator: ", ") + ")"
        insertSQL = (1...rowsPerInsert).map { rows in
            "INSERT\(rows > 1 ? " OR FAIL" : "") INTO \(table) (\(written.joined(separator: ", "))) VALUES "
                + Array(repeating: row, count: rows).joined(separator: ", ")
        }
        deleteSQL = "DELETE FROM \(table) WHERE \(parentColumn) = ?"
        selectColumns = columns.map { "child.\($0.name)" }.joined(separator: ", ")
    }

    /// Inserts one row per element, at positions 1, 2, …, ``rowsPerInsert`` rows a statement;
    /// with `replacing`, first deletes the rows the parent has.
    ///
    /// A multi-row statement into a table whose foreign key is checked per statement would keep a
    /// statement journal (tried on 25 November 2026 with up to 8 rows a statement: 19% fewer
    /// instructions in these inserts, but 1.5 million writes to `/var/tmp/etilqs_…` for 500,000
    /// exercises, and a million exercises took 2x to 3x the raw engine's time instead of 1.4x);
    /// hence one row a statement unless the key is deferred.
    public func save(_ record: Record, parentKey: Int64, replacing: Bool, in connection: Connection) throws {
        if replacing { try connection.run(deleteSQL, [.integer(parentKey)]) }
        try insertRows(record, parentKey) { rows in try connection.cachedStatement(insertSQL[rows - 1]) }
    }

    /// What inserts a record's elements, given the parent's row key and the insert statement for
    /// a number of rows up to `rowsPerInsert`: the elements in runs of `rowsPerInsert`, and the
    /// rest in one statement.
    ///
    /// Inlinable, so that it is compiled for the concrete record and element types where the
    /// collection is described: generic at run time, each element looked up the type metadata of
    /// its column mappings (under `callgrind`, saving 20,000 days of five exercises took 720
    /// instructions an exercise more). By index, not `enumerated()`, whose iterator and tuple cost
    /// more such lookups where the loop runs generic.
    @inlinable
    static func insertingRows(_ collection: WritableKeyPath<Record, [Element]>, _ columns: [ColumnMapping<Element>],
                              rowsPerInsert: Int) -> (Record, Int64, (Int) throws -> Statement) throws -> Void {
        let collection = PropertyReader(collection as KeyPath<Record, [Element]>)
        return { record, parentKey, statement in
            let elements = collection.read(record)
            var first = elements.startIndex
            while first < elements.endIndex {
                let end = min(elements.endIndex, first + rowsPerInsert)
                let insert = try statement(end - first)
                var index = 1
                for offset in first..<end {
                    try insert.bind(parentKey, at: index)
                    try insert.bind(offset + 1, at: index + 1)
                    index += 2
                    for column in columns {
                        try column.bind(elements[offset], insert, index)
                        index += column.parameterCount
                    }
                }
                try insert.execute()
                first = end
            }
        }
    }

    /// The elements of every parent in `page`, in the page's order and then by position.
    public func readerSQL(for page: FetchPage) -> String {
        page.childStatement(columns: selectColumns,
                            children: "\(table) AS child ON child.\(parentColumn) = \(page.table).\(page.rowKey)",
                            childOrder: "child.\(positionColumn)")
    }

    /// A reader of the elements in step with the parents.
    public func makeReader(reading statement: Statement) throws -> any ChildRowReader<Record> {
        LockstepChildReader(rows: try ChildRows(statement: statement), fill: fill)
    }

    /// A reader that runs `statement` for each parent in turn.
    public func makeOneParentReader(reading statement: Statement) -> any ChildRowReader<Record> {
        OneParentChildReader(statement: statement, fill: fill)
    }
}

/// Elements that are records of their own table, linked through a join table with a position:
/// many-to-many, as SwiftData's relationships. Saving upserts each element by id in its own table,
/// then rewrites the links; deleting the parent deletes its links (cascade), never the elements.
public struct LinkedChildren<Record, Element>: ChildCollection, @unchecked Sendable {
    /// The record's array property that holds the elements.
    public let collection: WritableKeyPath<Record, [Element]>
    /// The join table.
    public let table: String
    /// The join table's column that holds the parent's row key.
    public let parentColumn: String
    /// The join table's column that holds each link's 1-based position.
    public let positionColumn: String
    /// The join table's column that refers to the element's row key.
    public let elementColumn: String
    /// The elements' own table: saving upserts each element through it, and reading decodes
    /// elements with it.
    public let elementTable: TableDescription<Element>
    /// Reads a parent's linked elements into its record (``ChildRows/filler(_:_:)``), made once.
    private let fill: (inout Record, ChildRows, Int64) throws -> Void
    private let insertLinkSQL: String
    private let deleteLinksSQL: String

    /// ``LinkedChildren/collection``, type-erased.
    public var keyPath: PartialKeyPath<Record> { collection }
    /// None: the join table holds row keys only; the element table's own keys belong to its description.
    public var comparisonKeyColumns: [ComparisonKeyColumn] { [] }

    /// None: the join table holds row keys only, and the elements' columns belong to their own
    /// table's description.
    public var storedColumns: [StoredColumn] { [] }
    /// None yet: predicates do not look into many-to-many collections.
    public var queryField: QueryField? { nil }

    /// `table` is the join table, and `elementColumn` its column that refers to the row key of an
    /// element in `elementTable`.
    public init(_ collection: WritableKeyPath<Record, [Element]>, through table: String, parentColumn: String,
                positionColumn: String = "position", elementColumn: String, elementTable: TableDescription<Element>) {
        self.collection = collection
        self.table = table
        self.parentColumn = parentColumn
        self.positionColumn = positionColumn
        self.elementColumn = elementColumn
        self.elementTable = elementTable
        fill = ChildRows.filler(collection, elementTable.decode)
        insertLinkSQL = "INSERT INTO \(table) (\(parentColumn), \(positionColumn), \(elementColumn)) VALUES (?, ?, ?)"
        deleteLinksSQL = "DELETE FROM \(table) WHERE \(parentColumn) = ?"
    }

    /// Upserts each element in its own table by identity (which replaces that element's own child
    /// collections), then links it at positions 1, 2, …; with `replacing`, first deletes the parent's
    /// links. Elements no longer linked stay in their table.
    public func save(_ record: Record, parentKey: Int64, replacing: Bool, in connection: Connection) throws {
        if replacing { try connection.run(deleteLinksSQL, [.integer(parentKey)]) }
        let elements = record[keyPath: collection]
        for offset in elements.indices {  // by index, as OwnedChildren.save
            let elementKey = try elementTable.upsert(elements[offset], in: connection)
            try connection.run(insertLinkSQL, [.integer(parentKey), .integer(Int64(offset + 1)), .integer(elementKey)])
        }
    }

    /// The linked elements of every parent in `page`, in the page's order and then by link position.
    public func readerSQL(for page: FetchPage) -> String {
        let element = elementTable.name
        return page.childStatement(
            columns: elementTable.columns.map { "\(element).\($0.name)" }.joined(separator: ", "),
            children: "\(table) AS link ON link.\(parentColumn) = \(page.table).\(page.rowKey) "
                + "JOIN \(element) ON \(element).\(elementTable.rowKey) = link.\(elementColumn)",
            childOrder: "link.\(positionColumn)")
    }

    /// A reader of the linked elements in step with the parents. The elements' own child
    /// collections are not read: they are as the element table's `decode` makes them.
    public func makeReader(reading statement: Statement) throws -> any ChildRowReader<Record> {
        LockstepChildReader(rows: try ChildRows(statement: statement), fill: fill)
    }

    /// A reader that runs `statement` for each parent in turn.
    public func makeOneParentReader(reading statement: Statement) -> any ChildRowReader<Record> {
        OneParentChildReader(statement: statement, fill: fill)
    }
}

/// The current row of a statement, seen from a column offset: `row.column(0)` reads the first
/// column of the record or element being decoded.
///
/// A row is valid only during the `decode` call it is given to: keep the values read, not the row.
public struct ElementRow {
    // Not retained: a row is made for each record and each element, and retaining the statement
    // cost an atomic increment and decrement each time (two per element of a range fetch, under
    // `callgrind`), while the cursor or reader that makes the row holds the statement for the
    // whole `decode` call.
    let statement: Unmanaged<Statement>
    let offset: Int

    @usableFromInline
    init(statement: Statement, offset: Int) {
        self.statement = .passUnretained(statement)
        self.offset = offset
    }

    /// Reads column `index`, counted from this record's or element's first column, as `Value`;
    /// throws ``ColumnConversionError`` when the row holds another storage class.
    @inline(__always)
    public func column<Value: SQLiteValue>(_ index: Int, as type: Value.Type = Value.self) throws -> Value {
        try statement._withUnsafeGuaranteedRef { try $0.column(offset + index, as: Value.self) }
    }
}
