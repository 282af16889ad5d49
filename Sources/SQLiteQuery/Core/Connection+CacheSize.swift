extension Connection {
    /// Runs `body`, one large write transaction, with the page cache of
    /// ``Options/bulkWriteCacheSizeKiB`` (or ``Options/cacheSizeKiB`` when larger), then restores the
    /// connection's own size, whether `body` returns or throws.
    ///
    /// Once a transaction's changed pages outgrow the cache, SQLite spills them to the write-ahead
    /// log and finds them there again on every later read, through one hash table per 4,096 frames:
    /// with a small cache each row of a long import costs more than the last.
    public func withBulkWriteCache<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("PRAGMA cache_size = -\(max(options.bulkWriteCacheSizeKiB, options.cacheSizeKiB))")
        defer { try? execute("PRAGMA cache_size = -\(options.cacheSizeKiB)") }
        return try body()
    }
}
