extension TableDescription {
    /// Inserts `record` and its child collections. Returns the new row key.
    @discardableResult
    public func insert(_ record: Record, in connection: Connection) throws -> Int64 {
        let statement = try connection.cachedStatement(sql.insert)
        try bindColumns(of: record, to: statement)
        try statement.execute()
        let key = connection.lastInsertRowID
        try saveChildren(of: record, parentKey: key, replacing: false, in: connection)
        return key
    }

    /// Inserts `record` and its child collections unless a row holds its identity or another of its
    /// unique values; returns the new row key, or nil (nothing written) when one does. One statement
    /// where a look-up per unique value and an insert would take several.
    public func insertUnlessConflicting(_ record: Record, in connection: Connection) throws -> Int64? {
        try insertUnlessSkipped(record, with: sql.insertUnlessAnyConflict, in: connection)
    }

    /// Runs `insert`, an insert that may skip the row (`ON CONFLICT … DO NOTHING`), with `record`'s
    /// columns; when it wrote the row, saves the child collections and returns the new row key.
    private func insertUnlessSkipped(_ record: Record, with insert: String, in connection: Connection) throws -> Int64? {
        let statement = try connection.cachedStatement(insert)
        try bindColumns(of: record, to: statement)
        try statement.execute()
        guard connection.changes > 0 else { return nil }
        let key = connection.lastInsertRowID
        try saveChildren(of: record, parentKey: key, replacing: false, in: connection)
        return key
    }

    /// Inserts `record`, or when a row with its identity exists, overwrites that row's columns
    /// and replaces its child collections.
    /// Returns the row key.
    @discardableResult
    public func upsert(_ record: Record, in connection: Connection) throws -> Int64 {
        // A plain insert first: an ON CONFLICT … DO UPDATE statement carries the table's UPDATE
        // triggers, and with them a statement journal written on every execution, even when no
        // trigger fires (on the history table, a quarter more time for a bulk insert). The update
        // runs only when the row exists.
        if let key = try insertUnlessSkipped(record, with: sql.insertUnlessPresent, in: connection) { return key }
        let update = try connection.cachedStatement(sql.upsert)
        try bindColumns(of: record, to: update)
        try update.execute()
        let key = try existingRowKey(of: record, in: connection)
        try saveChildren(of: record, parentKey: key, replacing: true, in: connection)
        return key
    }

    /// Overwrites the row with `record`'s identity and replaces its child collections; throws
    /// ``RecordNotFound`` when there is none. Returns the row key.
    @discardableResult
    public func update(_ record: Record, in connection: Connection) throws -> Int64 {
        let statement = try connection.cachedStatement(sql.update)
        defer { statement.reset() }
        let next = try bindColumns(of: record, to: statement)
        try identity.bind(record, statement, next)
        guard try statement.step() else { throw notFound(record) }
        let key: Int64 = try statement.column(0)
        statement.reset()
        try saveChildren(of: record, parentKey: key, replacing: true, in: connection)
        return key
    }

    /// Deletes the row with `identity` and, through `ON DELETE CASCADE`, its child rows. Returns
    /// whether a row was deleted.
    @discardableResult
    public func delete(identity: some SQLiteValue, in connection: Connection) throws -> Bool {
        let statement = try connection.cachedStatement(sql.delete)
        try statement.bind(identity, at: 1)
        try statement.execute()
        return connection.changes > 0
    }

    /// The row key of the row with `identity`, or nil.
    public func rowKey(identity: some SQLiteValue, in connection: Connection) throws -> Int64? {
        let statement = try connection.cachedStatement(sql.rowKeyForIdentity)
        defer { statement.reset() }
        try statement.bind(identity, at: 1)
        return try statement.step() ? try statement.column(0) : nil
    }

    // MARK: Helpers

    /// Binds every column from parameter 1 on; returns the next free parameter index.
    @discardableResult
    private func bindColumns(of record: Record, to statement: Statement) throws -> Int {
        var index = 1
        for column in columns {
            try column.bind(record, statement, index)
            index += column.parameterCount
        }
        return index
    }

    private func saveChildren(of record: Record, parentKey: Int64, replacing: Bool, in connection: Connection) throws {
        for child in children {
            try child.save(record, parentKey: parentKey, replacing: replacing, in: connection)
        }
    }

    private func existingRowKey(of record: Record, in connection: Connection) throws -> Int64 {
        let statement = try connection.cachedStatement(sql.rowKeyForIdentity)
        defer { statement.reset() }
        try identity.bind(record, statement, 1)
        guard try statement.step() else { throw notFound(record) }
        return try statement.column(0)
    }

    private func notFound(_ record: Record) -> RecordNotFound {
        RecordNotFound(table: name, identity: "\(record[keyPath: identity.keyPath])")
    }
}
