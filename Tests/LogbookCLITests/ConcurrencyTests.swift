import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// One writer process and several reader processes on one database at once: every command
/// succeeds (WAL, busy timeout, IMMEDIATE writes) and no reader ever sees part of a write.
/// `.ci/stress` runs these larger (LOGBOOK_CONCURRENCY_WRITES).
final class ConcurrencyTests: XCTestCase {
    private let writes = Reliability.setting("LOGBOOK_CONCURRENCY_WRITES", default: 30)

    func testOneWriterAndFourReadersAllSucceed() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["--time-zone", "America/New_York", "import", CLIHarness.fixture("history.plist").path]).status, 0)
        let initial = try Reliability.counts(cli).days
        let adds = (0..<writes).map { ["history", "add", "Set \($0)", "Burpee", "--at", Reliability.noonText(ofDay: 2_000 + $0)] }
        let reads = [["history", "list", "--format", "ndjson"], ["report", "history", "--by", "month"],
                     ["export", "history", "--format", "csv"], ["count", "history"]]
        var lastCount = initial
        let readCount = try Reliability.runSideBySide(cli, writes: adds, reads: reads) { arguments, result in
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("error"), "\(arguments): \(result.stderr)")
            if arguments == ["count", "history"], let count = Int(result.stdout.trimmingCharacters(in: .newlines)) {
                XCTAssertGreaterThanOrEqual(count, lastCount, "a later count saw fewer days")
                lastCount = count
            }
        }
        XCTAssertEqual(try Reliability.counts(cli).days, initial + writes)
        XCTAssertEqual(try cli.run(["check"]).status, 0)
        print("ConcurrencyTests: \(writes) writes beside \(readCount) reads")
    }

    func testReadersNeverSeeHalfAnImport() throws {
        let cli = try CLIHarness()
        let daysPerFile = 40
        let files = try importFiles(of: daysPerFile, in: cli)
        let exercisesPerFile = 3 * daysPerFile
        let reads = [["count", "history"], ["history", "list", "--format", "ndjson"],
                     ["export", "history", "--format", "csv"], ["report", "history", "--by", "year", "--format", "csv"],
                     ["query", "SELECT count(*) FROM exercises", "--format", "csv"]]
        try Reliability.runSideBySide(cli, writes: files.map { ["import", $0.path] }, reads: reads) { arguments, result in
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            let rows = result.lines.count
            // Every reader sees a whole number of files: counts of days are multiples of the file's
            // days, counts of exercises multiples of the file's exercises.
            let (seen, unit): (Int, Int) = switch arguments[0] {
            case "count": (Int(result.stdout.trimmingCharacters(in: .newlines)) ?? -1, daysPerFile)
            case "history": (rows, daysPerFile)
            case "export": (rows - 1, exercisesPerFile)
            case "query": (Int(result.lines.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1, exercisesPerFile)
            default: (result.lines.dropFirst().reduce(0) { sum, line in
                sum + (Int(line.split(separator: ",")[2]) ?? -1_000_000)   // period,activeDays,exercises,…
            }, exercisesPerFile)
            }
            XCTAssertEqual(seen % unit, 0, "\(arguments) saw \(seen), not a multiple of \(unit)")
            XCTAssertGreaterThanOrEqual(seen, 0, "\(arguments): \(result.stdout.prefix(200))")
        }
        XCTAssertEqual(try Reliability.counts(cli).days, writes * daysPerFile)
    }

    /// The reports made of several reads (the HTML page's cards, charts and tables; the calendar
    /// and its summary) read them in one snapshot: beside imports of 40 consecutive days each,
    /// every page and calendar counts as many active days as its longest streak, a multiple of 40
    /// (each read apart, a page showed 120 active days and a longest streak of 160; helper-54).
    func testReportsMadeOfSeveralReadsAgreeWithThemselvesBesideImports() throws {
        let cli = try CLIHarness()
        let daysPerFile = 40
        let files = try importFiles(of: daysPerFile, in: cli)
        let range = ["--from", "2020-01-01", "--to", "2023-12-31"]
        let reads = [["--time-zone", "UTC", "report", "--format", "html"] + range, ["--time-zone", "UTC", "report", "calendar"] + range]
        var compared = 0
        try Reliability.runSideBySide(cli, writes: files.map { ["import", $0.path] }, reads: reads) { arguments, result in
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            guard arguments.contains("report") else { return }
            let (active, streak): (String?, String?) = arguments.contains("calendar")
                ? (result.stdout.firstMatch(of: /(\d+) active days?,/)?.1.description,
                   result.stdout.firstMatch(of: /longest streak (\d+) days?/)?.1.description)
                : (result.stdout.firstMatch(of: /<strong>(\d+) active days?<\/strong>/)?.1.description,
                   result.stdout.firstMatch(of: /<strong>(\d+) days?<\/strong><span>longest streak/)?.1.description)
            guard let active = active.flatMap({ Int($0) }) else { return XCTFail("\(arguments): no active days in \(result.stdout.suffix(300))") }
            XCTAssertEqual(active % daysPerFile, 0, "\(arguments) saw \(active) active days")
            guard active > 0 else { return }
            XCTAssertEqual(streak.flatMap { Int($0) }, active, "\(arguments): \(active) active days, longest streak \(streak ?? "none")")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 0, "no report read the history while it grew")
        print("ConcurrencyTests: \(compared) pages and calendars compared with themselves beside \(writes) imports")
    }

    /// `writes` NDJSON files of `days` consecutive days each, one after another, in a new database.
    private func importFiles(of days: Int, in cli: CLIHarness) throws -> [URL] {
        let files = try (0..<writes).map { index -> URL in
            let url = cli.folder.appendingPathComponent("part-\(index).ndjson")
            try Reliability.writeHistory(days: (index * days)..<((index + 1) * days), to: url)
            return url
        }
        XCTAssertEqual(try cli.run(["init"]).status, 0)
        return files
    }

    /// Several processes using a database that does not exist yet, at the same moment: one creates
    /// it, and all of them switch it to WAL, migrate it and write without a "database is locked".
    func testFirstUseByManyProcessesAtOnce() throws {
        let rounds = Reliability.setting("LOGBOOK_CONCURRENCY_ROUNDS", default: 5)
        let processes = 8
        let flockTool = "/usr/bin/flock"
        for round in 0..<rounds {
            let cli = try CLIHarness()
            // The processes wait for a shared lock that this test holds, and all start when it lets go.
            let gate = cli.folder.appendingPathComponent("gate")
            let descriptor = open(gate.path, O_CREAT | O_RDWR, 0o644)
            XCTAssertGreaterThanOrEqual(descriptor, 0)
            defer { close(descriptor) }
            let gated = FileManager.default.isExecutableFile(atPath: flockTool) && flock(descriptor, LOCK_EX) == 0
            let runs = try (0..<processes).map { index in
                try BackgroundRun(cli, ["history", "add", "First use \(index)", "--at", Reliability.noonText(ofDay: index)],
                                  wrapper: gated ? [flockTool, "--shared", gate.path] : [])
            }
            if gated {
                Thread.sleep(forTimeInterval: 0.2)
                _ = flock(descriptor, LOCK_UN)
            }
            for run in runs {
                let (result, signal) = try run.wait()
                XCTAssertNil(signal)
                XCTAssertEqual(result.status, 0, "round \(round): \(result.stderr)")
            }
            XCTAssertEqual(try Reliability.counts(cli).days, processes, "round \(round)")
        }
    }

    /// Another program holds the write lock (`BEGIN IMMEDIATE`, a row of its own table pending) for
    /// a seeded while inside the 5 s busy timeout, and five writing commands (`history add`,
    /// `import`, `drafts add`) start meanwhile: each waits, then lands once the lock is let go,
    /// beside the other program's committed row; none fails, none is lost, none sees a
    /// half-written store (`LOGBOOK_HELD_LOCK_SEED`).
    func testWritersRacingAnotherProgramsHeldLockAllLand() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_HELD_LOCK_SEED", default: 0x10C7)
        print("ConcurrencyTests (LOGBOOK_HELD_LOCK_SEED=\(seed)): writers racing a held lock")
        var random = SplitMix64(seed: seed)
        for round in 0..<3 {
            let cli = try CLIHarness()
            XCTAssertEqual(try cli.run(["history", "add", "Warm-up", "--at", Reliability.noonText(ofDay: 0)]).status, 0)
            let importDays = random.int(1...40)
            let file = cli.folder.appendingPathComponent("part.ndjson")
            try Reliability.writeHistory(days: 100..<(100 + importDays), to: file)
            let other = try Connection(path: cli.database.path)
            try other.execute("CREATE TABLE other_programs_notes (note TEXT)")
            try other.execute("BEGIN IMMEDIATE")
            try other.execute("INSERT INTO other_programs_notes VALUES ('round \(round)')")
            let writes = [["history", "add", "Squat", "--at", Reliability.noonText(ofDay: 1)],
                          ["history", "add", "Row", "Row", "--at", Reliability.noonText(ofDay: 2)],
                          ["import", file.path],
                          ["drafts", "add", "--version", "2.\(round)", "--whats-new", "Racing"],
                          ["history", "add", "Lunge", "--at", Reliability.noonText(ofDay: 3)]]
            let runs = try writes.map { try BackgroundRun(cli, $0) }
            Thread.sleep(forTimeInterval: Double(random.int(100...2_500)) / 1_000)
            for run in runs { XCTAssertTrue(run.isRunning, "round \(round), \(run.arguments) ended while the lock was held") }
            try other.execute("COMMIT")
            for (arguments, run) in zip(writes, runs) {
                let (result, signal) = try run.wait()
                XCTAssertNil(signal, "round \(round), \(arguments)")
                XCTAssertEqual(result.status, 0, "round \(round), \(arguments): \(result.stderr)")
            }
            let counts = try Reliability.counts(cli)
            XCTAssertEqual(counts.days, 1 + 3 + importDays, "round \(round)")
            XCTAssertEqual(counts.exercises, 1 + 1 + 2 + 1 + 3 * importDays, "round \(round)")
            XCTAssertEqual(try Reliability.number(cli, ["count", "drafts"]), 1, "round \(round)")
            XCTAssertEqual(try other.scalar("SELECT note FROM other_programs_notes", as: String.self), "round \(round)")
            XCTAssertEqual(try cli.run(["check"]).status, 0, "round \(round)")
        }
    }

    /// Regression: switching a new file to WAL failed at once with "database is locked" while
    /// another connection held a write lock on it; it now waits, as every write does.
    func testSwitchToWALWaitsForAnotherWriter() throws {
        let cli = try CLIHarness()
        let other = try Connection(path: cli.database.path)
        try other.execute("BEGIN IMMEDIATE")
        // `init`: no other command writes into an existing empty file (issue 15).
        let run = try BackgroundRun(cli, ["init"])
        Thread.sleep(forTimeInterval: 0.3)
        try other.execute("ROLLBACK")
        let (result, signal) = try run.wait()
        XCTAssertNil(signal)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try cli.run(["history", "add", "Squat"]).status, 0)
        XCTAssertEqual(try Reliability.counts(cli).days, 1)
    }
}
