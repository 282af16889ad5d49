extension Connection {
    /// Runs `body` with the page cache of ``Options/bulkWriteCacheSizeKiB`` (or the cache it has,
    /// when larger) and statement journals kept in memory (`PRAGMA temp_store = MEMORY`), then
    /// restores both settings it found, whether `body` returns or throws.
    ///
    /// A statement that writes several rows of a table with constraints (the derived rows'
    /// multi-row inserts) keeps a statement journal: the pages it changes that existed before it.
    /// Once the transaction outgrows the page cache, every such statement also journals the pages
    /// SQLite spills for it, about 16 (64 KiB) each, and past 64 KiB SQLite moves the journal to a
    /// temporary file for the rest of the transaction: `strace` counted 102,828 writes (210 MB) to
    /// `/var/tmp/etilqs_…` in a one-transaction save of a million exercises, none with the
    /// journal in memory. Held in memory, a statement's journal is bounded by the pages that one
    /// statement changes or spills (about 16 for the derived rows' batches).
    ///
    /// Runs around a transaction, not inside it (``Database/withBulkWriteCache(_:)``), so that the
    /// settings are restored after the commit or rollback: a statement interrupted by a
    /// ``Cancellation`` leaves SQLite refusing the next `PRAGMA` until the transaction's statements
    /// are done, SQLite refuses to change `temp_store` inside a transaction, and a transaction
    /// takes the journal's place (memory or file) when it begins.
    func withBulkWriteCache<Result>(_ body: () throws -> Result) throws -> Result {
        // PRAGMA cache_size is negative in KiB, or positive in pages when another program set it so.
        let found = try scalar("PRAGMA cache_size", as: Int.self) ?? -options.cacheSizeKiB
        let bulk = -options.bulkWriteCacheSizeKiB
        var settings = "PRAGMA cache_size = \(found < 0 ? min(found, bulk) : bulk)"
        var restore = "PRAGMA cache_size = \(found)"
        // Inside a transaction already (a caller's own), the journal's place is chosen: left alone.
        if isAutocommit {
            settings += "; PRAGMA temp_store = MEMORY"
            restore += "; PRAGMA temp_store = \(try scalar("PRAGMA temp_store", as: Int.self) ?? 0)"
        }
        let result: Result
        do {
            try execute(settings)
            result = try body()
        } catch {
            try? execute(restore)
            throw error
        }
        try execute(restore)
        return result
    }
}

extension Database {
    /// Runs `body`, which writes one large transaction (`write(_:)` inside it), with the writer's
    /// page cache at ``Connection/Options/bulkWriteCacheSizeKiB`` (or its own, when larger) and its
    /// statement journals in memory, and restores the writer's settings after the transaction has
    /// committed or rolled back.
    ///
    /// Once a transaction's changed pages outgrow the cache, SQLite spills them to the write-ahead
    /// log and finds them there again on every later read, through one hash table per 4,096
    /// frames: with a small cache each row of a long import costs more than the last.
    public func withBulkWriteCache<Result>(_ body: () throws -> Result) throws -> Result {
        try withConnection { writer in try writer.withBulkWriteCache(body) }
    }
}
