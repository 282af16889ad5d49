extension TableDescription {
    /// A cursor over the records of `page`, each with its child collections, memory flat however
    /// many records the page holds and however many elements each has. The parents stream from
    /// one statement. When the page has no LIMIT or OFFSET and its condition no subquery or
    /// function call (cheap to run again), and SQLite can deliver the child rows in the parents'
    /// order without sorting them, each child collection streams beside them from one statement
    /// that selects the page again. Otherwise each parent's children are selected by its row key
    /// as it comes: a costly condition or a LIMIT runs
    /// once, and an order no index holds sorts the parents alone, not every child row of the page
    /// before the first record.
    ///
    /// The statements are cached together under the page's SQL (``Connection/cachedStatements(key:sql:)``):
    /// a fetch that runs again with other values finds them without building their SQL or
    /// planning them again.
    public func cursor(_ page: FetchPage, in connection: Connection) throws -> RecordCursor<Record> {
        let mayStreamChildren = !children.isEmpty && page.repeatsCheaply
        let statements = try QueryError.refusingWhatSQLiteCannotParse {
            try connection.cachedStatements(key: page.statementKey(signature: mayStreamChildren ? sql.lockstepSignature : sql.selectColumns)) {
                let parentSQL = page.parentStatement(columns: sql.selectColumns).sql
                guard mayStreamChildren else { return [parentSQL] }
                let childSQL = children.map { $0.readerSQL(for: page) }
                // A sorted child statement reads and sorts every child row of the page before its
                // first (10,000 drafts of 1,000 items ordered by `createdAt`: 7 s; helper-31).
                return try childSQL.contains(where: connection.planSortsRows) ? [parentSQL] : [parentSQL] + childSQL
            }
        }
        let arguments = page.arguments
        for statement in statements { try statement.bind(arguments) }
        // By index: `zip` and `map` over these arrays run generic here, about 3,000 instructions
        // a step under `callgrind`.
        var readers: [any ChildRowReader<Record>] = []
        if statements.count > 1 {
            for index in children.indices { readers.append(try children[index].makeReader(reading: statements[index + 1])) }
        } else {
            for index in children.indices {
                readers.append(children[index].makeOneParentReader(reading: try connection.cachedStatement(sql.oneParentChildren[index])))
            }
        }
        return RecordCursor(statement: statements[0], keyColumn: columns.count, decode: decode,
                            fill: fillingCollections(from: readers))
    }

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
        // A key after one of the same value and comparison breaks no tie that one left: left out,
        // so that repeated keys never reach SQLite's limit of 2,000 terms (helper-70).
        var distinct: [Ordering] = []
        for ordering in query.ordering {
            guard !distinct.contains(where: { $0.expression == ordering.expression && $0.comparator == ordering.comparator }) else {
                continue
            }
            distinct.append(ordering)
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
