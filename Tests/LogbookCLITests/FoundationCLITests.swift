import Foundation
import Logbook
import SQLiteQuery
import LogbookTestSupport
import XCTest

/// `init`, `migrate`, `check`, the global options and the error conventions, run on the real binary.
final class FoundationCLITests: XCTestCase {
    func testInitCreatesWALDatabaseWithSchemaInNewFolderAndIsIdempotent() throws {
        let cli = try CLIHarness()
        let nested = cli.folder.appendingPathComponent("a/b/logbook.sqlite")
        let first = try cli.run(["--db", nested.path, "init"], useDatabase: false)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "\(nested.path)\tschema version \(Schema.migrationFiles.count)\n")

        let header = try XCTUnwrap(FileManager.default.contents(atPath: nested.path))
        XCTAssertEqual(Array(header.prefix(16)), Array("SQLite format 3\0".utf8))
        XCTAssertEqual(header[18], 2, "WAL databases have file format version 2 at offset 18")
        do {
            let connection = try Connection(path: nested.path)
            let tables = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            var names: [String] = []
            while try tables.step() { names.append(try tables.column(0)) }
            XCTAssertEqual(names, ["change_log", "checklist_items", "drafts", "exercise_day_aliases", "exercise_day_totals", "exercise_days", "exercise_month_days", "exercise_months", "exercise_period_totals", "exercise_tallies_stale", "exercise_years", "exercises", "logbook_settings", "schema_migrations"])
        }

        let before = cli.snapshot(of: nested)
        let second = try cli.run(["--db", nested.path, "init"], useDatabase: false)
        XCTAssertEqual(second.status, 0)
        XCTAssertEqual(cli.snapshot(of: nested), before)
    }

    func testCheckPassesOnHealthyDatabase() throws {
        let cli = try CLIHarness()
        try cli.run(["init"])
        let result = try cli.run(["check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, ["integrity: ok", "foreign keys: ok", "schema version: \(Schema.migrationFiles.count) (this logbook knows \(Schema.migrationFiles.count))",
                                      "migrations: ok", "file: ok", "schema: ok", "stored values: ok", "derived data: ok"])
    }

    func testCheckOnMissingFileFailsWithoutCreatingIt() throws {
        let cli = try CLIHarness()
        XCTAssertFailure(try cli.run(["check"]), status: 1, mentioning: "no database at", cli.database.path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path))
    }

    func testForeignFileIsRefusedAndLeftUntouched() throws {
        let cli = try CLIHarness()
        let text = Data("name,count\nsquat,3\n".utf8)
        try text.write(to: cli.database)
        for command in [["init"], ["check"], ["history", "add", "Squat"], ["migrate", "--status"]] {
            XCTAssertFailure(try cli.run(command), status: 1, mentioning: cli.database.path, "not a Logbook database")
            XCTAssertEqual(try Data(contentsOf: cli.database), text)
        }
    }

    func testDamagedDatabasesFailCheck() throws {
        let cli = try CLIHarness()
        try cli.run(["init"])
        for day in 1...28 {
            try cli.run(["history", "add", String(repeating: "Exercise \(day) ", count: 40), "--at", "2026-02-\(day < 10 ? "0" : "")\(day)"])
        }
        let healthy = try Data(contentsOf: cli.database)
        XCTAssertGreaterThan(healthy.count, 4 * 4096)

        // Half a file: pages the schema points to are missing.
        try healthy.prefix(healthy.count / 2).write(to: cli.database)
        XCTAssertEqual(try cli.run(["check"]).status, 1)

        // Random bytes over the b-tree page headers of every page after the schema.
        var scribbled = healthy
        var generator = SystemRandomNumberGenerator()
        for page in stride(from: 2 * 4096, to: healthy.count, by: 4096) {
            for offset in page..<(page + 64) { scribbled[offset] = UInt8.random(in: 0...255, using: &generator) }
        }
        try scribbled.write(to: cli.database)
        let result = try cli.run(["check"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("logbook: error: "), result.stderr)
    }

    func testDatabaseFromNewerLogbookIsRefusedUnchanged() throws {
        let cli = try CLIHarness()
        try cli.run(["init"])
        try Connection(path: cli.database.path).execute(
            "INSERT INTO schema_migrations VALUES (\(Schema.migrationFiles.count + 1), 'future_feature', 'abc', 0)")
        let before = cli.snapshot()
        XCTAssertFailure(try cli.run(["init"]), status: 1, mentioning: String(format: "%04d_future_feature", Schema.migrationFiles.count + 1), "newer")
        XCTAssertFailure(try cli.run(["drafts", "add", "--version", "1.0"]), status: 1, mentioning: "newer")
        XCTAssertEqual(cli.snapshot(), before)
        XCTAssertEqual(try cli.run(["check"]).status, 1)
    }

    func testEditedAppliedMigrationIsRefusedUnchanged() throws {
        let cli = try CLIHarness()
        try cli.run(["init"])
        try Connection(path: cli.database.path).execute(
            "UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1")
        let before = cli.snapshot()
        XCTAssertFailure(try cli.run(["init"]), status: 1, mentioning: "0001_create_drafts", "edited")
        XCTAssertEqual(cli.snapshot(), before)
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.contains("migrations: applied migration 0001_create_drafts was edited"), check.stdout)
    }

    func testFolderThatCannotBeCreated() throws {
        let cli = try CLIHarness()
        let blocker = cli.folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let result = try cli.run(["--db", blocker.path + "/sub/logbook.sqlite", "init"], useDatabase: false)
        XCTAssertFailure(result, status: 1, mentioning: "cannot open", blocker.path)
    }

    func testMigrateStatusListsAppliedMigrations() throws {
        let cli = try CLIHarness()
        try cli.run(["migrate"])
        let result = try cli.run(["migrate", "--status"])
        XCTAssertEqual(result.status, 0)
        let names = Schema.migrationFiles.map { String($0.fileName.dropLast(".sql".count)) }
        XCTAssertEqual(result.lines.count, names.count)
        XCTAssertEqual(Array(names.prefix(6)), ["0001_create_drafts", "0002_create_history", "0003_create_day_aliases",
                                                "0004_create_exercise_tallies", "0005_create_exercise_day_totals",
                                                "0006_create_logbook_settings"])
        for (line, name) in zip(result.lines, names) {
            XCTAssertTrue(line.hasPrefix("\(name)\tapplied 20"), result.stdout)
        }
    }

    func testAnAppsOwnTablesAreListedByStatusAndLeftAloneByEveryCommand() throws {
        let cli = try CLIHarness()
        let notes = try Migrator(migrations: [NoteTagModel.migration], set: "notes")
        let app = try Logbook(path: cli.database.path, appMigrations: notes)
        try app.records(NoteTagModel.notes).save(NoteTagModel.Note(title: "Pack", createdAt: Date(timeIntervalSinceReferenceDate: 0)))
        let status = try cli.run(["migrate", "--status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(status.lines.count, Schema.migrationFiles.count + 1)
        XCTAssertTrue(status.lines.last?.hasPrefix("notes/0001_create_notes\tapplied 20") == true, status.stdout)
        XCTAssertEqual(try cli.run(["check"]).status, 0)
        XCTAssertEqual(try cli.run(["migrate"]).status, 0)
        try cli.run(["history", "add", "Squat", "--at", "2026-01-01T10:00:00Z"])
        XCTAssertEqual(try cli.run(["count", "history"]).stdout, "1\n")
        XCTAssertEqual(try app.records(NoteTagModel.notes).fetchCount(), 1, "the app's rows are as it left them")
    }

    /// Set and migration names another program wrote into `app_migrations` are shown as a table
    /// shows text: a line feed, a tab or an escape sequence in them neither adds a line, nor a
    /// column, nor moves the cursor (they were printed raw).
    func testMigrateStatusEscapesNamesAnotherProgramWrote() throws {
        let cli = try CLIHarness()
        let notes = try Migrator(migrations: [NoteTagModel.migration], set: "notes")
        _ = try Logbook(path: cli.database.path, appMigrations: notes)
        try Connection(path: cli.database.path).execute("""
            INSERT INTO app_migrations (set_name, version, name, checksum, applied_at)
            VALUES ('evil' || char(10) || char(27) || '[2J', 1, 'a' || char(9) || 'b\\n', 'x', 0)
            """)
        let status = try cli.run(["migrate", "--status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(status.lines.count, Schema.migrationFiles.count + 2, status.stdout)
        XCTAssertTrue(status.lines.contains(#"evil\n\u{1B}[2J/0001_a\tb\\n"# + "\tapplied 2001-01-01T00:00:00.000000Z"), status.stdout)
        XCTAssertFalse(status.stdout.contains("\u{1B}"))
    }

    func testDatabasePathResolution() throws {
        let cli = try CLIHarness()
        let fromEnvironment = cli.folder.appendingPathComponent("env.sqlite")
        let viaEnvironment = try cli.run(["init"], environment: ["LOGBOOK_DB": fromEnvironment.path], useDatabase: false)
        XCTAssertEqual(viaEnvironment.stdout, "\(fromEnvironment.path)\tschema version \(Schema.migrationFiles.count)\n")

        let xdg = cli.folder.appendingPathComponent("xdg/logbook/logbook.sqlite")
        let viaXDG = try cli.run(["init"], useDatabase: false)
        XCTAssertEqual(viaXDG.stdout, "\(xdg.path)\tschema version \(Schema.migrationFiles.count)\n")

        let flagWins = try cli.run(["init"], environment: ["LOGBOOK_DB": fromEnvironment.path])
        XCTAssertEqual(flagWins.stdout, "\(cli.database.path)\tschema version \(Schema.migrationFiles.count)\n")
    }

    /// An argument whose dashes a space or line break follows is a value: SQL that opens with a
    /// comment (it was an unknown option '-- weekly totals…'; helper-3), a name that starts with '- '.
    func testAnArgumentWithASpaceAfterItsDashIsAValue() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "history", "add", "- Plank", "--at", "2026-01-01T10:00:00Z"]).status, 0)
        XCTAssertTrue(try cli.run(["history", "list", "--format", "csv"]).stdout.contains("- Plank"))
        let query = try cli.run(["query", "-- how many\nSELECT count(*) AS n FROM exercises", "--format", "csv"])
        XCTAssertEqual(query.status, 0, query.stderr)
        XCTAssertEqual(query.stdout, "n\r\n1\r\n")
        // An option and its value quoted as one stays an option, refused, not a name stored (helper-6).
        XCTAssertFailure(try cli.run(["history", "add", "Squat", "--at yesterday"]), status: 2, mentioning: "unknown option '--at yesterday'")
        XCTAssertEqual(try cli.run(["count", "history"]).stdout, "1\n")
    }

    func testUsageErrorsExitTwoWithOneLine() throws {
        let cli = try CLIHarness()
        XCTAssertFailure(try cli.run([]), status: 2, mentioning: "missing command")
        XCTAssertFailure(try cli.run(["inti"]), status: 2, mentioning: "unknown command 'inti'", "did you mean 'init'")
        XCTAssertFailure(try cli.run(["init", "--frobnicate"]), status: 2, mentioning: "unknown option '--frobnicate'",
                         "put -- before it")
        XCTAssertFailure(try cli.run(["history", "list", "--formt", "csv"]), status: 2, mentioning: "did you mean '--format'")
        XCTAssertFailure(try cli.run(["init", "extra"]), status: 2, mentioning: "unexpected argument 'extra'")
        XCTAssertFailure(try cli.run(["check", "--db"], useDatabase: false), status: 2, mentioning: "missing value for '--db <path>'")
        XCTAssertFailure(try cli.run(["drafts"]), status: 2, mentioning: "'drafts' needs a subcommand")
        // A line with no command still has its options read: a global one's missing value, an unknown one.
        XCTAssertFailure(try cli.run(["--db"], useDatabase: false), status: 2, mentioning: "missing value for '--db <path>'")
        XCTAssertFailure(try cli.run(["history", "--time-zone"]), status: 2, mentioning: "missing value for '--time-zone <tz>'",
                         "see 'logbook history --help'")
        XCTAssertFailure(try cli.run(["--frobnicate"]), status: 2, mentioning: "unknown option '--frobnicate'", "(see 'logbook --help')")
        // An option's value given apart is never another option, on a line with no command too.
        XCTAssertEqual(try cli.run(["--db", "--help"], useDatabase: false).stdout, try cli.run(["--help"]).stdout)
        XCTAssertFailure(try cli.run(["history", "--db", "--version"], useDatabase: false), status: 2,
                         mentioning: "missing value for '--db <path>'", "write --db=--version")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path), "usage errors never create the database")
    }

    /// `drafts add --version --help` made a draft whose version was "--help": a value given
    /// apart that is `--help` or `-h` asks for help, and one that names another option is a
    /// missing value, nothing written; the text itself is still a value after `=`.
    func testAnOptionsValueGivenApartIsNeverAnotherOption() throws {
        let cli = try CLIHarness()
        let help = try cli.run(["drafts", "add", "--version", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertEqual(help.stdout, try cli.run(["drafts", "add", "--help"]).stdout)
        XCTAssertEqual(try cli.run(["history", "add", "--at", "-h", "Squat"]).stdout, try cli.run(["history", "add", "-h"]).stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path), "help writes nothing")
        for other in ["--quiet", "-q", "--whats-new", "--whats-new=x", "--db"] {
            XCTAssertFailure(try cli.run(["drafts", "add", "--version", other]), status: 2,
                             mentioning: "missing value for '--version <v>'", "write --version=\(other)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path), "usage errors never create the database")
        // Values that end in a short option's letter are values (`1h` was taken for -h: helper-74).
        XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "1h", "--whats-new", "Oq"]).status, 0)
        XCTAssertEqual(try cli.run(["history", "list", "--exercise", "Oh"]).status, 0)
        XCTAssertEqual(try cli.run(["query", "SELECT version FROM drafts", "-o", "up", "--format", "csv"]).status, 0)
        XCTAssertEqual(try String(contentsOf: cli.folder.appendingPathComponent("up"), encoding: .utf8), "version\r\n1h\r\n")
        XCTAssertEqual(try cli.run(["-q", "drafts", "delete", "1h"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version=--help"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "-1.0", "--whats-new", "- Fixes"]).status, 0)
        XCTAssertEqual(try cli.run(["drafts", "list", "--format", "csv", "--sort", "version"]).stdout.split(separator: "\r\n").dropFirst()
            .map { $0.split(separator: ",")[1] }, ["--help", "-1.0"])
    }

    func testHelpAndVersion() throws {
        let cli = try CLIHarness()
        let help = try cli.run(["--help"])
        XCTAssertEqual(help.status, 0)
        for command in ["init", "migrate", "check", "drafts", "history"] {
            XCTAssertTrue(help.stdout.contains("  \(command) "), "\(command) missing from: \(help.stdout)")
        }
        let initHelp = try cli.run(["init", "--help"])
        XCTAssertTrue(initHelp.stdout.contains("USAGE: logbook init"))
        XCTAssertTrue(initHelp.stdout.contains("EXAMPLES:"))
        let groupHelp = try cli.run(["drafts", "--help"])
        XCTAssertTrue(groupHelp.stdout.contains("submit"), groupHelp.stdout)
        // A group's help lists the global options as a command's does, short forms too, and each works there.
        func globalOptions(_ help: String) -> [Substring] {
            Array(help.split(separator: "\n", omittingEmptySubsequences: false)
                .drop { $0 != "GLOBAL OPTIONS:" }.dropFirst().prefix { !$0.isEmpty })
        }
        let globals = globalOptions(groupHelp.stdout)
        XCTAssertEqual(globals, globalOptions(initHelp.stdout))
        for option in ["  -h, --help ", "  -q, --quiet ", "  --version "] {
            XCTAssertTrue(globals.contains { $0.hasPrefix(option) }, "\(option) in \(globals)")
        }
        XCTAssertEqual(try cli.run(["drafts", "--version"]).stdout, try cli.run(["--version"]).stdout)
        XCTAssertEqual(try cli.run(["drafts", "-h"]).stdout, groupHelp.stdout)
        let version = try cli.run(["--version"])
        XCTAssertEqual(version.status, 0)
        let latest = try Schema.migrator().latestVersion
        XCTAssertTrue(version.stdout.hasPrefix("logbook 0."), version.stdout)
        XCTAssertTrue(version.stdout.hasSuffix(" (SQLite \(Logbook.sqliteVersion), schema version \(latest))\n"), version.stdout)
    }
}

extension FoundationCLITests {
    /// Another program's SQLite file is not taken over: no Logbook tables are written into it.
    func testAnotherProgramsDatabaseIsRefusedUnchanged() throws {
        let cli = try CLIHarness()
        do {
            let other = try Connection(path: cli.database.path)
            try other.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')")
        }
        let before = cli.snapshot()
        for command in [["init"], ["history", "list"], ["drafts", "add", "--version", "1"]] {
            XCTAssertFailure(try cli.run(command), status: 1, mentioning: "contacts", "belongs to another program")
        }
        XCTAssertEqual(cli.snapshot(), before)

        // A file that holds only a view is another program's too (init migrated into it; helper-2).
        let views = try CLIHarness()
        try Connection(path: views.database.path).execute("CREATE VIEW answer AS SELECT 42")
        let viewsBefore = views.snapshot()
        for command in [["init"], ["drafts", "add", "--version", "1"]] {
            XCTAssertFailure(try views.run(command), status: 1, mentioning: "view answer", "belongs to another program")
        }
        XCTAssertEqual(views.snapshot(), viewsBefore)
    }

    /// An object under a migration history's name that is not that table (another program's, a
    /// view, a Rails `schema_migrations`) is no history: the file is refused before anything is
    /// written. It was read as an empty history (the migrations were committed, then the file was
    /// refused for good; a view's file was switched to WAL first) or failed with SQLite's "no
    /// such column" and a pointer to `check`, which found nothing (helper-65).
    func testAnObjectNamedAsAMigrationHistoryIsNoHistory() throws {
        let ours = "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at REAL NOT NULL)"
        for (label, sql) in [("another text", ours), ("a view", "CREATE VIEW schema_migrations AS SELECT 1 AS version WHERE 0"),
                             ("Rails", "CREATE TABLE schema_migrations (version varchar PRIMARY KEY); INSERT INTO schema_migrations VALUES ('2024'); CREATE TABLE users (name)"),
                             ("another case", ours.replacingOccurrences(of: "TABLE schema_migrations", with: "TABLE Schema_Migrations")),
                             ("an index", "CREATE TABLE t (a); CREATE INDEX schema_migrations ON t (a)")] {
            let cli = try CLIHarness()
            try Connection(path: cli.database.path).execute(sql)
            let before = cli.snapshot()
            for command in [["init"], ["migrate"], ["check"], ["history", "list"], ["history", "add", "Squat"], ["migrate", "--status"]] {
                let result = try cli.run(command)
                XCTAssertFailure(result, status: 1, mentioning: "is not the migration history Logbook keeps under that name")
                XCTAssertEqual(result.stdout, "", "\(label): \(command)")
            }
            XCTAssertEqual(cli.snapshot(), before, label)
        }
        // A trigger's name is no table's (triggers have a name space of their own): the file is
        // refused as another program's, naming its tables.
        let triggered = try CLIHarness()
        try Connection(path: triggered.database.path).execute("CREATE TABLE x (a); CREATE TRIGGER schema_migrations AFTER INSERT ON x BEGIN SELECT 1; END")
        XCTAssertFailure(try triggered.run(["init"]), status: 1, mentioning: "has tables (x)", "belongs to another program")
        // In a Logbook file, another program's triggers named as Logbook's tables and history
        // tables are no tables: the file serves (every write refused it, "table drafts differs",
        // and `migrate --status` named app_migrations; helper-68).
        let named = try CLIHarness()
        XCTAssertEqual(try named.run(["-q", "history", "add", "Squat"]).status, 0)
        try Connection(path: named.database.path).execute("""
            CREATE TABLE audit (x);
            CREATE TRIGGER drafts AFTER INSERT ON audit BEGIN SELECT 1; END;
            CREATE TRIGGER app_migrations AFTER INSERT ON audit BEGIN SELECT 1; END;
            CREATE TRIGGER schema_migrations AFTER INSERT ON audit BEGIN SELECT 1; END;
            """)
        for command in [["drafts", "add", "--version", "1.0"], ["history", "add", "Row"], ["check"], ["repair"], ["migrate", "--status"]] {
            let result = try named.run(command)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        // In a Logbook file, another program's `app_migrations`: Logbook's own history serves, and
        // `migrate --status`, which lists the apps' sets too, says why it cannot, printing nothing.
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat"]).status, 0)
        try Connection(path: cli.database.path).execute("CREATE TABLE app_migrations (id INTEGER PRIMARY KEY, name TEXT)")
        let status = try cli.run(["migrate", "--status"])
        XCTAssertFailure(status, status: 1, mentioning: "app_migrations is not the migration history Logbook keeps under that name")
        XCTAssertEqual(status.stdout, "")
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Row"]).status, 0)
    }

    /// A relative path that begins with `file:` names that file: SQLite, built to read URIs
    /// everywhere, opened `data.sqlite` for `file:data.sqlite`, while Logbook made, checked and
    /// named the other, and a logbook so named was refused as not one (helper-65).
    func testAPathThatBeginsWithFileIsThatFile() throws {
        let cli = try CLIHarness()
        let named = "file:data.sqlite"
        XCTAssertEqual(try cli.run(["--db", named, "-q", "history", "add", "Squat", "--at", "2026-01-05T08:00:00Z"], useDatabase: false).status, 0)
        XCTAssertEqual(try cli.run(["--db", named, "history", "list", "--format", "csv"], useDatabase: false).lines.count, 2)
        XCTAssertEqual(try cli.run(["--db", named, "backup", "file:copy.sqlite"], useDatabase: false).status, 0)
        XCTAssertEqual(try cli.run(["--db", "file:copy.sqlite", "count", "history"], useDatabase: false).stdout, "1\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path)
        XCTAssertFalse(files.contains("data.sqlite") || files.contains("copy.sqlite"), "\(files)")
        XCTAssertTrue(files.contains(named) && files.contains("file:copy.sqlite"), "\(files)")
    }
}
