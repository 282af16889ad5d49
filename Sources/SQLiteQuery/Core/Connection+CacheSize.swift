extension Connection {
    /// Runs `body` with the page cache of ``Options/bulkWriteCacheSizeKiB`` (or the cache it has,
    /// when larger), then restores the size it found, whether `body` returns or throws.
    ///
    /// Runs around a transaction, not inside it (``Database/withBulkWriteCache(_:)``), so that the
    /// size is restored after the commit or rollback: a statement interrupted by a
    /// ``Cancellation`` leaves SQLite refusing the next `PRAGMA` until the transaction's statements
    /// are done.
    func withBulkWriteCache<Result>(_ body: () throws -> Result) throws -> Result {
        // PRAGMA cache_size is negative in KiB, or positive in pages when another program set it so.
        let found = try scalar("PRAGMA main.cache_size", as: Int.self) ?? -options.cacheSizeKiB
        let foundForTemporaryTables = try scalar("PRAGMA temp.cache_size", as: Int.self) ?? -2_000
        let bulk = -options.bulkWriteCacheSizeKiB
        let bulkForTemporaryTables = -options.bulkWriteCacheSizeKiB / Self.bulkWriteCacheShareOfTemporaryTables
        func restore() throws {
            try execute("PRAGMA main.cache_size = \(found); PRAGMA temp.cache_size = \(foundForTemporaryTables)")
        }
        try execute("""
            PRAGMA main.cache_size = \(found < 0 ? min(found, bulk) : bulk);
            PRAGMA temp.cache_size = \(foundForTemporaryTables < 0 ? min(foundForTemporaryTables, bulkForTemporaryTables) : bulkForTemporaryTables)
            """)
        let result: Result
        do {
            result = try body()
        } catch {
            try? restore()
            throw error
        }
        try restore()
        return result
    }

    /// The temporary tables of a bulk write (those an import keeps) get this fraction of
    /// ``Options/bulkWriteCacheSizeKiB``, and memory stays flat past it. SQLite's default of 2,000
    /// KiB spilled them to their temporary file a page at a time: importing 400,000 days without
    /// ids, all counted in a temporary table, took 0.9–1.1 s of system time, 0.4 s with 16 MiB.
    static let bulkWriteCacheShareOfTemporaryTables = 4
}

extension Database {
    /// Runs `body`, which writes one large transaction (`write(_:)` inside it), with the writer's
    /// page cache at ``Connection/Options/bulkWriteCacheSizeKiB`` (or its own, when larger), and
    /// restores the writer's size after the transaction has committed or rolled back.
    ///
    /// Once a transaction's changed pages outgrow the cache, SQLite spills them to the write-ahead
    /// log and finds them there again on every later read, through one hash table per 4,096
    /// frames: with a small cache each row of a long import costs more than the last.
    public func withBulkWriteCache<Result>(_ body: () throws -> Result) throws -> Result {
        try withConnection { writer in try writer.withBulkWriteCache(body) }
    }
}
