import Foundation
import LogbookTestSupport
import Logbook
import SQLiteQuery
import XCTest

/// `logbook` killed with SIGKILL at any moment leaves a sound database holding every write that
/// was confirmed and no part of one that was not. Kill points are spread by time; what is asserted
/// never depends on timing. `.ci/stress` runs these larger (LOGBOOK_CRASH_* variables).
final class CrashSafetyTests: XCTestCase {
    private let seed = UInt64(Reliability.setting("LOGBOOK_CRASH_SEED", default: 8))

    /// After a kill (or a run that ended on its own): `logbook check` passes, SQLite's own
    /// integrity check passes, and the counts are returned for the caller's all-or-nothing test.
    private func assertSound(_ cli: CLIHarness, _ context: @autoclosure () -> String,
                             file: StaticString = #filePath, line: UInt = #line) throws -> (days: Int, exercises: Int) {
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 0, "\(context()): \(check.stdout)\(check.stderr)", file: file, line: line)
        XCTAssertEqual(try Reliability.integrity(of: cli.database), ["ok"], context(), file: file, line: line)
        return try Reliability.counts(cli, file: file, line: line)
    }

    func testKilledImportLeavesAllOrNothing() throws {
        // About 1 s in a debug build; 10,000 records or more also run ANALYZE after the commit.
        let days = Reliability.setting("LOGBOOK_CRASH_IMPORT_DAYS", default: 10_000)
        let kills = Reliability.setting("LOGBOOK_CRASH_KILLS", default: 20)
        let cli = try CLIHarness()
        let input = cli.folder.appendingPathComponent("days.ndjson")
        try Reliability.writeHistory(days: 0..<days, to: input)
        XCTAssertEqual(try cli.run(["init"]).status, 0)
        let empty = try Data(contentsOf: cli.database)

        // An uninterrupted run: the whole file lands, and its duration places the kill points.
        let started = Date()
        let complete = try cli.run(["import", input.path])
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(complete.status, 0, complete.stderr)
        XCTAssertEqual(try Reliability.counts(cli).days, days)

        var generator = SplitMix64(seed: seed)
        var outcomes: [String: Int] = [:]
        for point in 0..<kills {
            try Reliability.restore(cli, to: empty)
            // One point in each of `kills` equal slices of the run, somewhere inside its slice.
            let delay = duration * (Double(point) + Double.random(in: 0..<1, using: &generator)) / Double(kills)
            let run = try BackgroundRun(cli, ["import", input.path])
            Thread.sleep(forTimeInterval: delay)
            let inItsTransaction = Reliability.isInAWriteTransaction(cli.database)
            run.kill()
            let (result, signal) = try run.wait()
            if signal == nil { XCTAssertEqual(result.status, 0, result.stderr) }
            let context = "kill \(point) after \(String(format: "%.3f", delay)) s of \(String(format: "%.3f", duration)) s"
            let counts = try assertSound(cli, context)
            XCTAssertTrue(counts == (0, 0) || counts == (days, 3 * days),
                          "\(context): \(counts.days) days, \(counts.exercises) exercises of \(days), \(3 * days)")
            let outcome = signal == nil ? "finished" : counts.days == 0 ? "killed, nothing" : "killed, all"
            outcomes[outcome + (signal != nil && inItsTransaction ? ", inside its transaction" : ""), default: 0] += 1
        }
        print("CrashSafetyTests (LOGBOOK_CRASH_SEED=\(seed)): \(kills) kills over a \(String(format: "%.2f", duration)) s import of \(days) days: \(outcomes)")
        // The promise was put to the test: some kill landed while the import's transaction was open.
        XCTAssertGreaterThan(outcomes.filter { $0.key.hasSuffix("inside its transaction") }.values.reduce(0, +), 0, "\(outcomes)")
    }

    /// `logbook migrate` of an older file (migration 0017 copies the exercises table, and the ones
    /// after it follow), killed at random points: the pending migrations run in one transaction,
    /// so the file is the older one or the migrated one (never one some of them migrated), with
    /// every exercise row as it was, SQLite's integrity check passing; a later `migrate` finishes it.
    /// `LOGBOOK_CRASH_MIGRATION_KILLS` kills (default 8).
    func testKilledMigrationLeavesTheFileAsItWasOrMigrated() throws {
        let kills = Reliability.setting("LOGBOOK_CRASH_MIGRATION_KILLS", default: 8)
        let cli = try CLIHarness()
        let older = cli.folder.appendingPathComponent("older.sqlite")
        try Reliability.writeOlderLogbook(at: older, before: "0017_", days: 20_000)
        let rows = try Reliability.exerciseRows(in: older)
        let bytes = try Data(contentsOf: older)
        func version() throws -> Int { try Connection(path: cli.database.path).scalar("PRAGMA user_version", as: Int.self) ?? 0 }

        try Reliability.restore(cli, to: bytes)
        let olderVersion = try version()
        let started = Date()
        let complete = try cli.run(["migrate"])
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(complete.status, 0, complete.stderr)
        let newest = try version()
        XCTAssertGreaterThan(newest, olderVersion)

        var generator = SplitMix64(seed: seed)
        var outcomes: [String: Int] = [:]
        for point in 0..<kills {
            try Reliability.restore(cli, to: bytes)
            let delay = duration * (Double(point) + Double.random(in: 0..<1, using: &generator)) / Double(kills)
            let run = try BackgroundRun(cli, ["migrate"])
            Thread.sleep(forTimeInterval: delay)
            let inItsTransaction = Reliability.isInAWriteTransaction(cli.database)
            run.kill()
            let (result, signal) = try run.wait()
            if signal == nil { XCTAssertEqual(result.status, 0, result.stderr) }
            let context = "seed \(seed): kill \(point) after \(String(format: "%.3f", delay)) s of \(String(format: "%.3f", duration)) s"
            XCTAssertEqual(try Reliability.integrity(of: cli.database), ["ok"], context)
            let found = try version()
            // The pending migrations are one transaction: never part of the way.
            XCTAssertTrue([olderVersion, newest].contains(found), "\(context): schema version \(found)")
            XCTAssertEqual(try Reliability.exerciseRows(in: cli.database), rows, context)
            let again = try cli.run(["migrate"])
            XCTAssertEqual(again.status, 0, "\(context): \(again.stderr)")
            XCTAssertEqual(try version(), newest, context)
            XCTAssertEqual(try Reliability.exerciseRows(in: cli.database), rows, context)
            let outcome = signal == nil ? "finished" : found == newest ? "killed, migrated" : "killed, older"
            outcomes[outcome + (signal != nil && inItsTransaction ? ", inside its transaction" : ""), default: 0] += 1
        }
        print("CrashSafetyTests (LOGBOOK_CRASH_SEED=\(seed)): \(kills) kills over a \(String(format: "%.2f", duration)) s migration: \(outcomes)")
        XCTAssertGreaterThan(outcomes.filter { $0.key.hasSuffix("inside its transaction") }.values.reduce(0, +), 0, "\(outcomes)")
    }

    func testKilledSmallWritesKeepEveryConfirmedWrite() throws {
        let kills = Reliability.setting("LOGBOOK_CRASH_KILLS", default: 20)
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["init"]).status, 0)
        // How long one write takes, to place the kill points inside it.
        let started = Date()
        XCTAssertEqual(try cli.run(["history", "add", "Warm-up", "--at", Reliability.noonText(ofDay: -1)]).status, 0)
        let duration = Date().timeIntervalSince(started)

        var generator = SplitMix64(seed: seed)
        var known = 1            // day records certainly stored
        var confirmed: Set<Int> = []
        var killedInFlight = 0
        // Every third write is killed at a random point of its run; the others must succeed.
        for index in 0..<(3 * kills) {
            let run = try BackgroundRun(cli, ["history", "add", "Write \(index)", "--at", Reliability.noonText(ofDay: index)])
            let isKillPoint = index % 3 == 2
            if isKillPoint {
                Thread.sleep(forTimeInterval: duration * Double.random(in: 0..<1.2, using: &generator))
                run.kill()
            }
            let (result, signal) = try run.wait()
            if signal == nil {
                XCTAssertEqual(result.status, 0, "write \(index): \(result.stderr)")
                confirmed.insert(index)
                known += 1
                if !isKillPoint { continue }
            } else {
                killedInFlight += 1
            }
            let counts = try assertSound(cli, "write \(index)")
            XCTAssertTrue((known...(known + 1)).contains(counts.days),
                          "write \(index): \(counts.days) days stored, \(known) confirmed before the kill")
            XCTAssertEqual(counts.exercises, counts.days, "write \(index): each day holds its one exercise")
            known = counts.days
        }

        // Every confirmed write is there, whole; the only others are writes killed after their commit.
        let utc = try XCTUnwrap(TimeZone(identifier: "UTC"))
        let stored = try Logbook.inspect(path: cli.database.path, timeZone: utc).history.fetchAll()
        let names = Set(stored.flatMap(\.exercises))
        for index in confirmed {
            XCTAssertTrue(names.contains("Write \(index)"), "confirmed write \(index) is missing")
        }
        for day in stored where day.exercises != ["Warm-up"] {
            guard let index = day.exercises.first.flatMap({ Int($0.dropFirst("Write ".count)) }) else {
                XCTFail("unexpected record \(day)")
                continue
            }
            XCTAssertEqual(day.exercises, ["Write \(index)"])
            XCTAssertEqual(day.day, CalendarDay(Reliability.noon(ofDay: index), in: utc))
            XCTAssertTrue(confirmed.contains(index) || index % 3 == 2, "write \(index) was neither confirmed nor killed")
        }
        print("CrashSafetyTests (LOGBOOK_CRASH_SEED=\(seed)): \(kills) kill points over \(3 * kills) writes of \(String(format: "%.3f", duration)) s; "
              + "\(killedInFlight) killed in flight")
    }

    /// Every command that writes, killed at random points of its run, leaves the database exactly
    /// as it was before the command or exactly as an uninterrupted run leaves it: the history
    /// export byte for byte, every exercise row (key, position, name, name key), and the drafts
    /// (without the ids and times a new run draws afresh). `check` and SQLite's integrity check pass.
    /// Seeded (`LOGBOOK_CRASH_SEED`); `LOGBOOK_CRASH_COMMAND_KILLS` kills per command.
    func testEveryWritingCommandKilledLeavesTheStateBeforeOrAfterIt() throws {
        let kills = Reliability.setting("LOGBOOK_CRASH_COMMAND_KILLS", default: 3)
        let cli = try CLIHarness()
        let writes = try WritingCommands(in: cli)
        var generator = SplitMix64(seed: seed)
        var outcomes: [String: Int] = [:]
        var killsInsideATransaction = 0
        for command in writes.commands {
            try writes.prepare(command, at: cli.database)
            let before = try WritingCommands.state(cli, of: cli.database)
            let started = Date()
            let finished = try cli.run(command.arguments)
            let duration = Date().timeIntervalSince(started)
            XCTAssertEqual(finished.status, 0, "\(command.arguments): \(finished.stderr)")
            let after = try WritingCommands.state(cli, of: cli.database)
            XCTAssertNotEqual(before, after, "\(command.arguments) changed nothing")

            for point in 0..<kills {
                try writes.prepare(command, at: cli.database)
                let delay = duration * 1.2 * (Double(point) + Double.random(in: 0..<1, using: &generator)) / Double(kills)
                let run = try BackgroundRun(cli, command.arguments)
                Thread.sleep(forTimeInterval: delay)
                let inItsTransaction = Reliability.isInAWriteTransaction(cli.database)
                run.kill()
                let (result, signal) = try run.wait()
                let context = "\(command.arguments) killed after \(String(format: "%.3f", delay)) s of \(String(format: "%.3f", duration)) s"
                if signal == nil { XCTAssertEqual(result.status, 0, "\(context): \(result.stderr)") }
                XCTAssertEqual(try Reliability.integrity(of: cli.database), ["ok"], context)
                let state = try WritingCommands.state(cli, of: cli.database)
                XCTAssertTrue(state == before || state == after, "\(context): the database is neither as before nor as after the command")
                if state == after || !command.damaged {
                    let check = try cli.run(["check"])
                    XCTAssertEqual(check.status, 0, "\(context): \(check.stdout)\(check.stderr)")
                }
                let outcome = signal == nil ? "finished" : state == after ? "killed after its commit" : "killed before its commit"
                outcomes["\(command.name): \(outcome)", default: 0] += 1
                if signal != nil && inItsTransaction { killsInsideATransaction += 1 }
            }
        }
        print("CrashSafetyTests (LOGBOOK_CRASH_SEED=\(seed)): \(kills) kills of each of \(writes.commands.count) writing commands, "
              + "\(killsInsideATransaction) inside its transaction: "
              + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        XCTAssertGreaterThan(killsInsideATransaction, 0, "no kill landed inside a command's transaction")
    }
}
