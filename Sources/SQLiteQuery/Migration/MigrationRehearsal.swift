extension Migrator {
    /// Why applying the pending migrations to `connection`'s file would fail, found by applying
    /// them to a copy of its schema and migration history in memory, without its rows; nil when
    /// they apply there. Changes nothing. What only the rows decide (a constraint a row breaks, a
    /// full disk) is not seen: migrating the file can still fail on it, changing nothing.
    public func rehearsalFailure(of connection: Connection) throws -> String? {
        let copy = try SchemaCopy.make(of: connection, withRowsOf: ["schema_migrations", "app_migrations"])
        do {
            try migrate(copy)
            return nil
        } catch let error as MigrationError {
            return error.description
        } catch let error as SQLiteError {
            return error.message
        }
    }
}
