import CSQLite

extension Connection {
    /// Runs `body` and counts the SQLite virtual-machine instructions that the statements it runs on
    /// this connection execute, to within `granularity`: a measure of a query plan's work that is
    /// the same on every run and every machine, for tests that bound a plan's cost without timing
    /// it (no plan that repeats work per row goes unnoticed).
    ///
    /// Counts through a progress handler, which replaces any other one on this connection while
    /// `body` runs (a ``Cancellation``'s watch included) and is removed after.
    public func countingVirtualMachineSteps<Result>(granularity: Int32 = 64,
                                                    _ body: () throws -> Result) rethrows -> (result: Result, steps: Int) {
        let counter = ProgressCalls()
        sqlite3_progress_handler(handle, granularity, { context in
            Unmanaged<ProgressCalls>.fromOpaque(context!).takeUnretainedValue().calls += 1
            return 0
        }, Unmanaged.passUnretained(counter).toOpaque())
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        let result = try withExtendedLifetime(counter) { try body() }
        return (result, counter.calls * Int(granularity))
    }
}

/// How many times a progress handler was called.
private final class ProgressCalls {
    var calls = 0
}
