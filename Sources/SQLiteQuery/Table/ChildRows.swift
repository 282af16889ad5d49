import CSQLite

/// The rows of one child collection for the parents of a fetch, `(parent key, element columns…)`
/// in the parents' order, read in step with the parent rows.
@usableFromInline
final class ChildRows {
    // Read and written for every element: exempt from run-time exclusivity checks (each access
    // to a class's stored property is checked otherwise).
    @usableFromInline let statement: Statement
    @exclusivity(unchecked) @usableFromInline var hasRow = false
    @exclusivity(unchecked) @usableFromInline var rowParentKey: Int64 = 0
    /// How many elements the last parent with any had: the next one's array is allocated at that
    /// capacity at once.
    @exclusivity(unchecked) @usableFromInline var lastCount = 1

    /// Steps `statement` to its first row.
    init(statement: Statement) throws {
        self.statement = statement
        try advance()
    }

    // After its last row the statement is no longer this reader's (it is cached, and may be in
    // use elsewhere): only rows dropped before their last row reset it.
    deinit { if hasRow { statement.reset() } }

    /// Whether the current row is an element of the parent with row key `parentKey`.
    @inlinable
    func belong(to parentKey: Int64) -> Bool { hasRow && rowParentKey == parentKey }

    /// The current row's element columns.
    @inlinable
    var element: ElementRow { ElementRow(statement: statement, offset: 1) }

    /// Moves to the next row.
    @inlinable
    func advance() throws {
        hasRow = try statement.step()
        if hasRow { readParentKey() }
    }

    /// Reads the current row's parent key: a row key (`INTEGER PRIMARY KEY`), so always an integer,
    /// read without the storage-class check of `column(_:)`.
    @usableFromInline
    func readParentKey() {
        rowParentKey = sqlite3_column_int64(statement.handle, 0)
    }

    /// What reads the elements of one parent, decoded with `decode`, into its record's `collection`.
    ///
    /// Inlinable, so that a collection described in another module (``OwnedChildren``'s
    /// initializer) gets this loop compiled for its concrete types: generic at run time, each
    /// append to an array of a generic element looked up the array's type metadata (under
    /// `callgrind`, a fifth of a 30-day range fetch).
    @inlinable
    static func filler<Record, Element>(_ collection: WritableKeyPath<Record, [Element]>,
                                        _ decode: @escaping (ElementRow) throws -> Element)
        -> (inout Record, ChildRows, Int64) throws -> Void {
        { record, rows, parentKey in
            var elements: [Element] = []
            if rows.belong(to: parentKey) {
                elements.reserveCapacity(rows.lastCount)
                repeat {
                    elements.append(try decode(rows.element))
                    try rows.advance()
                } while rows.belong(to: parentKey)
                rows.lastCount = elements.count
            }
            record[keyPath: collection] = elements
        }
    }
}
