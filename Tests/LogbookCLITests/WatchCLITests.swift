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
}
