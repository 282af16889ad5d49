/// Reads one child collection's rows for the parent rows of a fetch, as each parent comes.
public protocol ChildRowReader<Record>: AnyObject {
    /// The type of the record whose collection the reader fills.
    associatedtype Record
    /// Fills the collection of `record`, whose row key is `parentKey`, from the rows that belong to it.
    func fill(_ record: inout Record, parentKey: Int64) throws
}

/// The shared lockstep reader: child rows come as `(parent key, element columns…)`, and `fill`
/// (``ChildRows/filler(_:_:)``) reads those of one parent into its record.
final class LockstepChildReader<Record>: ChildRowReader {
    private let rows: ChildRows
    private let fillRecord: (inout Record, ChildRows, Int64) throws -> Void

    init(rows: ChildRows, fill: @escaping (inout Record, ChildRows, Int64) throws -> Void) {
        self.rows = rows
        fillRecord = fill
    }

    func fill(_ record: inout Record, parentKey: Int64) throws {
        try fillRecord(&record, rows, parentKey)
    }
}

/// The reader of one parent's rows at a time: before each parent's, the statement (prepared from
/// the collection's ``ChildCollection/readerSQL(for:)`` on ``FetchPage/oneParent(table:rowKey:)``)
/// is run again with `?1` bound to the parent's row key. For parents in an order the child rows
/// could follow only by being sorted all at once, and for pages costly to select again (a LIMIT,
/// a condition with subqueries): each parent's rows come by the child table's key, so memory holds
/// one record and the page's condition and order run once.
final class OneParentChildReader<Record>: ChildRowReader {
    private let statement: Statement
    private let fillRecord: (inout Record, ChildRows, Int64) throws -> Void

    init(statement: Statement, fill: @escaping (inout Record, ChildRows, Int64) throws -> Void) {
        self.statement = statement
        fillRecord = fill
    }

    func fill(_ record: inout Record, parentKey: Int64) throws {
        statement.reset()
        try statement.bind(parentKey, at: 1)
        try fillRecord(&record, try ChildRows(statement: statement), parentKey)
    }
}
