import CSQLite

extension Connection {
    /// Calls `body` each time a transaction of this connection is about to commit (SQLite's
    /// commit hook), on the thread committing; nil removes it. `body` must not use the connection.
    /// A commit `body` sees may still fail; it never misses one that succeeds.
    public func onCommit(_ body: (() -> Void)?) {
        let hook = body.map(CommitHook.init)
        if let hook {
            sqlite3_commit_hook(handle, { context in
                Unmanaged<CommitHook>.fromOpaque(context!).takeUnretainedValue().body()
                return 0  // let the commit go on
            }, Unmanaged.passUnretained(hook).toOpaque())
        } else {
            sqlite3_commit_hook(handle, nil, nil)
        }
        // Replaced only once SQLite no longer points to the one before.
        commitHook = hook
    }
}

/// The closure of ``Connection/onCommit(_:)``, kept by its connection while SQLite may call it.
final class CommitHook {
    let body: () -> Void

    init(_ body: @escaping () -> Void) { self.body = body }
}
