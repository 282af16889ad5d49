import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Every kind of command that writes, on one logbook of 2,000 days and 60 drafts, for the tests
/// that interrupt writes (a kill, a full disk) and compare what is left with the states before
/// and after the command.
struct WritingCommands {
    struct Command {
        let arguments: [String]
        /// Whether it runs on the logbook damaged as another program can (`repair`'s work).
        let damaged: Bool
        /// `import`, `history rename`, … for reports.
        var name: String { arguments.prefix(["import", "backup"].contains(arguments[0]) ? 1 : 2).joined(separator: " ") }
    }

    /// The logbook's bytes (a closed database: no `-wal`).
    let base: Data
    let commands: [Command]

    /// Builds the logbook in `cli`'s database and the files the commands read in its folder.
    init(in cli: CLIHarness) throws {
        let folder = cli.folder
        let history = folder.appendingPathComponent("history.ndjson")
        let replacing = folder.appendingPathComponent("replacing.ndjson")
        let drafts = folder.appendingPathComponent("drafts.json")
        let otherDevice = folder.appendingPathComponent("other.sqlite")
        let mergedDays = folder.appendingPathComponent("merged.ndjson")
        let laterDays = folder.appendingPathComponent("later.ndjson"), laterCSV = folder.appendingPathComponent("later.csv")
        let mergedPlist = folder.appendingPathComponent("merged.plist"), moreDrafts = folder.appendingPathComponent("more-drafts.json")
        try Reliability.writeHistory(days: 0..<2_000, to: history)
        try Reliability.writeHistory(days: 1_000..<3_000, exercisesPerDay: 4, to: replacing)
        try Reliability.writeHistory(days: 1_500..<2_500, exercisesPerDay: 5, to: mergedDays)
        try Self.writeDrafts(count: 60, to: drafts)
        XCTAssertEqual(try cli.run(["import", history.path]).status, 0)
        XCTAssertEqual(try cli.run(["import", drafts.path]).status, 0)
        XCTAssertEqual(try cli.run(["--db", otherDevice.path, "import", mergedDays.path], useDatabase: false).status, 0)
        // The other formats' files, written by Logbook from a scratch logbook and the other device's.
        let scratch = folder.appendingPathComponent("scratch.sqlite")
        try Reliability.writeHistory(days: 3_000..<3_600, exercisesPerDay: 2, to: laterDays)
        XCTAssertEqual(try cli.run(["--db", scratch.path, "import", laterDays.path], useDatabase: false).status, 0)
        XCTAssertEqual(try cli.run(["--db", scratch.path, "export", "history", "-o", laterCSV.path], useDatabase: false).status, 0)
        XCTAssertEqual(try cli.run(["--db", otherDevice.path, "export", "history", "-o", mergedPlist.path], useDatabase: false).status, 0)
        try Self.writeDrafts(count: 20, to: moreDrafts)
        base = try Data(contentsOf: cli.database)
        commands = [
            Command(arguments: ["import", "--on-conflict", "replace", replacing.path], damaged: false),
            Command(arguments: ["import", otherDevice.path], damaged: false),
            Command(arguments: ["import", laterCSV.path], damaged: false),
            Command(arguments: ["import", mergedPlist.path], damaged: false),
            Command(arguments: ["import", moreDrafts.path], damaged: false),
            Command(arguments: ["history", "add", "Plank", "--at", "2021-03-04T05:06:07Z"], damaged: false),
            Command(arguments: ["history", "rename", "Burpee", "Burpee (weighted)"], damaged: false),
            Command(arguments: ["history", "move", "--day", "2020-01-05", "--to", "2030-01-01"], damaged: false),
            Command(arguments: ["history", "remove", "--day", "2020-01-06", "2"], damaged: false),
            Command(arguments: ["history", "delete", "--day", "2020-01-07"], damaged: false),
            Command(arguments: ["drafts", "add", "--version", "9.9", "--item", "Tag", "--item", "Upload"], damaged: false),
            Command(arguments: ["drafts", "edit", "--whats-new", "Rewritten", "1.7"], damaged: false),
            Command(arguments: ["drafts", "item", "move", "1.8", "1", "3"], damaged: false),
            Command(arguments: ["drafts", "submit", "1.9"], damaged: false),
            Command(arguments: ["drafts", "delete", "1.10"], damaged: false),
            Command(arguments: ["drafts", "item", "add", "1.11", "Notarize", "Announce ☀︎"], damaged: false),
            Command(arguments: ["drafts", "item", "check", "1.12", "2"], damaged: false),
            Command(arguments: ["drafts", "item", "remove", "1.13", "1"], damaged: false),
            Command(arguments: ["repair"], damaged: true),
        ]
    }

    /// Puts the database at `url` back to the base logbook, damaged for a command that repairs.
    func prepare(_ command: Command, at url: URL) throws {
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try base.write(to: url)
        guard command.damaged else { return }
        var options = Connection.Options()
        options.createIfMissing = false
        try Connection(path: url.path, options: options).execute(InterruptedWrites.repairableDamage)
    }

    /// What the database at `url` holds, as text: the history export (bytes), every exercise row,
    /// and the drafts without the ids and times that a new run of a command draws afresh (a
    /// submission date only as present).
    static func state(_ cli: CLIHarness, of url: URL) throws -> String {
        let run = { (arguments: [String]) in try cli.run(["--db", url.path] + arguments, useDatabase: false) }
        let history = try run(["export", "history", "--format", "ndjson"])
        let rows = try run(["query", "SELECT day_pk, position, name, name_key FROM exercises ORDER BY day_pk, position", "--format", "csv"])
        let drafts = try run(["export", "drafts", "--format", "json"])
        for result in [history, rows, drafts] { XCTAssertEqual(result.status, 0, result.stderr) }
        return history.stdout + rows.stdout + (try InterruptedWrites.comparableDrafts(drafts.output))
    }

    /// Drafts "1.0" to "1.<count - 1>" in the apps' JSON, each with a checklist of three items.
    private static func writeDrafts(count: Int, to url: URL) throws {
        let drafts = (0..<count).map { index in
            let items = (1...3).map { #"{"id":"\#(UUID().uuidString)","title":"Step \#($0) of 1.\#(index)","isDone":\#($0 == 1)}"# }
            return #"{"version":"1.\#(index)","whatsNew":"Fixes ☀︎ \#(index)","checklist":[\#(items.joined(separator: ","))]}"#
        }
        try Data("[\(drafts.joined(separator: ","))]".utf8).write(to: url)
    }
}
