import Foundation
import XCTest

final class DemoCLITests: XCTestCase {
    func testDemoRunsEveryStepAndCleansUp() throws {
        let cli = try CLIHarness()
        let tmp = cli.folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let result = try cli.run(["demo"], environment: ["TMPDIR": tmp.path], useDatabase: false)
        XCTAssertEqual(result.status, 0, result.stderr)
        for step in ["$ logbook drafts add", "$ logbook drafts show 2.5.0", "$ logbook history list",
                     "$ logbook count history", "$ logbook check", "checklist:  2 of 3 done",
                     "$ logbook import history.json", "history.plist and history-again.plist are byte-identical: yes",
                     "$ logbook report streaks", "$ logbook query", "--watch", "$ logbook history list --since 7d",
                     "$ logbook report calendar", "less · ░ ▒ ▓ █ more"] {
            XCTAssertTrue(result.stdout.contains(step), "missing \(step)")
        }
        XCTAssertTrue(result.stderr.contains("Refusing to submit: no version set"), result.stderr)
        XCTAssertTrue(result.stderr.contains("read 5, inserted 0, skipped 5"), "the second import is a no-op")
        XCTAssertTrue(result.stderr.contains("^^^^^^^"), "the filter mistake shows its caret")
        XCTAssertTrue(result.stderr.contains("'Bupree' is new; did you mean 'Burpee'?"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [], "the scratch database is removed")
    }

    /// A `$TMPDIR` that names no folder is not made (it was, and left behind): the scratch folder
    /// goes in `/tmp`, as the C library chooses, and is removed.
    func testDemoWithATMPDIRThatIsNoFolderUsesTmpAndMakesNothing() throws {
        let cli = try CLIHarness()
        let missing = cli.folder.appendingPathComponent("no-such-tmp/deeper")
        let file = cli.folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        for tmpdir in [missing.path, file.path, ""] {
            let result = try cli.run(["demo"], environment: ["TMPDIR": tmpdir], useDatabase: false)
            XCTAssertEqual(result.status, 0, "TMPDIR=\(tmpdir): \(result.stderr)")
            let database = try XCTUnwrap(result.lines.first?.split(separator: " ").last.map(String.init), result.stdout)
            XCTAssertTrue(database.hasPrefix("/tmp/logbook-demo-"), result.stdout)
            XCTAssertFalse(FileManager.default.fileExists(atPath: URL(fileURLWithPath: database).deletingLastPathComponent().path),
                           "the scratch folder is removed")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path))
        XCTAssertEqual(try Data(contentsOf: file), Data("x".utf8))
    }

    func testDemoKeepsTheDatabaseNamedWithDB() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        XCTAssertEqual(try cli.run(["count", "history"]).stdout, "12\n", "ten sample days, then yesterday and today")
        XCTAssertEqual(try cli.run(["count", "history", "--where", #"exercises contains "Bupree""#]).stdout, "0\n", "the typo was renamed")
        // A database that exists is not the demo's to fill (it wrote its samples into one, then
        // failed half-way); a relative path is kept where it names (it went with the scratch folder).
        let before = cli.snapshot()
        let again = try cli.run(["demo"])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("exists; give a new file, or no --db"), again.stderr)
        XCTAssertEqual(cli.snapshot(), before)
        XCTAssertEqual(try cli.run(["--db", "tour.sqlite", "demo"], useDatabase: false).status, 0)
        XCTAssertEqual(try cli.run(["--db", "tour.sqlite", "count", "history"], useDatabase: false).stdout, "12\n")
    }
}
