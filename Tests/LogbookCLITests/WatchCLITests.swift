import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// `--watch` across processes: a change written by one `logbook` shows up in another's output,
/// and Ctrl-C (SIGINT) ends the watch with exit status 0.
final class WatchCLITests: XCTestCase {
    /// `logbook ARGUMENTS --watch --format ndjson` on `cli`'s database, started, its output going
    /// to `output` and its errors to `errors` (by default, nowhere).
    private func startWatch(_ cli: CLIHarness, _ arguments: [String], writingTo output: URL, errorsTo errors: URL? = nil) throws -> Process {
        let watcher = Process()
        watcher.executableURL = CLIHarness.executable
        watcher.arguments = ["--db", cli.database.path] + arguments + ["--watch", "--format", "ndjson"]
        watcher.environment = ["TZ": "UTC", "HOME": cli.folder.path]
        watcher.standardOutput = try FileHandle(forWritingTo: output)
        watcher.standardError = try errors.map { try FileHandle(forWritingTo: $0) } ?? FileHandle.nullDevice
        try watcher.run()
        return watcher
    }

    func testWatchSeesAnotherProcessAndStopsCleanlyOnInterrupt() throws {
        let cli = try CLIHarness()
        try cli.run(["init"])
        let output = cli.folder.appendingPathComponent("watch.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let watcher = try startWatch(cli, ["count", "history"], writingTo: output)

        func contents() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        func waitFor(_ text: String, within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if contents().contains(text) { return true }
                usleep(20_000)
            }
            return false
        }
        let end = #"{"watch":{"rows":1}}"# + "\n"
        XCTAssertTrue(waitFor("{\"count\":0}\n" + end, within: 5), contents())
        try cli.run(["history", "add", "Squat", "--at", "2026-01-01T10:00:00Z"])
        XCTAssertTrue(waitFor("{\"count\":1}\n" + end, within: 1.5), "the change from another process within a second: \(contents())")
        try cli.run(["drafts", "add", "--version", "9"])
        usleep(400_000)
        XCTAssertEqual(contents(), "{\"count\":0}\n" + end + "{\"count\":1}\n" + end, "a commit that leaves the count alone prints nothing")

        watcher.interrupt()
        watcher.waitUntilExit()
        XCTAssertEqual(watcher.terminationReason, .exit)
        XCTAssertEqual(watcher.terminationStatus, 0)
    }

    /// SIGTERM (`timeout`, `kill`) and SIGHUP (a closed terminal) end a watch as Ctrl-C does: exit
    /// 0 with the database closed, no `-wal` or `-shm` left beside it (they were, by a read-only
    /// watch that died of the signal; helper-66).
    func testTerminationAndHangUpEndAWatchWithTheDatabaseClosed() throws {
        let cli = try CLIHarness()
        try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-06T08:00:00Z"])
        let sidecars = { ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: cli.database.path + $0) } }
        XCTAssertEqual(sidecars(), [], "the last connection's close removes them")
        for number in [SIGTERM, SIGHUP, SIGINT] {
            let output = cli.folder.appendingPathComponent("watch-\(number).out")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let watcher = try startWatch(cli, ["count", "history"], writingTo: output)
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline && !((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("watch") { usleep(20_000) }
            XCTAssertEqual(sidecars(), ["-wal", "-shm"], "signal \(number): the watch has the database open")
            kill(watcher.processIdentifier, number)
            watcher.waitUntilExit()
            XCTAssertEqual(watcher.terminationReason, .exit, "signal \(number)")
            XCTAssertEqual(watcher.terminationStatus, 0, "signal \(number)")
            XCTAssertEqual(sidecars(), [], "signal \(number)")
        }
    }

    /// A signal at any moment of a watch's start ends it, the database closed: caught by dispatch
    /// sources made once the file was open, and ignored until they were in place, an early one
    /// killed it beside its open file (a `-wal` and `-shm` left), or was lost and the watch ran
    /// on (helper-68). Seeded moments (`LOGBOOK_WATCH_SIGNAL_SEED`) from 0 to 40 ms after the start.
    func testASignalAtAnyMomentOfTheStartEndsTheWatchWithTheDatabaseClosed() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_WATCH_SIGNAL_SEED", default: 0x5167)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-06T08:00:00Z"])
        let output = cli.folder.appendingPathComponent("watch.out")
        for run in 0..<PropertyTestSettings.scaled(24, by: "LOGBOOK_PROPERTY_SCALE") {
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let number = [SIGTERM, SIGINT, SIGHUP][random.int(0...2)]
            let delay = random.int(0...40_000)
            let watcher = try startWatch(cli, ["count", "history"], writingTo: output)
            usleep(UInt32(delay))
            kill(watcher.processIdentifier, number)
            let deadline = Date().addingTimeInterval(5)
            while watcher.isRunning && Date() < deadline { usleep(10_000) }
            let context = "seed \(seed), run \(run): signal \(number) after \(delay) µs"
            XCTAssertFalse(watcher.isRunning, "\(context): the watch runs on")
            if watcher.isRunning { watcher.terminate() }
            watcher.waitUntilExit()
            // Before the tool reads --watch the signal ends it as any command; after, with exit 0.
            XCTAssertTrue(watcher.terminationReason == .exit ? watcher.terminationStatus == 0 : watcher.terminationStatus == number,
                          "\(context): \(watcher.terminationReason) \(watcher.terminationStatus)")
            XCTAssertEqual(["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: cli.database.path + $0) }, [], context)
        }
    }

    /// A signal ends a watch that waits for another program's lock as it ends any watch, exit 0
    /// and nothing on stderr, at once and while the lock is still held: the wait went on for the rest of the
    /// busy timeout (5 s), then the watch failed, exit 1, saying the database was locked. The
    /// other program switched the file to a rollback journal, whose exclusive lock stops readers,
    /// and holds that lock; seeded signals and moments (`LOGBOOK_WATCH_LOCK_SEED`), while the
    /// watch opens the file and while it watches.
    func testASignalEndsAWatchWaitingForAnotherProgramsLock() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_WATCH_LOCK_SEED", default: 0x10c4)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-06T08:00:00Z"])
        let output = cli.folder.appendingPathComponent("watch.out"), errors = cli.folder.appendingPathComponent("watch.err")
        // Another program's connection, in the test's process (SQLite's locks are a process's own).
        let holder = try Connection(path: cli.database.path)
        try holder.execute("PRAGMA journal_mode = DELETE")
        for run in 0..<PropertyTestSettings.scaled(4, by: "LOGBOOK_PROPERTY_SCALE") {
            let number = [SIGTERM, SIGINT, SIGHUP][random.int(0...2)]
            let whileWatching = random.chance(0.5)
            let delay = random.int(200_000...2_000_000)
            let context = "seed \(seed), run \(run): signal \(number) \(delay) µs after the lock, "
                + (whileWatching ? "taken while the watch watched" : "taken before the watch started")
            for file in [output, errors] { FileManager.default.createFile(atPath: file.path, contents: nil) }
            var watcher: Process?
            if whileWatching {
                watcher = try startWatch(cli, ["count", "history"], writingTo: output, errorsTo: errors)
                let shown = Date().addingTimeInterval(5)
                while Date() < shown && !((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("watch") { usleep(20_000) }
            }
            // Retried until the watch is between two looks at the file.
            let locked = Date().addingTimeInterval(5)
            while (try? holder.execute("BEGIN EXCLUSIVE")) == nil, Date() < locked { usleep(10_000) }
            XCTAssertFalse(holder.isAutocommit, "\(context): the other program holds the lock")
            let started = try watcher ?? startWatch(cli, ["count", "history"], writingTo: output, errorsTo: errors)
            usleep(UInt32(delay))
            XCTAssertTrue(started.isRunning, "\(context): the watch waits for the lock")
            kill(started.processIdentifier, number)
            // Well before the 5 s busy timeout: the wait itself ends (this bounds a wait, not a speed).
            let signalled = Date()
            while started.isRunning && Date() < signalled.addingTimeInterval(20) { usleep(10_000) }
            let ended = Date().timeIntervalSince(signalled)
            if started.isRunning { started.terminate() }
            started.waitUntilExit()
            XCTAssertLessThan(ended, 2.5, "\(context): the watch waited for the lock after the signal")
            XCTAssertFalse(holder.isAutocommit, "\(context): the lock was held until the watch had ended")
            XCTAssertEqual(started.terminationReason, .exit, context)
            XCTAssertEqual(started.terminationStatus, 0, context)
            XCTAssertEqual(try String(contentsOf: errors, encoding: .utf8), "", context)
            try holder.execute("ROLLBACK")
        }
    }

    /// In NDJSON each result set ends with `{"watch":{"rows":N}}`, so a script tells one set from
    /// the next and sees a set that became empty (helper-46: a listing's sets ran together, and
    /// the removal of its only record printed nothing).
    func testEachNDJSONResultSetEndsWithItsRowCount() throws {
        let cli = try CLIHarness()
        try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-06T08:00:00Z"])
        let output = cli.folder.appendingPathComponent("watch.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let watcher = try startWatch(cli, ["history", "list", "--where", #"exercises contains "Squat""#], writingTo: output)
        func sets() -> [String] {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.hasPrefix(#"{"watch""#) ? String($0) : "day " + ($0.firstMatch(of: /"day":"([0-9-]+)"/).map { String($0.1) } ?? "?") }
        }
        func waitFor(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline && sets().count < count { usleep(20_000) }
            return sets().count >= count
        }
        XCTAssertTrue(waitFor(2), "\(sets())")
        try cli.run(["-q", "history", "remove", "--day", "2026-01-06", "Squat"])
        XCTAssertTrue(waitFor(3), "\(sets())")
        try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-07T08:00:00Z"])
        try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-08T08:00:00Z"])
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !(sets().suffix(3) == ["day 2026-01-07", "day 2026-01-08", #"{"watch":{"rows":2}}"#]) { usleep(20_000) }
        watcher.interrupt()
        watcher.waitUntilExit()
        XCTAssertEqual(watcher.terminationStatus, 0)
        XCTAssertEqual(Array(sets().prefix(3)), ["day 2026-01-06", #"{"watch":{"rows":1}}"#, #"{"watch":{"rows":0}}"#])
        XCTAssertEqual(Array(sets().suffix(3)), ["day 2026-01-07", "day 2026-01-08", #"{"watch":{"rows":2}}"#])
    }

    /// A watch whose output cannot be written (`/dev/full`) says so and exits 1 at its first
    /// result, in every data format and for a result of any size: one that fits stdout's buffer
    /// failed only when flushed, which went unchecked, and the watch ran on until Ctrl-C, then
    /// exited 0 with nothing said.
    func testAWatchThatCannotWriteSaysSoAndExits() throws {
        let cli = try CLIHarness()
        try cli.run(["history", "add", "Squat", "--at", "2026-01-01T10:00:00Z"])
        let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        for arguments in [["count", "history"], ["report", "exercises"], ["report", "history", "--by", "day", "--from", "2000-01-01"]] {
            for format in ["csv", "ndjson", "json", "table"] {
                let watcher = Process()
                watcher.executableURL = CLIHarness.executable
                watcher.arguments = ["--db", cli.database.path] + arguments + ["--watch", "--format", format]
                watcher.environment = ["TZ": "UTC", "HOME": cli.folder.path]
                watcher.standardOutput = full
                let errors = Pipe()
                watcher.standardError = errors
                try watcher.run()
                let deadline = Date().addingTimeInterval(20)
                while watcher.isRunning && Date() < deadline { usleep(20_000) }
                if watcher.isRunning { watcher.interrupt() }
                watcher.waitUntilExit()
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                XCTAssertEqual(watcher.terminationStatus, 1, "\(arguments) \(format): \(message)")
                XCTAssertTrue(message.contains("cannot write to standard output"), "\(arguments) \(format): \(message)")
            }
        }
    }
}
