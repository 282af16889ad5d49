import Foundation
import LogbookTestSupport
import XCTest

/// The system clock anywhere, and stepped while a command runs, through libfaketime's `faketime`
/// (which `.ci/run` installs; without it these tests skip). Found by helper-77.
final class SystemClockCLITests: XCTestCase {
    private func faketime() throws -> String {
        let path = "/usr/bin/faketime"
        guard FileManager.default.isExecutableFile(atPath: path) else { throw XCTSkip("faketime is not installed (apt-get install faketime)") }
        return path
    }

    /// `faketime` setting the clock `seconds` after 1970 (an offset from now: its absolute form
    /// reads no five-digit year), so each later run's clock is later by the time since: the
    /// messages are matched to the ten minutes.
    private func clock(at seconds: Int) throws -> [String] {
        let offset = seconds - Int(Date().timeIntervalSince1970)
        return [try faketime(), "-f", offset >= 0 ? "+\(offset)" : "\(offset)"]
    }

    /// With the clock in year 10000, where SQLite's time is NULL and every write failed with "NOT
    /// NULL constraint failed: change_log.at", a writing command (a dry run too) says the clock is
    /// outside the years Logbook stores, in one line, and writes nothing; into a new file it
    /// leaves none. At 9999-12-31T20:00Z, already 10000-01-01 in Tokyo, `today` and the words
    /// counted from it are refused: `today` was taken as 9999-12-31, and `history delete --day
    /// today` deleted that day.
    func testAClockOutsideTheYearsWritesNothingAndSaysSo() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["history", "add", "A", "--at", "2026-02-28T10:00:00Z"]).status, 0)
        XCTAssertEqual(try cli.run(["history", "add", "Keep", "--at", "9999-12-31T12:00:00Z"]).status, 0)
        XCTAssertEqual(try cli.run(["drafts", "add", "--version", "1.0"]).status, 0)
        let file = cli.folder.appendingPathComponent("day.ndjson")
        try Data(#"{"day":"2026-03-01","exercises":["Row"]}"#.utf8 + [10]).write(to: file)
        let before = cli.snapshot()

        let year10000 = try clock(at: 253_402_300_800 + 2 * 86_400)
        for arguments in [["history", "delete", "--day", "2026-02-28"], ["history", "rename", "A", "B"], ["drafts", "delete", "1.0"],
                          ["history", "add", "C", "--at", "2026-02-28T11:00:00Z"], ["import", file.path], ["import", "--dry-run", file.path],
                          ["migrate"], ["init"]] {
            let result = try BackgroundRun.run(cli, arguments, wrapper: year10000)
            XCTAssertFailure(result, status: 1, mentioning: "the system clock reads 10000-01-03T00:0", "Z, outside years 0001 to 9999")
            XCTAssertEqual(cli.snapshot(), before, "\(arguments)")
        }
        let fresh = try CLIHarness()
        XCTAssertFailure(try BackgroundRun.run(fresh, ["init"], wrapper: year10000), status: 1, mentioning: "the system clock reads 10000-01-03")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.database.path))
        XCTAssertEqual(try BackgroundRun.run(cli, ["count", "history"], wrapper: year10000).stdout, "2\n", "reading needs no time")

        let lastEvening = try clock(at: 253_402_300_800 - 4 * 3_600)
        for word in ["today", "yesterday", "monday", "3d"] {
            let result = try BackgroundRun.run(cli, ["--time-zone", "Asia/Tokyo", "history", "delete", "--day", word], wrapper: lastEvening)
            XCTAssertFailure(result, status: 2, mentioning: "invalid date '\(word)'", "the system clock reads 9999-12-31T20:0",
                             "Asia/Tokyo is outside years 0001 to 9999")
        }
        XCTAssertEqual(cli.snapshot(), before)
        XCTAssertEqual(try BackgroundRun.run(cli, ["history", "delete", "--day", "today"], wrapper: lastEvening).stderr,
                       "logbook: deleted 9999-12-31 (1 exercise)\n", "in UTC it is still 9999-12-31")
    }

    /// A wait is timed by a clock the wall clock's steps do not move: the second an empty file is
    /// watched for another process to fill it took 31 s when the clock was set back 30 s during
    /// it (and an hour for an hour).
    func testAWaitLastsItsTimeWhenTheWallClockIsSetBack() throws {
        let cli = try CLIHarness()
        let stamp = cli.folder.appendingPathComponent("faketime-offset")
        try Data("+0\n".utf8).write(to: stamp)
        XCTAssertTrue(FileManager.default.createFile(atPath: cli.database.path, contents: nil))
        let stepBack = DispatchWorkItem { try? Data("-30\n".utf8).write(to: stamp) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.4, execute: stepBack)
        let started = ContinuousClock.now
        // faketime sets up the library; its own clock setting is dropped so the file's offset counts.
        let result = try BackgroundRun.run(cli, ["history", "add", "X"], wrapper: [try faketime(), "-f", "+0", "/usr/bin/env", "-u", "FAKETIME",
                                                                              "FAKETIME_TIMESTAMP_FILE=\(stamp.path)", "FAKETIME_NO_CACHE=1",
                                                                              "FAKETIME_DONT_FAKE_MONOTONIC=1"])
        let elapsed = ContinuousClock.now - started
        XCTAssertFailure(result, status: 1, mentioning: "is an empty file")
        XCTAssertLessThan(elapsed, .seconds(15), "the wait followed the wall clock back")
    }
}
