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
            for arguments in [["history", "add", "Row", "--at", "2026-03-02T10:00:00Z"], ["drafts", "add", "--version", "1.0"], ["migrate"]] {
                let result = try cli.run(["--db", database] + arguments, useDatabase: false)
                XCTAssertFailure(result, status: 1, mentioning: database, "the file has 2 names (hard links)")
                XCTAssertEqual(cli.snapshot(), before, "\(arguments) through \(database)")
            }
            // A repair with nothing to do looks and writes nothing (one with work is refused:
            // `testEveryWritingCommandThroughAnyNameIsRefused`).
            XCTAssertEqual(try cli.run(["--db", database, "repair"], useDatabase: false).stderr, "logbook: nothing to repair\n")
            XCTAssertEqual(cli.snapshot(), before, "repair through \(database)")
            XCTAssertEqual(try cli.run(["--db", database, "count", "history"], useDatabase: false).stdout, "1\n")
        }
        XCTAssertEqual(unlink(second.path), 0)
        XCTAssertEqual(try cli.run(["history", "add", "Row", "--at", "2026-03-02T10:00:00Z"]).status, 0, "one name again")
    }

    /// Every kind of writing command (`WritingCommands`: imports of every format and a merge, every
    /// history and draft edit, `repair`) through a seeded choice of 2 to 4 names, given as the
    /// original, a link, a relative path or a symbolic link to a link: each is refused naming the
    /// count, the file byte for byte as it was. Seeded (`LOGBOOK_HARD_LINK_SEED`).
    func testEveryWritingCommandThroughAnyNameIsRefused() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_HARD_LINK_SEED", default: 0x4C4E4B)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        let writes = try WritingCommands(in: cli)
        for command in writes.commands {
            // A fresh file (prepare writes it anew), then its other names.
            try writes.prepare(command, at: cli.database)
            let names = Int.random(in: 2...4, using: &random)
            let links = (1..<names).map { cli.folder.appendingPathComponent("name-\($0).sqlite") }
            for other in links { XCTAssertEqual(link(cli.database.path, other.path), 0, "seed \(seed)") }
            let symbolic = cli.folder.appendingPathComponent("symbolic.sqlite")
            try? FileManager.default.removeItem(at: symbolic)
            try FileManager.default.createSymbolicLink(atPath: symbolic.path, withDestinationPath: random.pick(links).lastPathComponent)
            let given = random.pick([cli.database.path, random.pick(links).path, random.pick(links).lastPathComponent, symbolic.path])
            let before = cli.snapshot()
            let result = try cli.run(["--db", given] + command.arguments, useDatabase: false)
            XCTAssertFailure(result, status: 1, mentioning: "the file has \(names) names (hard links)")
            XCTAssertEqual(cli.snapshot(), before, "seed \(seed): \(command.name) through \(given)")
            for other in links { XCTAssertEqual(unlink(other.path), 0) }
        }
    }
}
