import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Every command on a damaged or unexpected database file: a clear `logbook: error:` line, exit 1,
/// no crash, and the file as it was. (FoundationCLITests covers a text file, `check` on damaged
/// files and a few commands on a newer database; this sweeps every command.)
final class DamagedDatabaseTests: XCTestCase {
    /// Every command, with the arguments it needs, and whether it writes.
    private func commands(_ cli: CLIHarness) throws -> [(arguments: [String], writes: Bool)] {
        let newDay = cli.folder.appendingPathComponent("new-day.ndjson")
        try Reliability.writeHistory(days: 3_000..<3_001, to: newDay)
        return [
            (["init"], true), (["migrate"], true), (["migrate", "--status"], false), (["check"], false),
            (["drafts", "list"], false), (["drafts", "show", "1.0"], false), (["drafts", "add", "--version", "9.9"], true),
            (["drafts", "item", "uncheck", "1.0", "1"], true), (["drafts", "delete", "1.0"], true),
            (["history", "list"], false), (["history", "add", "Squat", "--at", "2026-03-01T12:00:00Z"], true),
            (["history", "delete", "--day", "2025-02-05"], true), (["count", "history"], false), (["count", "drafts"], false),
            (["import", newDay.path], true), (["export", "history", "--format", "csv"], false),
            (["export", "drafts", "-o", cli.folder.appendingPathComponent("out.json").path], false),
            (["report", "history"], false), (["report", "exercises"], false), (["report", "streaks"], false),
            (["report", "drafts"], false), (["query", "SELECT count(*) FROM exercises"], false),
            (["backup", cli.folder.appendingPathComponent("copy.sqlite").path], false),
        ]
    }

    /// A database with both fixtures, its bytes, and the harness.
    private func loadedDatabase() throws -> (cli: CLIHarness, bytes: Data) {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["--time-zone", "America/New_York", "import", CLIHarness.fixture("history.plist").path]).status, 0)
        XCTAssertEqual(try cli.run(["import", CLIHarness.fixture("drafts.json").path]).status, 0)
        // Long names, so that the exercises fill pages of their own: one import (28 `history add`
        // processes took most of each test's time).
        let days = cli.folder.appendingPathComponent("february.ndjson")
        try Data((1...28).map { day in
            #"{"day":"2026-02-\#(String(format: "%02d", day))","date":"2026-02-\#(String(format: "%02d", day))T12:00:00Z","exercises":["\#(String(repeating: "Exercise \(day) ", count: 40))"]}"# + "\n"
        }.joined().utf8).write(to: days)
        XCTAssertEqual(try cli.run(["import", days.path]).status, 0)
        try FileManager.default.removeItem(at: days)
        return (cli, try Data(contentsOf: cli.database))
    }

    /// Runs every command on `bytes` put in place of the database, through `wrapper`, and checks
    /// the answer with `expect` (exit status 1 unless it says otherwise) and that the file is unchanged.
    private func sweep(_ cli: CLIHarness, _ bytes: Data, _ label: String, wrapper: [String] = [],
                       expect: (_ arguments: [String], _ writes: Bool) -> (status: Int32, mentioning: [String])) throws {
        for (arguments, writes) in try commands(cli) {
            try Reliability.restore(cli, to: bytes)
            let result = try BackgroundRun.run(cli, arguments, wrapper: wrapper)
            let expected = expect(arguments, writes)
            let context = "\(label): \(arguments.joined(separator: " "))"
            XCTAssertEqual(result.status, expected.status, "\(context): \(result.stdout.prefix(300))\(result.stderr)")
            if expected.status != 0 {
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(context): \(result.stderr)")
                XCTAssertTrue(result.stderr.hasPrefix("logbook: error: "), "\(context): \(result.stderr)")
                for text in expected.mentioning {
                    XCTAssertTrue(result.stderr.contains(text), "\(context): '\(text)' not in \(result.stderr)")
                }
            }
            XCTAssertEqual(try Data(contentsOf: cli.database), bytes, "\(context) changed the file")
            let log = FileManager.default.contents(atPath: cli.database.path + "-wal")
            XCTAssertTrue(log?.isEmpty ?? true, "\(context) left \(log?.count ?? 0) bytes of write-ahead log")
        }
    }

    func testFilesThatAreNotLogbookDatabasesAreRefusedByEveryCommand() throws {
        let (cli, healthy) = try loadedDatabase()
        var generator = SplitMix64(seed: 5)
        let random = Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let damaged: [(String, Data)] = [
            ("cut to 3 pages", healthy.prefix(3 * 4_096)),
            ("cut mid-page", healthy.prefix(healthy.count / 2 + 100)),
            ("random bytes", random),
            ("an SQLite header over random bytes", healthy.prefix(100) + random),
            ("zeros", Data(count: 8_192)),
            ("a PNG", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + random.prefix(500)),
        ]
        for (label, bytes) in damaged {
            try sweep(cli, bytes, label) { _, _ in (1, [cli.database.path, "not a Logbook database"]) }
        }
    }

    func testDamagedPagesAreReportedWhereverTheyAreRead() throws {
        let (cli, healthy) = try loadedDatabase()
        // Random bytes over the b-tree header of the root page of every table and index but the
        // migration history and the file's settings, so every table of records and every index is
        // damaged but the file still opens.
        var roots: [Int] = []
        let pages = try Connection(path: cli.database.path).prepare(
            "SELECT rootpage FROM sqlite_schema WHERE rootpage > 1 AND tbl_name NOT IN ('schema_migrations', 'logbook_settings')")
        while try pages.step() { roots.append(try pages.column(0)) }
        XCTAssertGreaterThan(roots.count, 10)
        var damaged = healthy
        var generator = SplitMix64(seed: 6)
        for root in roots {
            let page = (root - 1) * 4_096
            for offset in page..<(page + 64) { damaged[offset] = UInt8.random(in: 0...255, using: &generator) }
        }
        let untouchedByCommand: Set<[String]> = [["init"], ["migrate"], ["migrate", "--status"]]
        try sweep(cli, damaged, "damaged pages") { arguments, _ in
            if untouchedByCommand.contains(arguments) { return (0, []) }
            if arguments.first == "backup" { return (1, ["the copy failed its check", "malformed"]) }
            return (1, ["malformed"])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("copy.sqlite").path))
    }

    func testDatabaseFromANewerLogbookIsRefusedByEveryCommandThatUsesItsTables() throws {
        let (cli, _) = try loadedDatabase()
        try cli.run(["query", "SELECT 1"])   // closes cleanly
        try Connection(path: cli.database.path).execute("INSERT INTO schema_migrations VALUES (\(Schema.migrationFiles.count + 1), 'future_feature', 'abc', 0)")
        let newer = try Data(contentsOf: cli.database)
        try sweep(cli, newer, "newer database") { arguments, _ in
            // One rule for every command that opens a database: query and backup too (issue 15).
            switch arguments.first {
            case "check": (1, ["check failed"])
            default: (1, [String(format: "%04d_future_feature", Schema.migrationFiles.count + 1), "newer"])
            }
        }
    }

    func testReadOnlyFileServesReadsAndRefusesWrites() throws {
        let (cli, bytes) = try loadedDatabase()
        let wrapper = try unprivileged(cli)
        let commands = try commands(cli)
        XCTAssertEqual(chmod(cli.database.path, 0o444), 0)
        // The folder stays writable, for the -wal and -shm files that readers of a WAL database need.
        XCTAssertEqual(chmod(cli.folder.path, 0o777), 0)
        for (arguments, writes) in commands {
            let result = try BackgroundRun.run(cli, arguments, wrapper: wrapper)
            let context = arguments.joined(separator: " ")
            // `init` and `migrate` have nothing to do on a current database, so they write nothing.
            if writes && !["init", "migrate"].contains(arguments[0]) {
                XCTAssertFailure(result, status: 1, mentioning: "cannot write \(cli.database.path): the file or its folder is read-only")
            } else {
                XCTAssertEqual(result.status, 0, "\(context): \(result.stderr)")
            }
            XCTAssertEqual(try Data(contentsOf: cli.database), bytes, "\(context) changed the file")
        }
        XCTAssertEqual(try cli.run(["--db", cli.folder.appendingPathComponent("copy.sqlite").path, "check"], useDatabase: false).status, 0,
                       "the backup of a read-only database")
    }

    func testReadOnlyFolderIsAClearErrorForEveryCommand() throws {
        let (cli, bytes) = try loadedDatabase()
        let wrapper = try unprivileged(cli)
        let commands = try commands(cli)
        XCTAssertEqual(chmod(cli.database.path, 0o666), 0)
        XCTAssertEqual(chmod(cli.folder.path, 0o555), 0)
        defer { chmod(cli.folder.path, 0o755) }
        for (arguments, _) in commands {
            let result = try BackgroundRun.run(cli, arguments, wrapper: wrapper)
            XCTAssertFailure(result, status: 1, mentioning: cli.database.path, "folder cannot be written")
            XCTAssertEqual(try Data(contentsOf: cli.database), bytes, "\(arguments) changed the file")
        }
    }

    /// A database on a file system mounted read-only is named as such by every command (SQLite
    /// says "unable to open database file", which Logbook passed on with "No such file or
    /// directory" for a file that is there; helper-26), and stays as it was. Needs the right to
    /// mount (root): skipped without it.
    func testAFileSystemMountedReadOnlyIsAClearErrorForEveryCommand() throws {
        let (cli, bytes) = try loadedDatabase()
        let mountPoint = cli.folder.appendingPathComponent("mounted")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        func run(_ program: String, _ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        let mount = { (arguments: [String]) throws -> Int32 in try run("/bin/mount", arguments) }
        guard getuid() == 0, try mount(["-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint.path]) == 0 else {
            throw XCTSkip("a tmpfs cannot be mounted here: a read-only file system cannot be tested")
        }
        defer { _ = try? run("/bin/umount", [mountPoint.path]) }
        let database = mountPoint.appendingPathComponent("logbook.sqlite")
        try bytes.write(to: database)
        XCTAssertEqual(try mount(["-o", "remount,ro", mountPoint.path]), 0)
        for (arguments, _) in try commands(cli) where arguments != ["--version"] {
            let result = try cli.run(["--db", database.path] + arguments, useDatabase: false)
            XCTAssertFailure(result, status: 1, mentioning: database.path, "on a file system mounted read-only")
            XCTAssertEqual(try Data(contentsOf: database), bytes, "\(arguments) changed the file")
        }
    }

    /// A side file that cannot be written, or a write a stopped program left that must be rolled
    /// back or recovered where the file cannot be written, is named as the cause, where the error
    /// said "the file or its folder is read-only" of a file and folder that could be written, or
    /// "unable to open database file: No such file or directory" of a file that was there (helper-2).
    func testAReadOnlySideFileOrAnUnfinishedWriteIsNamed() throws {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("python3 leaves a write unfinished here") }
        func leaveUnfinished(_ cli: CLIHarness, journal: String) throws {
            // Another program's write, committed or not, whose process ends without closing the file.
            let script = """
                import os, sqlite3, sys
                db = sqlite3.connect(sys.argv[1], isolation_level=None)
                db.execute("PRAGMA journal_mode = \(journal)")
                db.execute("PRAGMA wal_autocheckpoint = 0")
                db.execute("PRAGMA cache_size = 1")  # so that the rolled-back write spills pages into the file
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO logbook_settings (name, value) VALUES ('left', 'x')")
                db.execute("UPDATE exercises SET name = name || ''")
                if sys.argv[2] == 'commit': db.execute("COMMIT")
                os._exit(0)
                """
            let result = try ExternalProgram.run(python, ["-c", script, cli.database.path, journal == "WAL" ? "commit" : "stop"])
            XCTAssertEqual(result.status, 0, result.errors)
        }
        // A write-ahead log to recover, its -shm gone, in a folder that cannot be written.
        do {
            let (cli, _) = try loadedDatabase()
            let wrapper = try unprivileged(cli)
            try leaveUnfinished(cli, journal: "WAL")
            try FileManager.default.removeItem(atPath: cli.database.path + "-shm")
            XCTAssertEqual(chmod(cli.folder.path, 0o555), 0)
            defer { chmod(cli.folder.path, 0o755) }
            XCTAssertFailure(try BackgroundRun.run(cli, ["history", "list"], wrapper: wrapper), status: 1,
                             mentioning: "cannot open", "its folder is read-only", "\(cli.database.path)-wal holds writes", "-shm")
        }
        // A rolled-back journal to roll back, in a read-only file.
        do {
            let (cli, _) = try loadedDatabase()
            let wrapper = try unprivileged(cli)
            try leaveUnfinished(cli, journal: "DELETE")
            XCTAssertTrue(FileManager.default.fileExists(atPath: cli.database.path + "-journal"))
            XCTAssertEqual(chmod(cli.database.path, 0o444), 0)
            XCTAssertFailure(try BackgroundRun.run(cli, ["history", "list"], wrapper: wrapper), status: 1,
                             mentioning: "\(cli.database.path)-journal holds a write a stopped program left unfinished")
        }
        // A commit cut off after its first page, in a read-only file: page 1 already counts the
        // pages the commit adds, the file is still as long as before, and the journal is hot. It was
        // called cut short, not a Logbook database (helper-65).
        do {
            let (cli, _) = try loadedDatabase()
            let wrapper = try unprivileged(cli)
            let path = cli.database.path
            let pageSize = try { () throws -> Int in
                let connection = try Connection(path: path)
                try connection.execute("PRAGMA journal_mode = DELETE")
                return try XCTUnwrap(connection.scalar("PRAGMA page_size", as: Int.self))
            }()
            let original = try Data(contentsOf: cli.database)
            let grown = cli.folder.appendingPathComponent("grown.sqlite")
            try original.write(to: grown)
            try Connection(path: grown.path).execute("""
                CREATE TABLE pad (x); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
                INSERT INTO pad SELECT randomblob(1000) FROM n
                """)
            let newFirstPage = try Data(contentsOf: grown).prefix(pageSize)
            let bigEndian = { (value: UInt32) in withUnsafeBytes(of: value.bigEndian) { Data($0) } }
            let nonce: UInt32 = 0x5EED
            let oldFirstPage = original.prefix(pageSize)
            let checksum = stride(from: pageSize - 200, to: 0, by: -200).reduce(nonce) { $0 &+ UInt32(oldFirstPage[$1]) }
            var journal = Data([0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]) + bigEndian(1) + bigEndian(nonce)
                + bigEndian(UInt32(original.count / pageSize)) + bigEndian(UInt32(pageSize)) + bigEndian(UInt32(pageSize))
            journal += Data(count: pageSize - journal.count) + bigEndian(1) + oldFirstPage + bigEndian(checksum)
            try journal.write(to: URL(fileURLWithPath: path + "-journal"))
            try (newFirstPage + original.dropFirst(pageSize)).write(to: cli.database)
            XCTAssertEqual(chmod(path, 0o444), 0)
            for command in [["history", "list"], ["check"]] {
                XCTAssertFailure(try BackgroundRun.run(cli, command, wrapper: wrapper), status: 1,
                                 mentioning: "\(path)-journal holds a write a stopped program left unfinished")
            }
            // Where it can be written, SQLite rolls the commit back: the file is what it was.
            XCTAssertEqual(chmod(path, 0o644), 0)
            XCTAssertEqual(try cli.run(["history", "list", "--format", "csv"]).status, 0)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-journal"))
        }
        // A side file that is a folder is named (it was "the file or its folder is read-only", or
        // SQLite's "unable to open database file: Is a directory"; helper-65).
        do {
            let (cli, bytes) = try loadedDatabase()
            for side in ["-shm", "-wal", "-journal"] {
                // (The failed open with a -shm folder leaves SQLite's empty -wal.)
                try? FileManager.default.removeItem(atPath: cli.database.path + side)
                try FileManager.default.createDirectory(atPath: cli.database.path + side, withIntermediateDirectories: false)
                XCTAssertFailure(try cli.run(["history", "add", "Squat", "--at", "2026-03-01T12:00:00Z"]), status: 1,
                                 mentioning: "\(cli.database.path)\(side) is not a file, where SQLite keeps one of the database's side files")
                XCTAssertEqual(try Data(contentsOf: cli.database), bytes, side)
                try FileManager.default.removeItem(atPath: cli.database.path + side)
            }
        }
        // A -shm that cannot be written, beside a file and folder that can.
        do {
            let (cli, bytes) = try loadedDatabase()
            let wrapper = try unprivileged(cli)
            try leaveUnfinished(cli, journal: "WAL")
            for file in [cli.database.path, cli.database.path + "-wal"] { XCTAssertEqual(chmod(file, 0o666), 0) }
            XCTAssertEqual(chmod(cli.folder.path, 0o777), 0)
            XCTAssertEqual(chmod(cli.database.path + "-shm", 0o444), 0)
            let added = try BackgroundRun.run(cli, ["history", "add", "Squat", "--at", "2026-03-01T12:00:00Z"], wrapper: wrapper)
            XCTAssertFailure(added, status: 1, mentioning: "its shared-memory file \(cli.database.path)-shm cannot be written")
            XCTAssertNotEqual(try Data(contentsOf: cli.database), Data(), "\(bytes.count)")
        }
    }

    /// A wrapper that runs `logbook` as a user to whom file permissions apply: `nobody` through
    /// `setpriv` when the tests run as root (root ignores them), none otherwise.
    private func unprivileged(_ cli: CLIHarness) throws -> [String] {
        guard getuid() == 0 else { return [] }
        let setpriv = "/usr/bin/setpriv"
        guard FileManager.default.isExecutableFile(atPath: setpriv) else {
            throw XCTSkip("running as root without \(setpriv): permissions cannot be tested")
        }
        let wrapper = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        guard try BackgroundRun.run(cli, ["--version"], wrapper: wrapper).status == 0 else {
            throw XCTSkip("user nobody cannot run \(CLIHarness.executable.path)")
        }
        return wrapper
    }
}
