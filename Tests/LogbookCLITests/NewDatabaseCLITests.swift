import CSQLite
import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// A command that fails leaves no database it created: a failed command into a new `--db`,
/// `$LOGBOOK_DB` or the default path leaves the folders as they were, as it leaves an existing
/// database unchanged. One that another program wrote to or has open meanwhile stays.
final class NewDatabaseCLITests: XCTestCase {
    /// Every writing command, made to fail on an empty logbook, into a new database at a seeded
    /// place: below up to three missing folders with names from the adversarial text pools,
    /// named by `--db`, `$LOGBOOK_DB`, `$XDG_DATA_HOME` or a dangling symbolic link. After each,
    /// the scratch folder must hold exactly what it held before; the same place then takes a
    /// command that succeeds, and keeps its record.
    func testAFailedCommandLeavesNoDatabaseItCreated() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_NEW_DATABASE_SEED", default: 0x4E45_5744)
        let rounds = PropertyTestSettings.scaled(2, by: "LOGBOOK_NEW_DATABASE_ROUNDS")
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        let inputs = cli.folder.appendingPathComponent("inputs", isDirectory: true)
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let foreign = inputs.appendingPathComponent("foreign.sqlite")
        try Connection(path: foreign.path).execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept')")
        let valid = #"{"day":"2020-01-01","date":"2020-01-01T10:00:00Z","exercises":["Squat"]}"#
        let badRecords = [#"{"day":"2020-01-02","date":"2020-01-02T10:00:00Z","exercises":[]}"#,
                          #"{"day":"2020-01-02","date":"2020-01-02T10:00:00Z","exercises":["Row"],"submitted_at":1}"#,
                          #"{"day":"2020-01-02","date":"2020-01-02T10:00:00Z","exercises":["Row""#,
                          #"{"day":"2020-02-30","date":"2020-01-02T10:00:00Z","exercises":["Row"]}"#]
        let failing: [[String]] = [
            ["history", "remove", "--day", "2020-01-06", "Squat"], ["history", "delete", "--day", "2020-01-07"],
            ["history", "move", "--day", "2020-01-05", "--to", "2030-01-01"], ["history", "rename", "A", "B"],
            ["drafts", "edit", "--whats-new", "X", "1.7"], ["drafts", "submit", "1.9"], ["drafts", "delete", "1.10"],
            ["drafts", "item", "move", "1.8", "1", "3"], ["drafts", "item", "add", "1.0", "Tag"],
            ["import", foreign.path], ["import", "--format", "ndjson", "-"],
        ]
        var checked = 0
        for round in 0..<rounds {
            for (index, arguments) in failing.enumerated() {
                let place = try NewPlace(in: cli.folder, number: round * failing.count + index, using: &random)
                let stdin = arguments.last == "-" ? valid + "\n" + random.pick(badRecords) + "\n" : nil
                let before = try Self.listing(of: cli.folder)
                let failed = try cli.run(place.arguments + arguments, stdin: stdin, environment: place.environment, useDatabase: false)
                let context = "seed \(seed): \(place) \(arguments)"
                XCTAssertEqual(failed.status, 1, "\(context): \(failed.stderr)")
                XCTAssertEqual(try Self.listing(of: cli.folder), before, "\(context): left files behind")

                let added = try cli.run(place.arguments + ["history", "add", "Plank", "--at", "2021-03-04T05:06:07Z"],
                                        environment: place.environment, useDatabase: false)
                XCTAssertEqual(added.status, 0, "\(context): \(added.stderr)")
                XCTAssertTrue(added.stderr.contains("logbook: created"), "\(context): \(added.stderr)")
                let listed = try cli.run(place.arguments + ["history", "list", "--format", "csv"],
                                         environment: place.environment, useDatabase: false)
                XCTAssertEqual(listed.lines.count, 2, "\(context): \(listed.stdout)\(listed.stderr)")
                try place.remove()
                checked += 1
            }
        }
        print("NewDatabaseCLITests (LOGBOOK_NEW_DATABASE_SEED=\(seed)): \(checked) failed commands into new databases")
    }

    /// A new database whose path the system cannot make (a folder's or the file's name too long)
    /// leaves none of the folders made for it, from the CLI and from the library (the folders
    /// above the name were left; helper-86). Seeded: how many folders are missing, which name is
    /// too long.
    func testAPathThatCannotBeMadeLeavesNoFolderMadeForIt() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_UNMADE_PATH_SEED", default: 0x554D)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        let tooLong = String(repeating: "n", count: Int(NAME_MAX) + 1)
        for round in 0..<PropertyTestSettings.scaled(4, by: "LOGBOOK_PROPERTY_SCALE") {
            var names = (0..<random.int(1...3)).map { "folder-\(round)-\($0)" } + ["logbook.sqlite"]
            // Never the first: at least one folder is made before the system refuses a name.
            names[random.int(1...(names.count - 1))] = tooLong
            let path = cli.folder.path + "/" + names.joined(separator: "/")
            let context = "seed \(seed): \(names.map { $0.count > 100 ? "<\($0.count) bytes>" : $0 })"
            let before = try Self.listing(of: cli.folder)
            let added = try cli.run(["--db", path, "history", "add", "Plank", "--at", "2021-03-04T05:06:07Z"], useDatabase: false)
            XCTAssertEqual(added.status, 1, "\(context): \(added.stderr)")
            XCTAssertTrue(added.stderr.contains("File name too long"), "\(context): \(added.stderr)")
            XCTAssertEqual(try Self.listing(of: cli.folder), before, "\(context): the CLI left folders behind")
            XCTAssertThrowsError(try Logbook(path: path), context)
            XCTAssertEqual(try Self.listing(of: cli.folder), before, "\(context): the library left folders behind")
        }
    }

    /// As `mkdir -p` makes them, the folders made for a new database let their owner write in
    /// them and enter them whatever the umask: under 177 (a database of mode 600) the command
    /// works (it was refused, "Permission denied", and left a folder of mode 600 nothing could be
    /// made in; helper-86); under 377 (a database its owner cannot write) it fails and leaves
    /// none of them. Seeded (`LOGBOOK_UMASK_SEED`): more umasks, each folder's mode then 0777 less
    /// the umask with the owner's write and search. Run as `nobody` when the tests run as root,
    /// whom no mode stops.
    func testFoldersMadeForANewDatabaseLetTheirOwnerInWhateverTheUmask() throws {
        let cli = try CLIHarness()
        var wrapper: [String] = []
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without /usr/bin/setpriv: a umask does not stop root")
            }
            wrapper = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            XCTAssertEqual(chmod(cli.folder.path, 0o777), 0)
        }
        let seed = PropertyTestSettings.seed("LOGBOOK_UMASK_SEED", default: 0x554D_534B)
        var random = SplitMix64(seed: seed)
        let masks = [0o177, 0o377] + (0..<PropertyTestSettings.scaled(4, by: "LOGBOOK_PROPERTY_SCALE")).map { _ in random.int(0...0o777) }
        for value in masks {
            let mask = String(value, radix: 8)
            // The database is made 0644 less the umask: its owner must read and write it.
            let works = value & 0o600 == 0
            let path = cli.folder.appendingPathComponent("new-\(mask)/sub/logbook.sqlite").path
            // The command line ends `logbook --db <the harness's database> ARGUMENTS`: another database, under the umask.
            let underMask = ["/bin/sh", "-c", "umask \(mask); program=$1; shift 3; exec \"$program\" --db '\(path)' \"$@\"", "sh"]
            let before = try Self.listing(of: cli.folder)
            let added = try BackgroundRun.run(cli, ["history", "add", "Plank", "--at", "2021-03-04T05:06:07Z"], wrapper: wrapper + underMask)
            if works {
                XCTAssertEqual(added.status, 0, "seed \(seed), umask \(mask): \(added.stderr)")
                for folder in ["new-\(mask)", "new-\(mask)/sub"] {
                    let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: cli.folder.appendingPathComponent(folder).path)[.posixPermissions] as? Int)
                    XCTAssertEqual(mode, 0o777 & ~value | 0o300, "seed \(seed), umask \(mask): \(folder)")
                }
            } else {
                XCTAssertEqual(added.status, 1, "seed \(seed), umask \(mask): \(added.stderr)")
                XCTAssertEqual(try Self.listing(of: cli.folder), before, "seed \(seed), umask \(mask): left files behind")
            }
        }
    }

    /// A database in a folder this account may not enter is not called missing, with `logbook
    /// init` to run (helper-86): reads and writes fail naming the system's reason, and nothing
    /// is created. Run as `nobody`, which the folder (root's, mode 700) keeps out.
    func testADatabaseInAFolderThatCannotBeEnteredIsNotCalledMissing() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and /usr/bin/setpriv to run as an account a folder keeps out")
        }
        let cli = try CLIHarness()
        let closed = cli.folder.appendingPathComponent("closed")
        let path = closed.appendingPathComponent("logbook.sqlite").path
        XCTAssertEqual(try cli.run(["--db", path, "history", "add", "Plank", "--at", "2021-03-04T05:06:07Z"], useDatabase: false).status, 0)
        XCTAssertEqual(chmod(closed.path, 0o700), 0)
        XCTAssertEqual(chmod(cli.folder.path, 0o777), 0)
        let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "/bin/sh", "-c", "program=$1; shift 3; exec \"$program\" --db '\(path)' \"$@\"", "sh"]
        let history = cli.folder.appendingPathComponent("history.csv")
        try Data("day,exercise\n2021-03-06,Row\n".utf8).write(to: history)
        let before = try Self.listing(of: cli.folder)
        // A dry run ran on an empty database and said "inserted 1", exit 0; repair said "no database".
        for arguments in [["count", "history"], ["history", "add", "Row", "--at", "2021-03-05T05:06:07Z"], ["init"],
                          ["import", "--dry-run", history.path], ["repair"], ["repair", "--dry-run"]] {
            let result = try BackgroundRun.run(cli, arguments, wrapper: asNobody)
            XCTAssertFailure(result, status: 1, mentioning: "Permission denied")
            XCTAssertFalse(result.stderr.contains("no database"), "\(arguments): \(result.stderr)")
            XCTAssertEqual(try Self.listing(of: cli.folder), before, "\(arguments)")
        }
    }

    /// `..` after a folder that does not exist names nothing for the system, and a file beside it
    /// for SQLite (which drops the name before `..` as text): refused, so that the command and its
    /// clean-up never name two files; after existing folders and symbolic links it is taken.
    func testDotDotAfterAMissingFolderIsRefusedAndAfterARealOneIsCleanedUp() throws {
        let cli = try CLIHarness()
        let bad = cli.folder.appendingPathComponent("bad.json")
        try Data(#"[{"day":"2026-01-01","exercises":[]}]"#.utf8).write(to: bad)
        let before = try Self.listing(of: cli.folder)
        for path in ["sub/../x.sqlite", "new/sub/../x.sqlite", "./sub/../../x.sqlite"] {
            XCTAssertFailure(try cli.run(["--db", path, "import", bad.path], useDatabase: false), status: 1,
                             mentioning: "so '..' after it names nothing")
            XCTAssertEqual(try Self.listing(of: cli.folder), before, path)
        }
        try FileManager.default.createDirectory(at: cli.folder.appendingPathComponent("real/inner"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: cli.folder.appendingPathComponent("link").path, withDestinationPath: "real/inner")
        let withFolders = try Self.listing(of: cli.folder)
        for path in ["real/inner/../x.sqlite", "link/../x.sqlite", "real/../real/new/y.sqlite"] {
            XCTAssertEqual(try cli.run(["--db", path, "import", bad.path], useDatabase: false).status, 1, path)
            XCTAssertEqual(try Self.listing(of: cli.folder), withFolders, "\(path) left files behind")
        }
    }

    /// The default database: `$XDG_DATA_HOME/logbook/logbook.sqlite` when that is an absolute path
    /// (a relative one is ignored, as the XDG spec says: `rel` and `~/xdg` named a folder under the
    /// current one; helper-3), else under `$HOME/.local/share`, where `$HOME` must be absolute too
    /// (an empty one put it under `/.local`); a folder that cannot be made is named with the
    /// system's reason (it said `NSCocoaErrorDomain error 512`).
    func testTheDefaultDatabaseIsUnderAbsoluteFoldersOnly() throws {
        let cli = try CLIHarness()
        let home = cli.folder.appendingPathComponent("home").path
        let expected = home + "/.local/share/logbook/logbook.sqlite"
        for xdg in ["rel", "~/xdg", "", "./x"] {
            let result = try cli.run(["history", "add", "Squat"], environment: ["HOME": home, "XDG_DATA_HOME": xdg], useDatabase: false)
            XCTAssertEqual(result.status, 0, "\(xdg): \(result.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: expected), "\(xdg): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("rel").path), xdg)
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("~").path), xdg)
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("x").path), xdg)
        }
        XCTAssertEqual(try Connection(path: expected).scalar("SELECT count(*) FROM exercises", as: Int.self), 4)

        // An empty or relative $HOME falls back to the account's home folder, never to the root or the current folder.
        let account = try XCTUnwrap(getpwuid(getuid())).pointee.pw_dir.map { String(cString: $0) } ?? ""
        for empty in ["", "relative"] {
            let listed = try cli.run(["history", "list"], environment: ["HOME": empty, "XDG_DATA_HOME": ""], useDatabase: false)
            XCTAssertFalse(listed.stderr.contains(" /.local/"), listed.stderr)
            XCTAssertFalse(listed.stderr.contains(" relative/"), listed.stderr)
            if listed.status != 0 {
                XCTAssertTrue(listed.stderr.contains(account), "\(empty): \(listed.stderr)")
            } else {
                XCTAssertTrue(FileManager.default.fileExists(atPath: account + "/.local/share/logbook/logbook.sqlite"), "\(empty): read what?")
            }
        }

        // A home of / is joined without a double slash (it said //.local/…).
        let root = try cli.run(["history", "list"], environment: ["HOME": "/", "XDG_DATA_HOME": ""], useDatabase: false)
        XCTAssertFalse(root.stderr.contains("//"), root.stderr)

        let file = cli.folder.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        XCTAssertFailure(try cli.run(["history", "add", "Squat"], environment: ["XDG_DATA_HOME": file.path], useDatabase: false), status: 1,
                         mentioning: "cannot create folder \(file.path)/logbook: \(file.path) is not a folder")
    }

    /// A failed import into a new database keeps the file when another program has it open (a
    /// reader here; a writer waiting for it would otherwise write into a removed file) or wrote a
    /// record to it while the import read its input, and a file another program put at the path
    /// meanwhile (an empty logbook of its own moved there): only the file the command made is its
    /// to remove (helper-17). The reader is a plain SQLite client, which deletes the log files as
    /// the last connection to close: Logbook's own connections keep a log they found and did not
    /// write (``LogFoundAtOpen``), so with one as the reader they stay whatever the import did.
    func testAFailedCommandKeepsADatabaseAnotherProgramHasOpenOrWroteTo() throws {
        let cli = try CLIHarness()
        let replacement = cli.folder.appendingPathComponent("replacement.sqlite")
        for otherProgram in ["holds it open", "adds a draft", "moves a logbook of its own there"] {
            try? FileManager.default.removeItem(at: cli.database)
            let importing = Process()
            importing.executableURL = CLIHarness.executable
            importing.arguments = ["--db", cli.database.path, "import", "--format", "ndjson", "-"]
            importing.environment = ["TZ": "UTC", "HOME": cli.folder.path, "PATH": "/usr/bin:/bin"]
            let input = Pipe(), errors = Pipe()
            importing.standardInput = input
            importing.standardError = errors
            try importing.run()
            input.fileHandleForWriting.write(Data(#"{"day":"2020-01-01","date":"2020-01-01T10:00:00Z","exercises":["Squat"]}"#.utf8 + [0x0A]))
            let deadline = Date(timeIntervalSinceNow: 30)
            while (try? Connection(path: cli.database.path, options: Self.existingOnly).scalar(
                "SELECT count(*) FROM schema_migrations", as: Int.self)) == nil, Date() < deadline {
                usleep(20_000)
            }
            var reader: OpaquePointer?
            switch otherProgram {
            case "holds it open":
                XCTAssertEqual(sqlite3_open_v2(cli.database.path, &reader, SQLITE_OPEN_READWRITE, nil), SQLITE_OK)
                XCTAssertEqual(sqlite3_exec(reader, "SELECT count(*) FROM drafts", nil, nil, nil), SQLITE_OK)
            case "adds a draft":
                let added = try cli.run(["drafts", "add", "--version", "1.0"])
                XCTAssertEqual(added.status, 0, added.stderr)
            default:
                XCTAssertEqual(try cli.run(["--db", replacement.path, "init"], useDatabase: false).status, 0)
                XCTAssertEqual(rename(replacement.path, cli.database.path), 0)
            }
            input.fileHandleForWriting.write(Data(#"{"day":"2020-01-02","exercises":[]}"#.utf8 + [0x0A]))
            try input.fileHandleForWriting.close()
            importing.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(importing.terminationStatus, 1, "\(otherProgram): \(stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: cli.database.path), "another program \(otherProgram), and the file went")
            XCTAssertEqual(sqlite3_close(reader), SQLITE_OK)
            // The failed command closed the file it kept as any connection does: no log files left.
            for suffix in ["-wal", "-shm"] {
                XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path + suffix), "\(otherProgram): \(suffix) left")
            }
            let drafts = try cli.run(["count", "drafts"])
            XCTAssertEqual(drafts.stdout, otherProgram == "adds a draft" ? "1\n" : "0\n", "\(otherProgram): \(drafts.stderr)")
        }
    }

    private static var existingOnly: Connection.Options {
        var options = Connection.Options()
        options.createIfMissing = false
        return options
    }

    /// Every path below `folder` with its size (folders as -1), sorted.
    private static func listing(of folder: URL) throws -> [String] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return try paths.map { path in
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)
            let size = attributes[.type] as? FileAttributeType == .typeDirectory ? -1 : (attributes[.size] as? Int ?? 0)
            return "\(path) \(size)"
        }.sorted()
    }
}

/// A place for a new database that does not exist yet, and how a command is told of it.
private struct NewPlace: CustomStringConvertible {
    /// The first folder created for it (nil: none), removed with everything in it by ``remove()``.
    let top: URL?
    let file: URL
    let link: URL?
    let arguments: [String]
    let environment: [String: String]

    init(in folder: URL, number: Int, using random: inout SplitMix64) throws {
        let names = ["new folder", "é\u{301}", "☀︎ x", "日本", "-dash", ".hidden"]
        var directory = folder.appendingPathComponent("place-\(number)", isDirectory: true)
        top = directory
        for _ in 0..<random.int(0...3) { directory = directory.appendingPathComponent(random.pick(names), isDirectory: true) }
        let way = random.int(0...3)
        if way == 3 {
            // A dangling link in an existing folder: the file SQLite creates is its target.
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let target = directory.appendingPathComponent("target \(random.pick(names)).sqlite")
            link = directory.appendingPathComponent("link.sqlite")
            try FileManager.default.createSymbolicLink(atPath: link!.path, withDestinationPath: target.lastPathComponent)
            file = target
        } else {
            link = nil
            file = directory.appendingPathComponent(way == 2 ? "logbook/logbook.sqlite" : "\(random.pick(names)).sqlite")
        }
        switch way {
        case 0: (arguments, environment) = (["--db", file.path], [:])
        case 1: (arguments, environment) = ([], ["LOGBOOK_DB": file.path])
        case 2: (arguments, environment) = ([], ["XDG_DATA_HOME": file.deletingLastPathComponent().deletingLastPathComponent().path])
        default: (arguments, environment) = (["--db", link!.path], [:])
        }
    }

    var description: String { "database \(file.path)" + (link.map { " through the link \($0.lastPathComponent)" } ?? "") + " \(arguments) \(environment)" }

    func remove() throws {
        if let top { try FileManager.default.removeItem(at: top) }
    }
}
