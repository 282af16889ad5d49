/// Steps through the records of a fetch, each with its child collections, holding one record in
/// memory at a time: for listings and exports of any size.
///
/// The parent statement runs once and is stepped as the records are asked for; the child
/// collections stream beside it, or are selected one parent at a time by row key (see
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
    /// Fills a record's child collections, given its row key (``fillingCollections(from:)``).
    private let fill: (inout Record, Int64) throws -> Void
    private var isDone = false
    /// The row key of the record ``nextParent()`` returned last. (Returned beside the record as a
    /// tuple, it cost a run-time lookup of the tuple's type per record in this generic code.)
    private var parentKey: Int64 = 0

    init(statement: Statement, keyColumn: Int, decode: @escaping (ElementRow) throws -> Record,
         fill: @escaping (inout Record, Int64) throws -> Void) {
        self.statement = statement
        self.keyColumn = keyColumn
        self.decode = decode
        self.fill = fill
    }

    // Once done, the statement was reset and may be in use elsewhere (it is cached): only a cursor
    // dropped before its last row still owns it.
    deinit {
        if !isDone { statement.reset() }
    }

    /// The next record, or nil after the last.
    public func next() throws -> Record? {
        guard var record = try nextParent() else { return nil }
        try fill(&record, parentKey)
        return record
    }

    /// The next parent row's record (without its child collections), its row key in `parentKey`,
    /// or nil after the last.
    private func nextParent() throws -> Record? {
        try stepParent() ? try decodeParent() : nil
    }

    /// Steps to the next parent row and reads its row key into `parentKey`; false after the last.
    private func stepParent() throws -> Bool {
        guard !isDone else { return false }
        guard try statement.step() else {
            isDone = true
            statement.reset()
            return false
        }
        parentKey = try statement.column(keyColumn)
        return true
    }

    /// The record of the parent row stepped to, without its child collections.
    private func decodeParent() throws -> Record {
        try decode(ElementRow(statement: statement, offset: 0))
    }

    /// Calls `body` with each remaining record, in order. The same as calling ``next()`` until it
    /// returns nil, without its `Optional<Record>` for each record: in this generic code, each
    /// looked that type up at run time (about 500 instructions a record).
    public func forEach(_ body: (Record) throws -> Void) throws {
        while try stepParent() {
            var record = try decodeParent()
            try fill(&record, parentKey)
            try body(record)
        }
    }

    /// Every remaining record.
    public func collect() throws -> [Record] {
        var records: [Record] = []
        try forEach { records.append($0) }
        return records
    }
}

/// What fills every child collection of a record, given its row key, from `readers`: built once
/// per fetch, because walking an array of `any ChildRowReader<Record>` for each record looked the
/// existential's type up at run time (under `callgrind`, a twentieth of a 30-day range fetch).
func fillingCollections<Record>(from readers: [any ChildRowReader<Record>]) -> (inout Record, Int64) throws -> Void {
    var fillAll: (inout Record, Int64) throws -> Void = { _, _ in }
    for reader in readers {
        let fillEarlier = fillAll
        fillAll = { record, parentKey in
            try fillEarlier(&record, parentKey)
            try fillCollection(reader, &record, parentKey: parentKey)
        }
    }
    return fillAll
}

/// Fills `record`'s collection from `reader`: opens the existential for its `inout` call.
private func fillCollection<Reader: ChildRowReader>(_ reader: Reader, _ record: inout Reader.Record, parentKey: Int64) throws {
    try reader.fill(&record, parentKey: parentKey)
}
