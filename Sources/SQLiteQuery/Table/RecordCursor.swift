/// Steps through the records of a fetch one at a time, each with its child collections, holding
/// one row of each statement in memory: for listings and exports of any size.
///
/// ```swift
/// let cursor = try table.cursor(try table.page(query, schema: schema, in: connection), in: connection)
/// while let record = try cursor.next() { write(record) }
/// ```
/// Use it inside one read transaction and finish with it before the connection runs other work.
public final class RecordCursor<Record> {
    private let statement: Statement
    private let readers: [any ChildRowReader<Record>]
    private let decode: (ElementRow) throws -> Record
    private let keyColumn: Int
    private var isDone = false

    init(statement: Statement, readers: [any ChildRowReader<Record>], keyColumn: Int,
         decode: @escaping (ElementRow) throws -> Record) {
        self.statement = statement
        self.readers = readers
        self.keyColumn = keyColumn
        self.decode = decode
    }

    // Once done, the statement was reset and may be in use elsewhere (it is cached): only a cursor
    // dropped before its last row still owns it.
    deinit { if !isDone { statement.reset() } }

    /// The next record, or nil after the last.
    public func next() throws -> Record? {
        guard !isDone else { return nil }
        guard try statement.step() else {
            isDone = true
            statement.reset()
            return nil
        }
        var record = try decode(ElementRow(statement: statement, offset: 0))
        let key: Int64 = try statement.column(keyColumn)
        for reader in readers {
            try fill(reader, &record, key)
        }
        return record
    }

    private func fill<Reader: ChildRowReader>(_ reader: Reader, _ record: inout Record, _ key: Int64) throws
    where Reader.Record == Record {
        try reader.fill(&record, parentKey: key)
    }

    /// Every remaining record.
    public func collect() throws -> [Record] {
        var records: [Record] = []
        while let record = try next() { records.append(record) }
        return records
    }
}
