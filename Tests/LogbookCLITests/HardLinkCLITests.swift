import Foundation
import LogbookTestSupport
import XCTest

/// A logbook with two names (hard links): SQLite keeps the write-ahead log by name, so two
/// processes writing through the two names kept 80 to 117 of 120 days, every command exiting 0
/// (helper-76). Writing through either name is refused, nothing written; reading works.
final class HardLinkCLITests: XCTestCase {
    func testAFileOfTwoNamesIsNeverWrittenAndStillRead() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["history", "add", "Squat", "--at", "2026-03-01T10:00:00Z"]).status, 0)
        let second = cli.folder.appendingPathComponent("second.sqlite")
        XCTAssertEqual(link(cli.database.path, second.path), 0)
        let before = cli.snapshot()
        for database in [cli.database.path, second.path] {
            for arguments in [["history", "add", "Row", "--at", "2026-03-02T10:00:00Z"], ["drafts", "add", "--version", "1.0"], ["migrate"],
                              ["repair"]] {
                let result = try cli.run(["--db", database] + arguments, useDatabase: false)
                XCTAssertFailure(result, status: 1, mentioning: database, "the file has 2 names (hard links)")
                XCTAssertEqual(cli.snapshot(), before, "\(arguments) through \(database)")
            }
            XCTAssertEqual(try cli.run(["--db", database, "count", "history"], useDatabase: false).stdout, "1\n")
        }
        XCTAssertEqual(unlink(second.path), 0)
        XCTAssertEqual(try cli.run(["history", "add", "Row", "--at", "2026-03-02T10:00:00Z"]).status, 0, "one name again")
    }
}
