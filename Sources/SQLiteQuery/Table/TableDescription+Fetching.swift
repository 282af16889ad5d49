extension TableDescription {
    /// The record with `identity`, with its child collections, or nil.
    public func fetchOne(identity: some SQLiteValue, in connection: Connection) throws -> Record? {
        try fetchAll(where: "\(name).\(self.identity.name) = ?", arguments: [identity.databaseValue],
                     in: connection).first
    }

    /// Records matching an SQL condition, ordered and paged, with their child collections.
    ///
    /// `condition` and `orderBy` are SQL over this table (qualified with its name) with `?`
    /// parameters bound from `arguments`; the query layer builds them from predicates and sort
    /// descriptors. Child collections are read with one ordered query per collection, never one
    /// query per record.
    public func fetchAll(where condition: String? = nil, arguments: [DatabaseValue] = [], orderBy: String? = nil,
                         limit: Int? = nil, offset: Int? = nil, in connection: Connection) throws -> [Record] {
        var tail = condition.map { " WHERE \($0)" } ?? ""
        if let orderBy { tail += " ORDER BY \(orderBy)" }
        if limit != nil || offset != nil { tail += " LIMIT \(limit ?? -1) OFFSET \(offset ?? 0)" }

        let statement = try connection.cachedStatement(sql.select + tail)
        defer { statement.reset() }
        try statement.bind(arguments)
        var records: [Record] = []
        var keys: [Int64] = []
        let keyColumn = columns.count
        while try statement.step() {
            records.append(try decode(ElementRow(statement: statement, offset: 0)))
            keys.append(try statement.column(keyColumn))
        }
        statement.reset()
        guard !records.isEmpty else { return [] }
        let parentKeys = tail.isEmpty ? nil : "SELECT \(name).\(rowKey) FROM \(name)\(tail)"
        for child in children {
            try child.load(into: &records, keys: keys, parentKeysSQL: parentKeys, arguments: arguments,
                           in: connection)
        }
        return records
    }

    /// The number of rows matching an SQL condition.
    public func count(where condition: String? = nil, arguments: [DatabaseValue] = [],
                      in connection: Connection) throws -> Int {
        try connection.scalar("SELECT count(*) FROM \(name)" + (condition.map { " WHERE \($0)" } ?? ""),
                              arguments, as: Int.self) ?? 0
    }
}
