import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// A process that may not make another thread (`ulimit -u`, a container's limit on processes):
/// an import waited for ever for the thread it handed days to count, holding the write lock, and
/// a CSV report for its writing thread (helper-76). The work is done on the command's own thread
/// then, with the same result.
final class ProcessLimitCLITests: XCTestCase {
    /// `ulimit -u 1` (through `prlimit`), for a user other than root, whom the limit does not bind.
    private func withoutThreads(_ cli: CLIHarness) throws -> [String] {
        // (`timeout` ends a run that hangs, as the old code did, so the test fails instead.)
        let limited = ["/usr/bin/timeout", "60", "/usr/bin/prlimit", "--nproc=1", "--"]
        guard getuid() == 0 else { return limited }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("running as root without /usr/bin/setpriv: root may always make threads")
        }
        XCTAssertEqual(chmod(cli.folder.path, 0o777), 0)
        return Array(limited.prefix(2)) + ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + limited.dropFirst(2)
    }

    func testWithoutAThreadToSpareImportsAndReportsFinishTheSame() throws {
        let cli = try CLIHarness()
        let days = (0..<3_000).map { index in
            #"{"day":"\#(CalendarDay(year: 2000, month: 1, day: 1)!.adding(days: index)!)","exercises":["Squat \#(index % 7)","Row"]}"#
        }
        let file = cli.folder.appendingPathComponent("days.ndjson")
        try Data((days.joined(separator: "\n") + "\n").utf8).write(to: file)
        XCTAssertEqual(chmod(file.path, 0o644), 0)
        let wrapper = try withoutThreads(cli)

        let imported = try BackgroundRun.run(cli, ["import", file.path], wrapper: wrapper)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try cli.run(["count", "history"]).stdout, "3000\n")
        XCTAssertEqual(try cli.run(["check"]).status, 0, "the tallies counted on the command's thread are exact")

        let report = ["report", "history", "--by", "day", "--format", "csv"]
        let limited = try BackgroundRun.run(cli, report, wrapper: wrapper)
        XCTAssertEqual(limited.status, 0, limited.stderr)
        XCTAssertEqual(limited.output, try cli.run(report).output)
        XCTAssertEqual(limited.lines.count, 3_001)
    }
}
