extension TableDescription {
    /// A cursor over the records of `page`, each with its child collections, memory flat however
    /// many records the page holds. The parents stream from one statement; when the page has no
    /// LIMIT or OFFSET and its condition no subquery or function call (cheap to run again), each
    /// child collection streams beside them from one statement that selects the page again;
    /// otherwise each batch of ``batchSize`` parents has its children selected by row key, so a
    /// costly condition (functions, nested subqueries) or a LIMIT runs once.
    ///
    /// The statements are cached together under the page's SQL (``Connection/cachedStatements(key:sql:)``):
    /// a fetch that runs again with other values finds them without building their SQL.
    public func cursor(_ page: FetchPage, in connection: Connection) throws -> RecordCursor<Record> {
        let streamsChildren = !children.isEmpty && page.repeatsCheaply
        let statements = try QueryError.refusingWhatSQLiteCannotParse {
            try connection.cachedStatements(key: page.statementKey(signature: streamsChildren ? sql.lockstepSignature : sql.selectColumns)) {
                [page.parentStatement(columns: sql.selectColumns).sql] + (streamsChildren ? children.map { $0.readerSQL(for: page) } : [])
            }
        }
        let arguments = page.arguments
        for statement in statements { try statement.bind(arguments) }
        if children.isEmpty || streamsChildren {
            // By index: `zip` and `map` over these arrays run generic here, about 3,000
            // instructions a step under `callgrind`.
            var readers: [any ChildRowReader<Record>] = []
            for index in children.indices { readers.append(try children[index].makeReader(reading: statements[index + 1])) }
            return RecordCursor(statement: statements[0], keyColumn: columns.count, decode: decode,
                                children: .streaming(fill: fillingCollections(from: readers)))
        }
        return RecordCursor(statement: statements[0], keyColumn: columns.count, decode: decode,
                            children: .batched(size: Self.batchSize) { [children] parents in
            let keyed = page.restricted(toRowKeys: parents.map(\.key))
            let keyedArguments = keyed.arguments
            let fill = fillingCollections(from: try children.map { child in
                let statement = try connection.cachedStatement(child.readerSQL(for: keyed))
                try statement.bind(keyedArguments)
                return try child.makeReader(reading: statement)
            })
            return try parents.map { parent in
                var record = parent.record
                try fill(&record, parent.key)
                return record
            }
        })
    }

    /// How many parent records a cursor reads before selecting their child collections (a screenful
    /// or a few: a page of a list, `--limit`); bound parameters stay far below SQLite's limit of 32,766.
    public static var batchSize: Int { 1_000 }

    /// The page of records an SQL condition and order select. `condition` and `orderBy` are SQL
    /// over this table, qualified by its name, with `?` parameters bound from `arguments`.
    public func page(where condition: String? = nil, arguments: [DatabaseValue] = [], orderBy: String? = nil,
                     limit: Int? = nil, offset: Int? = nil) -> FetchPage {
        FetchPage(table: name, rowKey: rowKey, whereSQL: condition.map { " WHERE \($0)" } ?? "",
                  whereArguments: arguments,
                  orderSQL: (orderBy.map { $0 + ", " } ?? "") + "\(name).\(rowKey)", orderArguments: [],
                  limitSQL: limitSQL(limit, offset), repeatsCheaply: condition == nil && limit == nil && offset == nil)
    }

    /// The page of records a `RecordQuery` selects.
    public func page(_ query: RecordQuery, schema: QuerySchema<Record>, in connection: Connection) throws -> FetchPage {
        let condition = query.renderedCondition
        var order = SQLRenderer()
        for ordering in query.ordering {
            order.append(ordering.expression)
            if let comparator = ordering.comparator {
                order.appendText(" COLLATE " + (try connection.collationName(for: comparator)))
            }
            order.appendText(ordering.descending ? " DESC, " : ", ")
        }
        order.appendText("\(name).\(schema.identity)")
        return FetchPage(table: name, rowKey: rowKey, whereSQL: condition.map { " WHERE " + $0.sql } ?? "",
                         whereArguments: condition?.arguments ?? [], orderSQL: order.sql, orderArguments: order.arguments,
                         limitSQL: limitSQL(query.limit, query.offset),
                         repeatsCheaply: (condition?.isPlain ?? true) && query.limit == nil && query.offset == nil)
    }

    private func limitSQL(_ limit: Int?, _ offset: Int?) -> String {
        limit == nil && offset == nil ? "" : " LIMIT \(limit ?? -1) OFFSET \(offset ?? 0)"
    }

    /// The record with `identity`, with its child collections, or nil.
    public func fetchOne(identity: some SQLiteValue, in connection: Connection) throws -> Record? {
        try cursor(page(where: "\(name).\(self.identity.name) = ?", arguments: [identity.databaseValue]),
                   in: connection).next()
    }

    /// Records matching an SQL condition, ordered and paged, with their child collections.
    public func fetchAll(where condition: String? = nil, arguments: [DatabaseValue] = [], orderBy: String? = nil,
                         limit: Int? = nil, offset: Int? = nil, in connection: Connection) throws -> [Record] {
        try cursor(page(where: condition, arguments: arguments, orderBy: orderBy, limit: limit, offset: offset),
                   in: connection).collect()
    }

    /// The number of rows matching an SQL condition.
    public func count(where condition: String? = nil, arguments: [DatabaseValue] = [],
                      in connection: Connection) throws -> Int {
        try connection.scalar("SELECT count(*) FROM \(name)" + (condition.map { " WHERE \($0)" } ?? ""),
                              arguments, as: Int.self) ?? 0
    }

    /// The number of rows a query's condition matches (its order and page are ignored).
    public func count(_ query: RecordQuery, in connection: Connection) throws -> Int {
        guard let condition = query.renderedCondition else { return try count(in: connection) }
        return try QueryError.refusingWhatSQLiteCannotParse { try count(where: condition.sql, arguments: condition.arguments, in: connection) }
    }
}

extension TableDescription {
    /// The records a `FetchDescriptor` selects (its `#Predicate` and sorts run in SQL through
    /// ``querySchema``), in its order, each with its child collections.
    public func fetch(_ descriptor: FetchDescriptor<Record>, in connection: Connection) throws -> [Record] {
        try cursor(try page(try querySchema.query(for: descriptor), schema: querySchema, in: connection), in: connection).collect()
    }
}
