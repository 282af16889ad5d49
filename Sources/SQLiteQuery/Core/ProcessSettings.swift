import CSQLite

/// SQLite's settings for a whole process, which a program may choose for itself and a library
/// must not (another library in the process may rely on them).
public enum ProcessSettings {
    /// Stops SQLite counting the memory it uses (`SQLITE_CONFIG_MEMSTATUS`): every allocation and
    /// release then skips a process-wide mutex and its bookkeeping. `sqlite3_memory_used()` then
    /// reads 0, and the soft heap limit cannot work. SQLite takes it only before its first
    /// connection in the process; returns whether it did.
    @discardableResult
    public static func stopCountingMemory() -> Bool {
        logbook_sqlite3_config_memstatus(0) == SQLITE_OK
    }
}
