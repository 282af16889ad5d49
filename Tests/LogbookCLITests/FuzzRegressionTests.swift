import Foundation
import XCTest

/// Inputs the fuzz tests found that crashed `logbook` or changed the database on failure, kept as
/// fixed cases.
final class FuzzRegressionTests: XCTestCase {
    /// `--where` text nested thousands of levels deep overflowed the stack of the recursive parser
    /// (parentheses, lists, `!`) or of the compiler walking a long `||` chain: SIGSEGV. It is now a
    /// usage error with a caret.
    func testDeeplyNestedFilterIsAUsageErrorNotACrash() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["init"]).status, 0)
        let before = cli.snapshot()
        let deep = 10_000
        let expressions = [
            String(repeating: "(", count: deep) + "exercises.count > 1" + String(repeating: ")", count: deep),
            String(repeating: "!", count: deep) + "true",
            "day in " + String(repeating: "[", count: deep),
            (0..<3_000).map { "exercises.count == \($0)" }.joined(separator: " || "),
            (0..<3_000).map { _ in #"exercises contains "a""# }.joined(separator: " && "),
        ]
        for expression in expressions {
            let (result, signal) = try BackgroundRun(cli, ["count", "history", "--where", expression]).wait()
            XCTAssertNil(signal, "\(expression.prefix(40))… crashed")
            XCTAssertEqual(result.status, 2, result.stderr.prefix(300) + "")
            XCTAssertTrue(result.stderr.hasPrefix("logbook: error: invalid --where: the expression nests deeper than 64 levels"),
                          String(result.stderr.prefix(300)))
        }
        // The limit leaves room for real filters: a chain of 50 alternatives runs.
        let fifty = (0..<50).map { "exercises.count == \($0)" }.joined(separator: " || ")
        XCTAssertEqual(try cli.run(["count", "history", "--where", fifty]).stdout, "0\n")
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// An import with `--on-conflict replace` that failed after replacing some drafts rolled back,
    /// but closing the connection then ran `PRAGMA optimize`, which rewrote the statistics in
    /// `sqlite_stat1`: a failed command changed the file. Only committed changes lead to it now.
    func testFailedReplaceImportLeavesTheFileUntouched() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["--time-zone", "America/New_York", "import", CLIHarness.fixture("history.plist").path]).status, 0)
        XCTAssertEqual(try cli.run(["import", CLIHarness.fixture("drafts.json").path]).status, 0)
        let drafts = try cli.run(["export", "drafts", "--format", "ndjson"]).lines
        let before = cli.snapshot()
        let broken = cli.folder.appendingPathComponent("broken.ndjson")
        try Data((drafts.prefix(5) + [#"{"broken":"#]).joined(separator: "\n").utf8).write(to: broken)
        for policy in ["replace", "skip", "fail"] {
            XCTAssertFailure(try cli.run(["import", broken.path, "--on-conflict", policy]), status: 1, mentioning: "broken.ndjson: record ")
            XCTAssertEqual(cli.snapshot(), before, "--on-conflict \(policy)")
        }
    }
}
