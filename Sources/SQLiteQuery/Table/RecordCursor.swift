/// Steps through the records of a fetch, each with its child collections, holding at most
/// ``TableDescription/batchSize`` records in memory: for listings and exports of any size.
///
/// The parent statement runs once and is stepped as the records are asked for; the child
/// collections stream beside it, or are selected a batch of parents at a time by row key (see
/// ``TableDescription/cursor(_:in:)``).
///
/// ```swift
/// let cursor = try table.cursor(try table.page(query, schema: schema, in: connection), in: connection)
/// while let record = try cursor.next() { write(record) }
/// ```
/// Use it inside one read transaction and finish with it before the connection runs other work.
public final class RecordCursor<Record> {
    private let statement: Statement
    private let keyColumn: Int
    private let decode: (ElementRow) throws -> Record
    /// Gives a batch of parent records (with their row keys) their child collections; nil for a
    /// table without any.
    private let fillChildren: (([(record: Record, key: Int64)]) throws -> [Record])?
    private let batchSize: Int
    private var batch: [Record] = []
    private var position = 0
    private var isDone = false

    init(statement: Statement, keyColumn: Int, batchSize: Int, decode: @escaping (ElementRow) throws -> Record,
         fillChildren: (([(record: Record, key: Int64)]) throws -> [Record])?) {
        self.statement = statement
        self.keyColumn = keyColumn
        self.batchSize = batchSize
        self.decode = decode
        self.fillChildren = fillChildren
    }

    // Once done, the statement was reset and may be in use elsewhere (it is cached): only a cursor
    // dropped before its last row still owns it.
    deinit {
        if !isDone { statement.reset() }
    }

    /// The next record, or nil after the last.
    public func next() throws -> Record? {
        if position == batch.count {
            guard !isDone else { return nil }
            try readBatch()
            guard position < batch.count else { return nil }
        }
        defer { position += 1 }
        return batch[position]
    }

    /// Steps the parent statement for the next `batchSize` records, then gives them their children.
    private func readBatch() throws {
        var parents: [(record: Record, key: Int64)] = []
        while parents.count < batchSize {
            guard try statement.step() else {
                isDone = true
                statement.reset()
                break
            }
            parents.append((try decode(ElementRow(statement: statement, offset: 0)), try statement.column(keyColumn)))
        }
        batch = try fillChildren.map { try $0(parents) } ?? parents.map(\.record)
        position = 0
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
