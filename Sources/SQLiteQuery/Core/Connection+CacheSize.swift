extension Connection {
    /// Runs `body` with the page cache of ``Options/bulkWriteCacheSizeKiB`` (or the cache it has,
    /// when larger), then restores the size it found, whether `body` returns or throws.
    ///
    /// For one large write transaction: call it around the transaction (`Database.write`), not
    /// inside it, so that the size is restored after the commit or rollback; a statement
    /// interrupted by a ``Cancellation`` leaves SQLite refusing the next `PRAGMA` until the
    /// transaction's statements are done. Once a transaction's changed pages outgrow the cache,
    /// SQLite spills them to the write-ahead log and finds them there again on every later read,
    /// through one hash table per 4,096 frames: with a small cache each row of a long import costs
    /// more than the last.
    public func withBulkWriteCache<Result>(_ body: () throws -> Result) throws -> Result {
        // PRAGMA cache_size is negative in KiB, or positive in pages when another program set it so.
        let found = try scalar("PRAGMA cache_size", as: Int.self) ?? -options.cacheSizeKiB
        let bulk = -options.bulkWriteCacheSizeKiB
        try execute("PRAGMA cache_size = \(found < 0 ? min(found, bulk) : bulk)")
        let result: Result
        do {
            result = try body()
        } catch {
            try? execute("PRAGMA cache_size = \(found)")
            throw error
        }
        try execute("PRAGMA cache_size = \(found)")
        return result
    }
}
