import CSQLite

/// What a connection has seen of its file: a different stamp means the file may have changed.
struct FileStamp: Equatable {
    /// `PRAGMA data_version`: changes when the connection's next read sees another connection's commit.
    let dataVersion: Int
    /// `sqlite3_total_changes64`: rows this connection inserted, updated or deleted, rolled back or not.
    let ownChanges: Int64
}

extension Connection {
    /// `compute()`'s value for the file as it is now: computed on the first call with `key`, and
    /// again only once the file may have changed since (another connection committed, or this one
    /// changed a row); otherwise the value from the last computation. For answers that cost a scan
    /// of a large table and that only a write can change.
    ///
    /// The stamp is read before `compute` runs, so a commit that lands while it runs makes the next
    /// call compute again: a stored value is never older than its stamp.
    public func valueWhileUnchanged<Value>(_ key: String, _ compute: () throws -> Value) throws -> Value {
        let stamp = FileStamp(dataVersion: try dataVersion, ownChanges: totalChanges)
        if let stored = unchangedValues[key], stored.stamp == stamp, let value = stored.value as? Value { return value }
        let value = try compute()
        unchangedValues[key] = (stamp, value)
        return value
    }
}
