/// Steps through the records of a fetch one at a time, each with its child collections, holding
/// one row of each statement in memory: for listings and exports of any size. (A page of at most
/// 1,000 records is read whole first, see ``TableDescription/cursor(_:in:)``.)
///
/// ```swift
/// let cursor = try table.cursor(try table.page(query, schema: schema, in: connection), in: connection)
/// while let record = try cursor.next() { write(record) }
/// ```
/// Use it inside one read transaction and finish with it before the connection runs other work.
public final class RecordCursor<Record> {
    private enum Source {
        /// Parent rows stepped one at a time, each record's children filled by `readers` in lockstep.
        case statement(Statement, readers: [any ChildRowReader<Record>], keyColumn: Int, decode: (ElementRow) throws -> Record)
        /// A page read whole, children included.
        case records(IndexingIterator<[Record]>)
    }

    private var source: Source
    private var isDone = false

    init(statement: Statement, readers: [any ChildRowReader<Record>], keyColumn: Int,
         decode: @escaping (ElementRow) throws -> Record) {
        source = .statement(statement, readers: readers, keyColumn: keyColumn, decode: decode)
    }

    /// A cursor over records already read.
    init(records: [Record]) {
        source = .records(records.makeIterator())
    }

    // Once done, the statement was reset and may be in use elsewhere (it is cached): only a cursor
    // dropped before its last row still owns it.
    deinit {
        if !isDone, case .statement(let statement, _, _, _) = source { statement.reset() }
    }

    /// The next record, or nil after the last.
    public func next() throws -> Record? {
        guard !isDone else { return nil }
        switch source {
        case .records(var iterator):
            let record = iterator.next()
            source = .records(iterator)
            if record == nil { isDone = true }
            return record
        case .statement(let statement, let readers, let keyColumn, let decode):
            guard try statement.step() else {
                isDone = true
                statement.reset()
                return nil
            }
            var record = try decode(ElementRow(statement: statement, offset: 0))
            let key: Int64 = try statement.column(keyColumn)
            for reader in readers { try fillCollection(reader, &record, parentKey: key) }
            return record
        }
    }

    /// Every remaining record.
    public func collect() throws -> [Record] {
        var records: [Record] = []
        while let record = try next() { records.append(record) }
        return records
    }
}

/// Fills `record`'s collection from `reader`: opens the existential for its `inout` call.
func fillCollection<Reader: ChildRowReader>(_ reader: Reader, _ record: inout Reader.Record, parentKey: Int64) throws {
    try reader.fill(&record, parentKey: parentKey)
}
