import Foundation
import Logbook

/// `--watch`: show a command's output, then show it again each time a commit from any process
/// changes it, until Ctrl-C, SIGTERM or SIGHUP (which exit 0). A table is redrawn in place on a terminal; JSON,
/// NDJSON and CSV write each new result set as it comes, NDJSON each followed by the line
/// `{"watch":{"rows":N}}`, its row count: without it one set's rows ran on into the next's, and
/// a set that became empty printed nothing (helper-46).
enum Watch {
    static let flag = Flag("--watch", help: "Keep running and show the results again whenever they change (Ctrl-C stops).")

    /// Runs `render` once, or with `--watch`, again after every commit that changes its output.
    static func run(_ invocation: Invocation, store: Logbook, format: OutputFormat, render: () throws -> Void) throws {
        guard invocation.arguments.isSet(flag) else {
            try render()
            return
        }
        let interrupted = InterruptFlag()
        // Made before the first render, so that a commit during it is not missed.
        let watcher = try store.changeWatcher()
        let redraw = format == .table && isatty(STDOUT_FILENO) != 0 && invocation.terminalTakesEscapes
        var last: String?
        while !interrupted.isSet {
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
            try watcher.wait(pollingEvery: .milliseconds(100)) { interrupted.isSet }
        }
    }
}

/// Set when SIGINT, SIGTERM or SIGHUP arrives; their default action (kill the process) is replaced,
/// so a watch loop can finish its output, close the database and exit 0. (Killed by SIGTERM or
/// SIGHUP, a watch left an empty `-wal` and `-shm` beside the file it read; helper-66.)
private final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    private let sources: [DispatchSourceSignal]

    init() {
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
        for source in sources {
            source.setEventHandler { [weak self] in self?.raise() }
            source.resume()
        }
    }

    private func raise() {
        lock.lock()
        set = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return set
    }
}
