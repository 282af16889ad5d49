import CSQLite

extension Connection {
    /// The VFS every connection opens its file with: SQLite's default VFS with the blocks of the
    /// log's index (`-shm`) allocated when SQLite maps them, so that a full disk fails a command
    /// with an error instead of killing it with SIGBUS, on file systems whose blocks are smaller
    /// than a page (`logbook_vfs.h`). Registered once, not as the process's default; `nil` (the
    /// default VFS) where it cannot be.
    static let vfsName: String? = logbook_vfs_register().map { String(cString: $0) }
}
