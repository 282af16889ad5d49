import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// A separator the command line or a path gives (`=` in `--name=value` and `-p name=value`, `/`
/// in `-o` and `--db`) is found though a combining mark follows it, as the system and the user
/// see it; Swift's `Character` search passed over it (helper-61): `--version=\u{301}x` was an
/// unknown option, and `-o d/\u{301}x.json` was written "in the current folder" and failed; a
/// link to `/\u{301}t/x.json` was followed as a relative one (helper-62).
/// Seeded: the marks and the text after them.
final class GluedSeparatorsCLITests: XCTestCase {
    func testASeparatorAMarkFollowsStillSeparates() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_GLUED_SEED", default: 0x617E)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        let marks = AdversarialText.newestCombiningMarks.map(String.init) + ["\u{301}", "\u{323}", "\u{5B0}", "\u{302A}", "\u{200D}", "\u{FE0F}"]
        for round in 0..<6 {
            let value = random.pick(marks) + AdversarialText.string(using: &random, maxPieces: 2).filter { $0 != "\0" } + "v"
            let context = "seed \(seed), round \(round): \(value.unicodeScalars.map { String($0.value, radix: 16) })"
            let added = try cli.run(["drafts", "add", "--version=" + value])
            XCTAssertEqual(added.status, 0, "\(context): \(added.stderr)")
            let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let stored = try Logbook.openForReading(path: cli.database.path).drafts.fetch(id: try XCTUnwrap(UUID(uuidString: id)))
            XCTAssertEqual(stored?.version.unicodeScalars.elementsEqual(value.unicodeScalars), true, context)

            let queried = try cli.run(["query", "SELECT hex(:v) AS v", "-p", "v=" + value, "--format", "csv"])
            XCTAssertEqual(queried.status, 0, "\(context): \(queried.stderr)")
            XCTAssertEqual(queried.lines.last, value.utf8.map { String(format: "%02X", $0) }.joined() + "\r", context)

            let folder = cli.folder.appendingPathComponent("out-\(round)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let output = folder.path + "/" + random.pick(marks) + "x.json"
            let exported = try cli.run(["export", "drafts", "--format", "json", "-o", output])
            XCTAssertEqual(exported.status, 0, "\(context): \(exported.stderr)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 1, context)
            XCTAssertTrue(FileManager.default.fileExists(atPath: output), context)

            // A link whose target begins with `/` and a mark is absolute: its folder is not there
            // (at the root), so the export fails; the same folder beside the link, which the
            // target read as relative named, gets nothing.
            let links = cli.folder.appendingPathComponent("links-\(round)")
            let folderName = random.pick(marks) + "logbook-none-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: links.path + "/" + folderName, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: links.path + "/link", withDestinationPath: "/" + folderName + "/x.json")
            let throughLink = try cli.run(["export", "drafts", "--format", "json", "-o", links.path + "/link"])
            XCTAssertEqual(throughLink.status, 1, "\(context): \(throughLink.stderr)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: links.path + "/" + folderName), [], context)

            let database = cli.folder.path + "/new-\(round)/" + random.pick(marks) + "db.sqlite"
            let created = try cli.run(["--db", database, "-q", "history", "add", "Squat"], useDatabase: false)
            XCTAssertEqual(created.status, 0, "\(context): \(created.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: database), context)
        }
    }
}
