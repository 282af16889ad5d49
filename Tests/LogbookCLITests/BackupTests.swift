import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// `logbook backup FILE`: a complete, checked copy of the live database, written beside FILE and
/// renamed into place, refused (exit 1, one error line, nothing written) when it cannot be done.
final class BackupTests: XCTestCase {
    private func loadedHarness() throws -> CLIHarness {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["--time-zone", "America/New_York", "import", CLIHarness.fixture("history.plist").path]).status, 0)
        XCTAssertEqual(try cli.run(["import", CLIHarness.fixture("drafts.json").path]).status, 0)
        return cli
    }

    /// The names in `folder`, without the harness's own output files.
    private func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix("std") && !$0.hasPrefix("bg-") }.sorted()
    }

    /// Everything the database holds, in this tool's exports.
    private func exports(_ cli: CLIHarness, database: URL? = nil) throws -> [String] {
        try [["export", "history", "--format", "ndjson"], ["export", "drafts", "--format", "ndjson"]].map { arguments in
            let result = try cli.run(["--db", (database ?? cli.database).path] + arguments, useDatabase: false)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout
        }
    }

    private func assertHealthy(_ cli: CLIHarness, _ copy: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let check = try cli.run(["--db", copy.path, "check"], useDatabase: false)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr, file: file, line: line)
        XCTAssertEqual(check.lines, ["integrity: ok", "foreign keys: ok", "schema version: \(Schema.migrationFiles.count) (this logbook knows \(Schema.migrationFiles.count))",
                                     "migrations: ok", "file: ok", "schema: ok", "stored values: ok", "derived data: ok"], file: file, line: line)
    }

    /// A backup replaces an earlier copy at any spelling of its path, and leaves nothing beside
    /// it: the look at the earlier copy reads it as an immutable file, whose name SQLite takes as
    /// a URI (`//tmp/x` was read as the host `tmp`; helper-57), with `?`, `#` and `%` in it.
    func testABackupReplacesAnEarlierCopyAtAnySpellingOfItsPath() throws {
        let cli = try loadedHarness()
        let folder = cli.folder.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["copy.sqlite", "a?b#c%41 é.sqlite"] {
            let path = folder.appendingPathComponent(name).path
            for spelling in [path, "/" + path, path, "/" + path] {
                let result = try cli.run(["backup", spelling])
                XCTAssertEqual(result.status, 0, "\(spelling): \(result.stderr)")
            }
            try assertHealthy(cli, URL(fileURLWithPath: path))
        }
        XCTAssertEqual(try contents(of: folder), ["a?b#c%41 é.sqlite", "copy.sqlite"])
    }

    func testCopyIsCompleteCheckedAndAlone() throws {
        let cli = try loadedHarness()
        let copy = cli.folder.appendingPathComponent("backups/logbook-copy.sqlite")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        let before = cli.snapshot()
        let result = try cli.run(["backup", copy.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? Int)
        XCTAssertTrue(result.stderr.hasPrefix("logbook: backup written to \(copy.path) (\(size) bytes, "), result.stderr)
        XCTAssertEqual(try contents(of: copy.deletingLastPathComponent()), ["logbook-copy.sqlite"],
                       "one file, no temporary or -wal file beside it")
        XCTAssertEqual(cli.snapshot(), before, "the database itself is not changed")
        try assertHealthy(cli, copy)
        XCTAssertEqual(try exports(cli, database: copy), try exports(cli))

        // Again, over the first copy, after a change: the new copy replaces it whole.
        XCTAssertEqual(try cli.run(["history", "add", "Plank", "--at", "2026-05-01T12:00:00Z"]).status, 0)
        XCTAssertEqual(try cli.run(["backup", copy.path]).status, 0)
        try assertHealthy(cli, copy)
        XCTAssertEqual(try exports(cli, database: copy), try exports(cli))
    }

    /// A database holding rows another program left that `repair` puts right (rows without their
    /// parent, an exercise's position that breaks its `CHECK`) is backed up as it is, the rows
    /// named on stderr, so a copy can be kept before the repair, which deletes some of them (the
    /// backup was refused as a damaged copy; helper-97). Seeded: random such rows in every table
    /// that has them; the copy's `.dump` is the database's, and the repair leaves the copy alone.
    func testADatabaseWithRowsRepairPutsRightIsBackedUpAsItIs() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_BACKUP_ROWS_SEED", default: 0x4241_434B)
        var random = SplitMix64(seed: seed)
        for round in 0..<PropertyTestSettings.scaled(4, by: "LOGBOOK_PROPERTY_SCALE") {
            let cli = try loadedHarness()
            var statements = ["PRAGMA ignore_check_constraints = ON;"]
            var expected: [String] = []
            if random.chance(0.7) || round == 0 {
                for index in 0...random.int(0...3) {
                    statements.append("INSERT INTO exercises VALUES (\(900_000 + index * 1_000 + random.int(0...999)), \(random.int(1...9)), 'Orphan', 'Orphan');")
                }
                expected.append("exercises: ")
            }
            if random.chance(0.5) || round == 1 {
                statements.append("INSERT INTO checklist_items VALUES (\(800_000 + random.int(0...99_999)), 1, '\(UUID().uuidString)', 'Orphan', 0);")
                expected.append("checklist_items: ")
            }
            if random.chance(0.5) || round == 2 {
                statements.append("UPDATE exercises SET position = \(random.int(-5...0)) "
                                  + "WHERE (day_pk, position) = (SELECT day_pk, position FROM exercises ORDER BY day_pk, position LIMIT 1);")
                expected.append("CHECK constraint failed in exercises")
            }
            let database = cli.database.path
            _ = try ExternalProgram.output(of: "/usr/bin/sqlite3", [database, statements.joined(separator: "\n")])
            let dump = try ExternalProgram.output(of: "/usr/bin/sqlite3", [database, ".dump"])
            let copy = cli.folder.appendingPathComponent("before-repair.sqlite")
            let backup = try cli.run(["-q", "backup", copy.path])
            let context = "seed \(seed), round \(round): \(statements)"
            XCTAssertEqual(backup.status, 0, "\(context): \(backup.stderr)")
            XCTAssertEqual(backup.stderr.split(separator: "\n").count, 1, "\(context): one line, under -q too: \(backup.stderr)")
            for problem in expected { XCTAssertTrue(backup.stderr.contains(problem), "\(context): \(problem) not in \(backup.stderr)") }
            XCTAssertEqual(try ExternalProgram.output(of: "/usr/bin/sqlite3", [copy.path, ".dump"]), dump, context)
            XCTAssertEqual(try cli.run(["-q", "repair"]).status, 0, context)
            try assertHealthy(cli, cli.database)
            XCTAssertEqual(try ExternalProgram.output(of: "/usr/bin/sqlite3", [copy.path, ".dump"]), dump, "\(context): the repair changed the copy")
        }
        // Another program's table's rows without their parent are no rows repair puts right: the copy is refused (helper-100).
        let cli = try loadedHarness()
        _ = try ExternalProgram.output(of: "/usr/bin/sqlite3", [cli.database.path, """
            CREATE TABLE notes (day INTEGER REFERENCES exercise_days (pk)); INSERT INTO notes VALUES (999999);
            """])
        let copy = cli.folder.appendingPathComponent("notes.sqlite")
        XCTAssertFailure(try cli.run(["backup", copy.path]), status: 1, mentioning: "the copy failed its check (notes: 1 row refers to")
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy.path))
    }

    func testCopyHoldsCommitsStillInTheWriteAheadLog() throws {
        let cli = try loadedHarness()
        // A store that stays open keeps its recent commits in the -wal file, not yet in the database.
        let store = try Logbook(path: cli.database.path, timeZone: TimeZone(identifier: "UTC")!)
        for index in 0..<20 { try store.history.addDoneExercise("Open \(index)", at: Reliability.noon(ofDay: index)) }
        let log = try XCTUnwrap(FileManager.default.contents(atPath: cli.database.path + "-wal"))
        XCTAssertGreaterThan(log.count, 0)
        let copy = cli.folder.appendingPathComponent("copy.sqlite")
        XCTAssertEqual(try cli.run(["backup", copy.path]).status, 0)
        try assertHealthy(cli, copy)
        XCTAssertEqual(try Logbook.inspect(path: copy.path).history.fetchCount(), 30 + 20)
        XCTAssertEqual(try exports(cli, database: copy), try exports(cli))
        XCTAssertEqual(try store.history.fetchCount(), 30 + 20)
    }

    /// Backups taken while another process imports files of `daysPerFile` days, one transaction
    /// each: every copy passes `check` and holds a whole number of files, exactly the first ones.
    func testCopiesTakenWhileAnotherProcessWritesAreConsistent() throws {
        let cli = try CLIHarness()
        let daysPerFile = 50
        let files = Reliability.setting("LOGBOOK_CONCURRENCY_WRITES", default: 30)
        let imports = try (0..<files).map { index -> [String] in
            let url = cli.folder.appendingPathComponent("part-\(index).ndjson")
            try Reliability.writeHistory(days: (index * daysPerFile)..<((index + 1) * daysPerFile), to: url)
            return ["import", url.path]
        }
        XCTAssertEqual(try cli.run(["init"]).status, 0)
        var copies: [URL] = []
        try Reliability.runSideBySide(cli, writes: imports, reads: [["backup", "copy.sqlite"]]) { arguments, result in
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            if arguments[0] == "backup" {
                let kept = cli.folder.appendingPathComponent("copy-\(copies.count).sqlite")
                XCTAssertEqual(rename(cli.folder.appendingPathComponent("copy.sqlite").path, kept.path), 0)
                copies.append(kept)
            }
        }
        XCTAssertGreaterThan(copies.count, 0)
        let utc = try XCTUnwrap(TimeZone(identifier: "UTC"))
        var sizes: [Int] = []
        for copy in copies {
            try assertHealthy(cli, copy)
            let days = try Logbook.inspect(path: copy.path, timeZone: utc).history.fetchAll()
            sizes.append(days.count)
            XCTAssertEqual(days.count % daysPerFile, 0, "\(copy.lastPathComponent) holds \(days.count) days")
            XCTAssertEqual(days.map(\.day), (0..<days.count).map { CalendarDay(Reliability.noon(ofDay: $0), in: utc) },
                           "\(copy.lastPathComponent) holds other days than the first files'")
        }
        print("BackupTests: \(copies.count) copies taken during \(files) imports held \(sizes) days")
    }

    func testRefusalsWriteNothing() throws {
        let cli = try loadedHarness()
        let folder = cli.folder
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.sqlite").path,
                                                   withDestinationPath: cli.database.path)
        XCTAssertEqual(link(cli.database.path, folder.appendingPathComponent("hard.sqlite").path), 0)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("plain-file"))
        let existing = folder.appendingPathComponent("in-use.sqlite")
        try Data("an older copy".utf8).write(to: existing)
        try Data().write(to: folder.appendingPathComponent("in-use.sqlite-wal"))
        let cases: [(target: String, mentioning: String)] = [
            (cli.database.path, "it is the database"),
            ("logbook.sqlite", "it is the database"),               // relative to the working folder
            ("./sub/../logbook.sqlite", "it is the database"),
            (folder.appendingPathComponent("link.sqlite").path, "it is the database"),
            (folder.appendingPathComponent("hard.sqlite").path, "it is the database"),
            (cli.database.path + "-wal", "it is the database"),
            (cli.database.path + "-shm", "it is the database"),
            (folder.appendingPathComponent("sub").path, "it is a folder"),
            (folder.appendingPathComponent("missing/copy.sqlite").path, "No such file or directory"),
            (folder.appendingPathComponent("plain-file/copy.sqlite").path, "Not a directory"),
            (existing.path, "in-use.sqlite-wal exists"),
        ]
        let before = cli.snapshot()
        let listing = try contents(of: folder)
        for (target, text) in cases {
            XCTAssertFailure(try cli.run(["backup", target]), status: 1, mentioning: target, text)
            XCTAssertEqual(cli.snapshot(), before, target)
            XCTAssertEqual(try contents(of: folder), listing, "\(target) left a file behind")
        }
        XCTAssertEqual(try Data(contentsOf: existing), Data("an older copy".utf8))
        XCTAssertFailure(try cli.run(["backup", "-"]), status: 2, mentioning: "backup writes a file")
        XCTAssertFailure(try cli.run(["backup"]), status: 2, mentioning: "missing expected argument")
        let missing = folder.appendingPathComponent("none.sqlite")
        XCTAssertFailure(try cli.run(["--db", missing.path, "backup", "x.sqlite"], useDatabase: false), status: 1,
                         mentioning: "no database at")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))
    }

    /// A backup replaces only an earlier copy (a Logbook database, of any schema version) or an
    /// empty file (`mktemp`'s): any other file is refused and left byte for byte, as SPEC says no
    /// command writes into an existing file that is not a Logbook database. Seeded contents:
    /// random bytes, adversarial text, another program's SQLite database, a bare SQLite header.
    func testABackupReplacesOnlyAnEarlierCopyOrAnEmptyFile() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_BACKUP_TARGET_SEED", default: 0x4254)
        var random = SplitMix64(seed: seed)
        let cli = try loadedHarness()
        let folder = cli.folder
        let foreign = folder.appendingPathComponent("foreign.sqlite")
        let connection = try Connection(path: foreign.path)
        try connection.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        let foreignBytes = try Data(contentsOf: foreign)
        var contents: [Data] = [foreignBytes, Data("SQLite format 3\u{0}".utf8), Data("notes\n".utf8)]
        for _ in 0..<PropertyTestSettings.scaled(6, by: "LOGBOOK_PROPERTY_SCALE") {
            contents.append(random.chance(0.5) ? Data(AdversarialText.string(using: &random, nonEmpty: true).utf8)
                                               : Data((0..<random.int(1...5_000)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        }
        for (index, bytes) in contents.enumerated() {
            let target = folder.appendingPathComponent("target-\(index)")
            try bytes.write(to: target)
            XCTAssertFailure(try cli.run(["backup", target.path]), status: 1, mentioning: "it holds something other than a Logbook database")
            XCTAssertEqual(try Data(contentsOf: target), bytes, "seed \(seed): target \(index) changed")
        }
        let empty = folder.appendingPathComponent("empty.sqlite"), earlier = folder.appendingPathComponent("earlier.sqlite")
        try Data().write(to: empty)
        try FileManager.default.copyItem(at: CLIHarness.fixture("logbook-0.1.sqlite3"), to: earlier)
        for target in [empty, earlier] {
            XCTAssertEqual(try cli.run(["-q", "backup", target.path]).status, 0, target.lastPathComponent)
            try assertHealthy(cli, target)
            XCTAssertEqual(try exports(cli, database: target), try exports(cli))
        }
        withExtendedLifetime(connection) {}
    }

    /// A backup replaces an earlier copy of this logbook, never another logbook: a file whose
    /// logbook id is not this one's (another device's, or one a typo named) is refused and left
    /// byte for byte, through the CLI and the library, reached by its path or a symbolic link
    /// (it was replaced, exit 0, as the forty-seventh session found and left). A
    /// copy of this logbook whose id another program rewrote in other letter case is this
    /// logbook's; a file from before ids (the first release's) may be either, and is replaced as
    /// before. Seeded: the other logbooks' contents, the spelling, the case.
    func testABackupReplacesNoOtherLogbook() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_BACKUP_OTHER_SEED", default: 0x4F54)
        var random = SplitMix64(seed: seed)
        let cli = try loadedHarness()
        let ownID = try Logbook.inspect(path: cli.database.path).logbookID()
        for round in 0..<PropertyTestSettings.scaled(4, by: "LOGBOOK_PROPERTY_SCALE") {
            let other = cli.folder.appendingPathComponent("other-\(round).sqlite")
            for _ in 0..<random.int(1...3) {
                let name = AdversarialText.string(using: &random, nonEmpty: true)
                let day = String(format: "%04d-%02d-%02d", random.int(1...9999), random.int(1...12), random.int(1...28))
                let added = try cli.run(["--db", other.path, "history", "add", "--", name, "--at", day], useDatabase: false)
                XCTAssertEqual(added.status, 0, "seed \(seed): \(added.stderr)")
            }
            let otherID = try Logbook.inspect(path: other.path).logbookID()
            let bytes = try Data(contentsOf: other)
            let spelling = random.chance(0.5) ? other.path : cli.folder.appendingPathComponent("link-\(round).sqlite").path
            if spelling != other.path { try FileManager.default.createSymbolicLink(atPath: spelling, withDestinationPath: other.path) }
            let before = cli.snapshot()
            XCTAssertFailure(try cli.run(["backup", spelling]), status: 1,
                             mentioning: "cannot replace \(spelling): it is another logbook (id \(otherID); this one is \(ownID))")
            XCTAssertThrowsError(try Logbook(path: cli.database.path).backup(to: spelling)) { error in
                XCTAssertEqual(error as? LogbookError,
                               .backupRefused(.targetIsAnotherLogbook(target: spelling, targetID: otherID, databaseID: ownID)))
            }
            XCTAssertEqual(try Data(contentsOf: other), bytes, "seed \(seed): another logbook was changed")
            XCTAssertEqual(cli.snapshot(), before, "seed \(seed)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: other.path + "-wal"), "seed \(seed)")

            // A copy of this logbook, its id rewritten by another program in other letter case, is replaced.
            let earlier = cli.folder.appendingPathComponent("earlier-\(round).sqlite")
            XCTAssertEqual(try cli.run(["-q", "backup", earlier.path]).status, 0)
            let respelled = String(ownID.map { random.chance(0.5) ? Character($0.uppercased()) : Character($0.lowercased()) })
            try Connection(path: earlier.path).run("UPDATE logbook_settings SET value = ? WHERE name = 'logbook_id'", [.text(respelled)])
            XCTAssertEqual(try cli.run(["history", "add", "Plank \(round)", "--at", "2026-05-01T12:00:00Z"]).status, 0)
            XCTAssertEqual(try cli.run(["-q", "backup", earlier.path]).status, 0, "seed \(seed): \(respelled)")
            XCTAssertEqual(try exports(cli, database: earlier), try exports(cli))
        }
        // A logbook of ids whose id cannot be read is not taken for one from before them: refused (helper-87).
        let idless = cli.folder.appendingPathComponent("idless.sqlite")
        XCTAssertEqual(try cli.run(["--db", idless.path, "init"], useDatabase: false).status, 0)
        try Connection(path: idless.path).run("DELETE FROM logbook_settings WHERE name = 'logbook_id'")
        let idlessBytes = try Data(contentsOf: idless)
        XCTAssertFailure(try cli.run(["backup", idless.path]), status: 1, mentioning: "cannot read its logbook id")
        XCTAssertEqual(try Data(contentsOf: idless), idlessBytes)
        // A file from before ids (the first release wrote none) may be an earlier copy: replaced.
        let first = cli.folder.appendingPathComponent("first-release.sqlite")
        try FileManager.default.copyItem(at: CLIHarness.fixture("logbook-0.1.sqlite3"), to: first)
        XCTAssertEqual(try cli.run(["-q", "backup", first.path]).status, 0)
        XCTAssertEqual(try exports(cli, database: first), try exports(cli))
    }

    func testFolderThatCannotBeWrittenIsRefused() throws {
        let cli = try loadedHarness()
        let closed = cli.folder.appendingPathComponent("closed")
        try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(closed.path, 0o555), 0)
        defer { chmod(closed.path, 0o755) }
        var wrapper: [String] = []
        if getuid() == 0 {
            // Root writes anywhere: run as `nobody`, with the database where nobody may use it.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without /usr/bin/setpriv: an unwritable folder cannot be tested")
            }
            wrapper = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            XCTAssertEqual(chmod(cli.folder.path, 0o777), 0)
            XCTAssertEqual(chmod(cli.database.path, 0o666), 0)
        }
        let target = closed.appendingPathComponent("copy.sqlite").path
        let result = try BackgroundRun.run(cli, ["backup", target], wrapper: wrapper)
        XCTAssertFailure(result, status: 1, mentioning: "cannot write \(target)", "Permission denied")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: closed.path), [])
    }

    /// A copy that fails half-way (here: the file size limit) leaves neither half a file nor a
    /// temporary file, and the file it would have replaced is untouched; the message names the
    /// limit, as an export's does (it said only "disk I/O error"; helper-26).
    func testFailureHalfWayLeavesTheOldFile() throws {
        let cli = try loadedHarness()
        let target = cli.folder.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: CLIHarness.fixture("logbook-0.1.sqlite3"), to: target)
        let previous = try Data(contentsOf: target)
        let listing = try contents(of: cli.folder)
        // SIGXFSZ ignored, so writing past `ulimit -f` (blocks of 512 bytes) fails with EFBIG.
        let limited = ["/bin/sh", "-c", #"trap "" XFSZ; ulimit -f 64; exec "$@""#, "sh"]
        let result = try BackgroundRun.run(cli, ["backup", target.path], wrapper: limited)
        XCTAssertFailure(result, status: 1, mentioning: "backup to \(target.path) failed", "File too large")
        XCTAssertFalse(result.stderr.contains(cli.database.lastPathComponent), "the copy failed, not the database: \(result.stderr)")
        XCTAssertEqual(try Data(contentsOf: target), previous)
        XCTAssertEqual(try contents(of: cli.folder), listing)
    }
}
