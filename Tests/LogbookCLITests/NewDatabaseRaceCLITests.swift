import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// Commands started together on a database that does not exist yet, some of them failing: what
/// stays is exactly what the commands that exited 0 wrote. A failed command that created the file
/// removes it only while no other command's record is in it, and a command that opened the file
/// just before that removal finds it gone and says so, rather than reporting a write that went
/// to a removed file.
final class NewDatabaseRaceCLITests: XCTestCase {
    private enum Command: CaseIterable {
        case addDay, addDraft, importDays, failingImport
    }

    /// Seeded rounds of 2 to 7 processes started a few milliseconds apart on a missing file (in
    /// missing folders half the time): days added, drafts added, imports of two days, and imports
    /// that fail at their third record after writing two. After each round the file holds exactly
    /// the records of the processes that exited 0; a process exits 1 only when its import was bad
    /// or its file was removed under it; a file left when none succeeded (another command had it
    /// open as the one that made it failed) holds no record, and a file gone leaves no log files
    /// and no folder with anything in it.
    func testCommandsRacingOnAMissingFileKeepExactlyTheRecordsOfThoseThatSucceeded() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_CREATE_RACE_SEED", default: 0x5241_4345)
        var random = SplitMix64(seed: seed)
        let rounds = PropertyTestSettings.scaled(24, by: "LOGBOOK_CREATE_RACE_SCALE")
        let scratch = try TemporaryFolder("logbook-create-race")
        var outcomes: [String: Int] = [:]
        for round in 0..<rounds {
            let top = scratch.file("round-\(round)")
            let inMissingFolders = random.int(0...1) == 1
            if !inMissingFolders { try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true) }
            let database = (inMissingFolders ? top.appendingPathComponent("a/b") : top).appendingPathComponent("logbook.sqlite")
            var running: [(command: Command, names: [String], process: Process, errors: URL)] = []
            for index in 0..<random.int(2...7) {
                // A failing import two times in five, so that some rounds fail whole.
                let command = random.int(0...4) < 2 ? .failingImport : random.pick([Command.addDay, .addDraft, .importDays])
                let name = "r\(round)p\(index)"
                let (arguments, names) = try Self.arguments(for: command, name: name, index: index, in: scratch)
                let process = Process()
                process.executableURL = CLIHarness.executable
                process.arguments = ["--db", database.path] + arguments
                process.environment = ["TZ": "UTC", "HOME": scratch.url.path, "PATH": "/usr/bin:/bin"]
                let errors = scratch.file("\(name).stderr")
                _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
                process.standardError = try FileHandle(forWritingTo: errors)
                process.standardOutput = FileHandle.nullDevice
                process.standardInput = FileHandle.nullDevice
                try process.run()
                running.append((command, names, process, errors))
                usleep(UInt32(random.int(0...6_000)))
            }
            var expectedDays: Set<String> = [], expectedDrafts: Set<String> = []
            for (command, names, process, errors) in running {
                process.waitUntilExit()
                let stderr = try String(contentsOf: errors, encoding: .utf8)
                let context = "seed \(seed), round \(round), \(command) \(names): \(stderr)"
                // A command that opened the file in the instant before the one that made it
                // removed it: refused at its first write, or failing as it reads the file's logs.
                let removedUnderIt = ["deleted, moved or replaced after it was opened", "disk I/O error: No such file or directory",
                                      "unable to open database file", "it was cut short"].contains { stderr.contains($0) }
                switch (command, process.terminationStatus) {
                case (.failingImport, 1):
                    XCTAssertTrue(stderr.contains("line 3") || removedUnderIt, context)
                case (.addDraft, 0): expectedDrafts.formUnion(names)
                case (.addDay, 0), (.importDays, 0): expectedDays.formUnion(names)
                default: XCTAssertTrue(process.terminationStatus == 1 && removedUnderIt, "exit \(process.terminationStatus), \(context)")
                }
                outcomes["\(command) \(process.terminationStatus == 0 ? "succeeded" : removedUnderIt ? "found its file removed" : "failed")", default: 0] += 1
            }
            let context = "seed \(seed), round \(round): expected days \(expectedDays.sorted()), drafts \(expectedDrafts.sorted())"
            // The file stays when it holds a record, or when another command had it open as the
            // one that made it failed (then it holds none).
            if FileManager.default.fileExists(atPath: database.path) {
                var options = Connection.Options()
                options.createIfMissing = false
                let connection = try Connection(path: database.path, options: options)
                XCTAssertEqual(try Self.texts("SELECT name FROM exercises", in: connection), expectedDays, context)
                XCTAssertEqual(try Self.texts("SELECT version FROM drafts", in: connection), expectedDrafts, context)
            } else {
                XCTAssertTrue(expectedDays.isEmpty && expectedDrafts.isEmpty, "the file went: \(context)")
                for suffix in ["-wal", "-shm", "-journal"] {
                    XCTAssertFalse(FileManager.default.fileExists(atPath: database.path + suffix), "\(suffix) left: \(context)")
                }
                let left = FileManager.default.enumerator(atPath: top.path)?.compactMap { $0 as? String } ?? []
                XCTAssertTrue(left.allSatisfy { $0 == "a" || $0 == "a/b" }, "\(left): \(context)")
            }
        }
        print("NewDatabaseRaceCLITests (LOGBOOK_CREATE_RACE_SEED=\(seed)): \(outcomes.sorted { $0.key < $1.key })")
    }

    /// The command's arguments and the exercise names or versions it writes when it succeeds.
    private static func arguments(for command: Command, name: String, index: Int, in scratch: TemporaryFolder) throws -> ([String], [String]) {
        func days(_ count: Int) -> [String] {
            (1...count).map { #"{"day":"2020-\#(String(format: "%02d", index + 1))-\#(String(format: "%02d", $0))","exercises":["\#(name)-\#($0)"]}"# }
        }
        switch command {
        case .addDay:
            return (["history", "add", name, "--at", String(format: "2021-01-%02dT10:00:00Z", index + 1)], [name])
        case .addDraft:
            return (["drafts", "add", "--version", name], [name])
        case .importDays, .failingImport:
            let lines = days(2) + (command == .failingImport ? [#"{"day":"2020-13-01","exercises":["never"]}"#] : [])
            let file = scratch.file("\(name).ndjson")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
            return (["import", "--format", "ndjson", file.path], (1...2).map { "\(name)-\($0)" })
        }
    }

    private static func texts(_ sql: String, in connection: Connection) throws -> Set<String> {
        let statement = try connection.prepare(sql)
        var texts: Set<String> = []
        while try statement.step() { texts.insert(try statement.column(0, as: String.self)) }
        return texts
    }
}
