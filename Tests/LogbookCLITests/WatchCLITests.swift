import Foundation
import XCTest

/// `--watch` across processes: a change written by one `logbook` shows up in another's output,
/// and Ctrl-C (SIGINT) ends the watch with exit status 0.
final class WatchCLITests: XCTestCase {
    func testWatchSeesAnotherProcessAndStopsCleanlyOnInterrupt() throws {
        let cli = try CLIHarness()
        try cli.run(["init"])
        let output = cli.folder.appendingPathComponent("watch.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let watcher = Process()
        watcher.executableURL = CLIHarness.executable
        watcher.arguments = ["--db", cli.database.path, "count", "history", "--watch", "--format", "ndjson"]
        watcher.environment = ["TZ": "UTC", "HOME": cli.folder.path]
        watcher.standardOutput = try FileHandle(forWritingTo: output)
        watcher.standardError = FileHandle.nullDevice
        try watcher.run()

        func contents() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        func waitFor(_ text: String, within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if contents().contains(text) { return true }
                usleep(20_000)
            }
            return false
        }
        XCTAssertTrue(waitFor("{\"count\":0}", within: 5), contents())
        try cli.run(["history", "add", "Squat", "--at", "2026-01-01T10:00:00Z"])
        XCTAssertTrue(waitFor("{\"count\":1}", within: 1.5), "the change from another process within a second: \(contents())")
        try cli.run(["drafts", "add", "--version", "9"])
        usleep(400_000)
        XCTAssertEqual(contents(), "{\"count\":0}\n{\"count\":1}\n", "a commit that leaves the count alone prints nothing")

        watcher.interrupt()
        watcher.waitUntilExit()
        XCTAssertEqual(watcher.terminationReason, .exit)
        XCTAssertEqual(watcher.terminationStatus, 0)
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
