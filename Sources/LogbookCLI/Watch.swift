import Foundation
import Logbook
import SQLiteQuery

/// Set by the handler ``Watch/catchInterruptions()`` installs; read by the watch loop.
nonisolated(unsafe) private var interruptionReceived: sig_atomic_t = 0

/// `--watch`: show a command's output, then show it again each time a commit from any process
/// changes it, until Ctrl-C, SIGTERM or SIGHUP (which exit 0). A table is redrawn in place on a terminal; JSON,
/// NDJSON and CSV write each new result set as it comes, NDJSON each followed by the line
/// `{"watch":{"rows":N}}`, its row count: without it one set's rows ran on into the next's, and
/// a set that became empty printed nothing (helper-46).
enum Watch {
    static let flag = Flag("--watch", help: "Keep running and show the results again whenever they change (Ctrl-C stops).")

    /// From now on SIGINT, SIGTERM and SIGHUP end a watch loop, which then finishes its output,
    /// closes the database and exits 0, instead of killing the process: called once `--watch` is
    /// read, before the database is opened. (Killed by SIGTERM or SIGHUP, a watch left an empty
    /// `-wal` and `-shm` beside the file it read (helper-66); caught by dispatch sources, made
    /// after the file was opened and ignoring the signal until they were in place, one that came
    /// early killed it, or was lost and the watch ran on (helper-68).) A plain handler that sets a
    /// flag, which the loop reads at least every 100 ms, is safe in a signal handler.
    static func catchInterruptions() {
        // Initialized here, never first in the handler (a global's first use may take a lock).
        interruptionReceived = 0
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { _ in interruptionReceived = 1 }
        }
    }

    private static var isInterrupted: Bool { interruptionReceived != 0 }

    /// For the connection's ``Connection/Options/stopsWaiting``: a signal also ends a wait for
    /// another program's lock, which otherwise lasted the busy timeout (5 s) and then failed, exit 1.
    static let stopsWaiting: @Sendable () -> Bool = { isInterrupted }

    /// Whether `error` is a wait for a lock that a signal cut short: the watch ends as on the
    /// signal, exit 0, with what it showed before.
    static func wasStopped(by error: any Error) -> Bool {
        guard isInterrupted else { return false }
        switch error {
        case LogbookError.database(_, let error): return error.isBusy
        case let error as SQLiteError: return error.isBusy
        default: return false
        }
    }

    /// Runs `render` once, or with `--watch`, again after every commit that changes its output.
    static func run(_ invocation: Invocation, store: Logbook, format: OutputFormat, render: () throws -> Void) throws {
        guard invocation.arguments.isSet(flag) else {
            try render()
            return
        }
        // Made before the first render, so that a commit during it is not missed.
        let watcher = try store.changeWatcher()
        let redraw = format == .table && isatty(STDOUT_FILENO) != 0 && invocation.terminalTakesEscapes
        var last: String?
        while !isInterrupted {
            let output = try Console.capture(render)
            // Byte for byte: output that changes only from NFC to NFD text is a change too.
            if !(last.map { output.utf8.elementsEqual($0.utf8) } ?? false) {
                if redraw { try Console.write("\u{1B}[H\u{1B}[2J") }
                try Console.write(output)
                if format == .ndjson { try Console.write(#"{"watch":{"rows":\#(output.utf8.count { $0 == 0x0A })}}"# + "\n") }
                // Checked: a result that fits stdout's buffer fails only here (`/dev/full`).
                try Console.finish()
                last = output
            }
            try watcher.wait(pollingEvery: .milliseconds(100)) { isInterrupted }
        }
    }
}
