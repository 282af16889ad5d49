/// How a record type is stored: its table, its columns, its child collections, and how to rebuild
/// it from a row. With a description and a migration, any `Sendable` value type gets insert,
/// update, upsert, delete and fetch through cached prepared statements (see `TableDescription+…`).
///
/// ```swift
/// let notes = TableDescription<Note>(
///     "notes", identity: .column("id", \.id),
///     columns: [.column("title", \.title, comparisonKey: "title_key"), .column("created_at", \.createdAt)],
///     children: [LinkedChildren(\.tags, through: "note_tags", parentColumn: "note_pk",
///                               elementColumn: "tag_pk", elementTable: tags)],
///     decode: { Note(id: try $0.column(0), title: try $0.column(1), createdAt: try $0.column(2), tags: []) })
/// ```
///
/// The table has an `INTEGER PRIMARY KEY` row key (`rowKey`, default `pk`) that child rows refer
/// to, and a `UNIQUE` identity column that callers use. `decode` reads the identity and the other
/// columns in declaration order, starting at column 0; child collections are filled in afterwards.
///
/// Table and column names go into the SQL as written: name them as plain identifiers (letters,
/// digits and underscores, not starting with a digit), none an SQL keyword (`order`, `group`):
/// SQLite would refuse such a statement with a syntax error when it is first run.
public struct TableDescription<Record>: @unchecked Sendable {
    /// The table's name.
    public var name: String { box.values.name }
    /// The `INTEGER PRIMARY KEY` column that child rows refer to (`pk` by default).
    public var rowKey: String { box.values.rowKey }
    /// The `UNIQUE` column callers name records by; also the first of ``TableDescription/columns``.
    public var identity: ColumnMapping<Record> { box.values.identity }
    /// Every stored column, the identity first.
    public var columns: [ColumnMapping<Record>] { box.values.columns }
    /// The record's child collections, saved after its row and filled after it is decoded.
    public var children: [any ChildCollection<Record>] { box.values.children }
    /// The record's fields as predicates, sorts and `--where` filters see them: every column,
    /// every child collection, and the derived values declared with the table.
    public var querySchema: QuerySchema<Record> { box.values.querySchema }
    var decode: (ElementRow) throws -> Record { box.values.decode }
    var sql: SQLText { box.values.sql }

    /// The description's values.
    private struct Values {
        let name: String
        let rowKey: String
        let identity: ColumnMapping<Record>
        let columns: [ColumnMapping<Record>]
        let children: [any ChildCollection<Record>]
        let querySchema: QuerySchema<Record>
        let decode: (ElementRow) throws -> Record
        let sql: SQLText
    }

    /// The values in one object: a description is copied wherever a repository reads or writes
    /// (its storage, a cursor), and copying its strings, arrays and closures one by one cost about
    /// fifty atomic reference-count updates a copy (under `callgrind`, a few hundred per 30-day
    /// range fetch); one object costs one.
    private final class Box {
        let values: Values

        init(_ values: Values) {
            self.values = values
        }
    }
    private let box: Box

    /// `derived` are the values computed in SQL from the row that queries may use besides the
    /// stored ones (`isSubmitted`, `checklist.count`).
    public init(_ name: String, rowKey: String = "pk", identity: ColumnMapping<Record>,
                columns: [ColumnMapping<Record>], children: [any ChildCollection<Record>] = [],
                derived: [QueryField] = [], decode: @escaping (ElementRow) throws -> Record) {
        let columns = [identity] + columns
        box = Box(Values(name: name, rowKey: rowKey, identity: identity, columns: columns, children: children,
                         querySchema: QuerySchema(table: name, rowKey: rowKey, identity: identity.name,
                                                  fields: columns.map(\.queryField) + children.compactMap(\.queryField) + derived),
                         decode: decode,
                         sql: SQLText(table: name, rowKey: rowKey, identity: identity.name, columns: columns, children: children)))
    }

    /// The SQL this description runs, built once.
    struct SQLText {
        let insert: String
        /// The insert, skipped when a row with the record's identity exists.
        let insertUnlessPresent: String
        let insertUnlessAnyConflict: String
        let upsert: String
        let update: String
        let delete: String
        let rowKeyForIdentity: String
        /// `<table>.<column>, …, <table>.<rowKey>`: what fetches select.
        let selectColumns: String
        /// What a fetch whose child collections stream beside its parents selects besides its
        /// page: ``selectColumns`` and each collection's reader statement on an empty page (part of
        /// the key of the fetch's cached statements).
        let lockstepSignature: String
        /// Each child collection's statement for one parent's rows, its row key bound to `?1`.
        let oneParentChildren: [String]

        init(table: String, rowKey: String, identity: String, columns: [ColumnMapping<Record>],
             children: [any ChildCollection<Record>]) {
            let written = columns.flatMap(\.writtenColumns)
            let placeholders = Array(repeating: "?", count: written.count).joined(separator: ", ")
            insert = "INSERT INTO \(table) (\(written.joined(separator: ", "))) VALUES (\(placeholders))"
            let updated = columns.filter { $0.name != identity }.flatMap(\.writtenColumns)
            let assignments = updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            insertUnlessPresent = insert + " ON CONFLICT (\(identity)) DO NOTHING"
            insertUnlessAnyConflict = insert + " ON CONFLICT DO NOTHING"
            upsert = insert + " ON CONFLICT (\(identity)) DO "
                + (assignments.isEmpty ? "NOTHING" : "UPDATE SET \(assignments)")
            // An update binds every column (so one binding routine serves all three), then the identity again.
            let setAll = written.map { "\($0) = ?" }.joined(separator: ", ")
            update = "UPDATE \(table) SET \(setAll) WHERE \(identity) = ? RETURNING \(rowKey)"
            delete = "DELETE FROM \(table) WHERE \(identity) = ?"
            rowKeyForIdentity = "SELECT \(rowKey) FROM \(table) WHERE \(identity) = ?"
            selectColumns = (columns.map { "\(table).\($0.name)" } + ["\(table).\(rowKey)"]).joined(separator: ", ")
            let template = FetchPage.template(table: table, rowKey: rowKey)
            lockstepSignature = ([selectColumns] + children.map { $0.readerSQL(for: template) }).joined(separator: "\n")
            let oneParent = FetchPage.oneParent(table: table, rowKey: rowKey)
            oneParentChildren = children.map { $0.readerSQL(for: oneParent) }
        }
    }
}

/// No record with the given identity exists in the table.
public struct RecordNotFound: Error, Equatable, Sendable, CustomStringConvertible {
    /// The table searched.
    public let table: String
    /// The identity looked for, as text.
    public let identity: String

    /// The error for a missing row of `table` with `identity`.
    public init(table: String, identity: String) {
        self.table = table
        self.identity = identity
    }

    /// `no row in <table> with identity <identity>`.
    public var description: String { "no row in \(table) with identity \(identity)" }
}
