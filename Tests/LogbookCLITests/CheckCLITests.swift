import Foundation
import Logbook
import SQLiteQuery
import XCTest

/// `check` sees everything another program or a damaged disk can do to the file, names it, and
/// exits 1; the other commands refuse such a file with words, not a raw SQLite error (issue 15,
/// items 8 and 9).
final class CheckCLITests: XCTestCase {
    private func loaded() throws -> CLIHarness {
        let cli = try CLIHarness()
        _ = try FixtureData.load(into: cli)
        XCTAssertEqual(try cli.run(["check"]).status, 0)
        return cli
    }

    private func checkLine(_ cli: CLIHarness, _ prefix: String) throws -> String {
        let result = try cli.run(["check"])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stderr.hasPrefix("logbook: error: check failed for"), result.stderr)
        return result.lines.first { $0.hasPrefix(prefix) } ?? ""
    }

    func testAMissingMigrationRecordIsNamedByCheckAndEveryCommand() throws {
        let cli = try loaded()
        try Connection(path: cli.database.path).execute("DELETE FROM schema_migrations WHERE version = 4")
        let migrations = try checkLine(cli, "migrations:")
        XCTAssertTrue(migrations.contains("lacks 0004_create_exercise_tallies"), migrations)
        for arguments in [["history", "add", "Squat"], ["history", "list"], ["migrate"], ["report", "history"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1, mentioning: "lacks 0004_create_exercise_tallies")
        }
    }

    /// A file of the first release, behind this logbook's migrations: `check` fails naming the
    /// migrations to apply (its "migrations:" line said "ok"), and a merge of it names the command
    /// that migrates it, not the one that would migrate this logbook (helper-64).
    func testAnOlderFileIsNamedAsBehindByCheckAndMerge() throws {
        let cli = try CLIHarness()
        let old = cli.folder.appendingPathComponent("old.sqlite").path
        try FileManager.default.copyItem(atPath: CLIHarness.fixture("logbook-0.1.sqlite3").path, toPath: old)
        XCTAssertEqual(chmod(old, 0o644), 0)
        let checked = try cli.run(["--db", old, "check"], useDatabase: false)
        XCTAssertEqual(checked.status, 1, checked.stdout)
        let migrations = checked.lines.first { $0.hasPrefix("migrations:") } ?? ""
        // The first release wrote schema version 5; this logbook's is the one --version names.
        let latest = try XCTUnwrap(Int(try XCTUnwrap(try cli.run(["--version"]).stdout.split(separator: " ").last).dropLast(2)))
        XCTAssertTrue(migrations.hasPrefix("migrations: \(latest - 5) migrations to apply (versions 6 to \(latest)); "
                                           + "'logbook migrate' applies them"), migrations)
        XCTAssertEqual(try cli.run(["-q", "init"]).status, 0)
        let before = cli.snapshot()
        XCTAssertFailure(try cli.run(["import", old]), status: 1, mentioning: "run 'logbook --db \(old) migrate' first")
        XCTAssertFalse(try cli.run(["import", old]).stderr.contains("run 'logbook migrate'"), "advice that migrates this logbook")
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// A file a newer Logbook wrote: `check` fails saying so, and does not judge its schema (its
    /// table, trigger and view were named as another program's).
    func testANewerFilesObjectsAreNotNamedAsAnotherProgramsObjects() throws {
        let cli = try loaded()
        let latest = Schema.migrationFiles.count
        try Connection(path: cli.database.path).execute("""
            INSERT INTO schema_migrations VALUES (\(latest + 1), 'future_feature', 'x', 0);
            CREATE TABLE exercise_notes (day TEXT REFERENCES exercise_days(day), note TEXT);
            CREATE TRIGGER exercise_notes_cleanup AFTER DELETE ON exercise_days BEGIN
                DELETE FROM exercise_notes WHERE day = old.day;
            END;
            CREATE VIEW recent_days AS SELECT * FROM exercise_days;
            """)
        let before = cli.snapshot()
        XCTAssertTrue(try checkLine(cli, "migrations:").contains("written by a newer version"))
        XCTAssertEqual(try checkLine(cli, "schema:"), "schema: not checked (a newer Logbook wrote the file: this one cannot tell "
                        + "that version's objects from another program's)")
        XCTAssertEqual(cli.snapshot(), before)
    }

    func testTablesIndexesAndTriggersDroppedOrChangedByAnotherProgram() throws {
        let cli = try loaded()
        // Each change through a connection closed at once: reading the file's bytes (snapshot) in a
        // process that holds a connection would drop that connection's POSIX locks.
        func otherProgram(_ sql: String) throws { try Connection(path: cli.database.path).execute(sql) }
        try otherProgram("""
            DROP TRIGGER exercises_deleted_tallies_stale;
            DROP INDEX drafts_by_version;
            CREATE INDEX drafts_by_version ON drafts (version);
            CREATE INDEX my_own_index ON drafts (created_at);
            """)
        let schema = try checkLine(cli, "schema:")
        XCTAssertTrue(schema.contains("trigger exercises_deleted_tallies_stale is missing"), schema)
        XCTAssertTrue(schema.contains("index drafts_by_version differs from what the migrations create"), schema)
        XCTAssertFalse(schema.contains("my_own_index"), "another program's extra index is no problem")
        let before = cli.snapshot()
        for arguments in [["history", "add", "Squat"], ["history", "list"], ["report", "exercises"], ["repair"], ["export", "drafts"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1, mentioning: "its schema is not the one Logbook's migrations made",
                             "index drafts_by_version differs", "trigger exercises_deleted_tallies_stale is missing", "logbook check")
        }
        XCTAssertEqual(cli.snapshot(), before, "nothing written")
        try otherProgram("DROP INDEX my_own_index")
        XCTAssertEqual(try checkLine(cli, "schema:"), schema)

        try otherProgram("DROP TABLE exercise_day_totals")
        XCTAssertTrue(try checkLine(cli, "schema:").contains("table exercise_day_totals is missing"))
        XCTAssertFailure(try cli.run(["report", "history", "--by", "day"]), status: 1,
                         mentioning: "its schema is not the one Logbook's migrations made", "exercise_day_totals", "logbook check")
    }

    /// Another program's objects that name what is gone (a trigger whose table's every insert then
    /// fails, a view, a foreign key to a table the file lacks or to columns that are no key) are
    /// each named by `check`, which reports them and exits 1: it stopped on the foreign key with
    /// "no such table" or "foreign key mismatch", and said "schema: ok" of the trigger that failed
    /// every history write (whose error sends the user to `check`). A working view with an
    /// `INSTEAD OF` trigger for inserts only is no problem.
    func testAnotherProgramsObjectsThatNameWhatIsGoneAreNamedByCheck() throws {
        let cases: [(sql: String, schema: String, foreignKeys: String?)] = [
            ("CREATE TRIGGER my_audit AFTER INSERT ON exercises BEGIN INSERT INTO gone VALUES (1); END",
             "another program's trigger my_audit on exercises: every insert into exercises fails: no such table: main.gone", nil),
            // A search mirror: Logbook's connections trust no schema, so it fails every history write
            // there, which `check` did not see with the trusted schema on (helper-93).
            ("CREATE VIRTUAL TABLE search USING fts5 (name); CREATE TRIGGER my_mirror AFTER INSERT ON exercises "
                + "BEGIN INSERT INTO search (name) VALUES (NEW.name); END",
             #"another program's trigger my_mirror on exercises: every insert into exercises fails: unsafe use of virtual table "search""#, nil),
            ("CREATE VIEW my_view AS SELECT * FROM gone",
             "another program's view my_view: every read of my_view fails: no such table: main.gone", nil),
            ("CREATE TABLE mine (x REFERENCES gone (y)); INSERT INTO mine VALUES (1)",
             "another program's foreign keys of table mine: every insert into mine fails: it refers to gone, which the file does not have",
             "mine: 1 row refers to gone, which the file does not have"),
            ("CREATE TABLE mine (x REFERENCES drafts (version)); INSERT INTO mine VALUES (1)",
             #"another program's foreign keys of table mine: every insert into mine fails: foreign key mismatch - "mine" referencing "drafts""#,
             #"mine: its foreign keys cannot be checked (foreign key mismatch - "mine" referencing "drafts")"#),
        ]
        for (sql, schema, foreignKeys) in cases {
            let cli = try loaded()
            try Connection(path: cli.database.path).execute("""
                PRAGMA foreign_keys = OFF;
                CREATE VIEW my_inserts AS SELECT version FROM drafts;
                CREATE TRIGGER my_inserts_insert INSTEAD OF INSERT ON my_inserts BEGIN SELECT 1; END;
                \(sql)
                """)
            // (followed, for the trigger on Logbook's table, by the note that names such triggers)
            let line = try checkLine(cli, "schema:")
            XCTAssertTrue(line.hasPrefix("schema: " + schema), line)
            XCTAssertEqual(try checkLine(cli, "foreign keys:"), "foreign keys: " + (foreignKeys ?? "ok"), sql)
            XCTAssertEqual(try checkLine(cli, "derived data:"), "derived data: ok", "\(sql): the records are still audited")
        }
        let cli = try loaded()
        try Connection(path: cli.database.path).execute(cases[0].sql)
        XCTAssertFailure(try cli.run(["history", "add", "Squat"]), status: 1, mentioning: "no such table: main.gone", "logbook check")
    }

    /// A trigger or an index another program made again under its name in capitals is that object,
    /// changed (SQLite takes the two names as one), not a missing one: `check` called it missing.
    func testAnObjectMadeAgainUnderItsNameInCapitalsIsNamedAsChanged() throws {
        let cli = try loaded()
        for name in ["exercises_deleted_tallies_stale", "drafts_by_version"] {
            let connection = try Connection(path: cli.database.path)
            let sql = try XCTUnwrap(try connection.scalar("SELECT sql FROM sqlite_master WHERE name = ?", [.text(name)], as: String.self))
            let type = sql.hasPrefix("CREATE TRIGGER") ? "trigger" : "index"
            try connection.execute("DROP \(type.uppercased()) \(name); " + sql.replacingOccurrences(of: name, with: name.uppercased()))
        }
        let schema = try checkLine(cli, "schema:")
        XCTAssertTrue(schema.contains("trigger exercises_deleted_tallies_stale differs from what the migrations create"), schema)
        XCTAssertTrue(schema.contains("index drafts_by_version differs from what the migrations create"), schema)
        XCTAssertFalse(schema.contains("missing"), schema)
    }

    func testAFileCutByOneByteIsNamedByCheckAndRefusedByEveryCommand() throws {
        let cli = try loaded()
        var bytes = try Data(contentsOf: cli.database)
        bytes.removeLast()
        try bytes.write(to: cli.database)
        let result = try cli.run(["check"])
        XCTAssertEqual(result.status, 1)
        for arguments in [["history", "list"], ["drafts", "list"], ["count", "drafts"], ["export", "drafts"], ["history", "add", "Squat"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1, mentioning: "not a whole number of 4096-byte pages")
        }
        XCTAssertEqual(try Data(contentsOf: cli.database), bytes, "nothing wrote to the damaged file")
    }

    func testTheLastMigrationRecordDeletedIsNamedAndMigrateRefusesWithWords() throws {
        let cli = try loaded()
        // 0011 creates the period totals (0012 drops the week tallies, 0013 redefines the period totals' check).
        try Connection(path: cli.database.path).execute("DELETE FROM schema_migrations WHERE version >= 11")
        let before = cli.snapshot()
        let migrations = try checkLine(cli, "migrations:")
        XCTAssertTrue(migrations.contains("migration 0011_create_period_totals is pending but its objects exist"), migrations)
        XCTAssertEqual(try cli.run(["check"]).lines.filter { $0.hasPrefix("derived data:") },
                       ["derived data: not checked (the schema is not yet this logbook's)"])
        for arguments in [["migrate"], ["history", "add", "Squat"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1,
                             mentioning: "migration 0011_create_period_totals is not in the history but its objects exist")
        }
        XCTAssertEqual(cli.snapshot(), before, "nothing written")
    }

    func testAnEmptyOrClaimedFileIsNotTakenOverAndCheckSaysWhy() throws {
        let cli = try CLIHarness()
        FileManager.default.createFile(atPath: cli.database.path, contents: Data())
        XCTAssertFailure(try cli.run(["history", "list"]), status: 1, mentioning: "is not a Logbook database", "'logbook init' makes it one")
        XCTAssertTrue(try checkLine(cli, "migrations:").contains("not a Logbook database yet"))
        XCTAssertFailure(try cli.run(["repair"]), status: 1, mentioning: "is an empty file, not a Logbook database")

        try FileManager.default.removeItem(at: cli.database)
        try Connection(path: cli.database.path).execute("PRAGMA user_version = 5")
        let before = cli.snapshot()
        for arguments in [["history", "add", "Squat"], ["init"], ["migrate"], ["history", "list"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1, mentioning: "its user_version is 5: another program has claimed it")
        }
        XCTAssertEqual(cli.snapshot(), before, "nothing written")
    }

    func testValuesLogbookCannotReadAreNamedByCheckAndRepairRefusesThem() throws {
        let cli = try loaded()
        try Connection(path: cli.database.path).execute("""
            UPDATE exercise_days SET day = '2026-02-30' WHERE pk = (SELECT min(pk) FROM exercise_days);
            UPDATE drafts SET submitted_at = 'soon' WHERE pk = (SELECT min(pk) FROM drafts)
            """)
        let before = cli.snapshot()
        let values = try checkLine(cli, "stored values:")
        XCTAssertTrue(values.contains("exercise_days.day: 1 row is not a calendar day YYYY-MM-DD (pk 1: '2026-02-30')"), values)
        XCTAssertTrue(values.contains("drafts.submitted_at: 1 row is not a date"), values)
        XCTAssertFailure(try cli.run(["history", "list"]), status: 1,
                         mentioning: "holds a value Logbook cannot read", "2026-02-30", "'logbook check'")
        XCTAssertFailure(try cli.run(["drafts", "list"]), status: 1, mentioning: "column submitted_at: expected REAL")
        for arguments in [["repair"], ["repair", "--dry-run"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1, mentioning: "cannot repair", "2026-02-30", "correct or delete those rows")
        }
        XCTAssertEqual(cli.snapshot(), before, "nothing written")

        // A day followed by a NUL is shown by its bytes: SQLite's quote() stops at the NUL, which
        // would show it as the day it is not.
        try Connection(path: cli.database.path).execute("""
            UPDATE exercise_days SET day = '0300-03-01' || char(0) WHERE pk = (SELECT min(pk) FROM exercise_days)
            """)
        XCTAssertTrue(try checkLine(cli, "stored values:").contains("(pk 1: X'303330302D30332D303100')"))
    }

    func testRepairWithNothingToDoWritesNothingAndAMissingFileIsNoDatabase() throws {
        let cli = try loaded()
        let before = cli.snapshot()
        let result = try cli.run(["repair"])
        XCTAssertEqual(result.stderr, "logbook: nothing to repair\n")
        XCTAssertEqual(cli.snapshot(), before, "nothing written")
        // Nor on a file another program switched to a rollback journal, whose header opening it
        // to write set back to WAL (helper-97).
        try Connection(path: cli.database.path).execute("PRAGMA journal_mode = DELETE")
        let switched = try Data(contentsOf: cli.database)
        XCTAssertEqual(try cli.run(["repair"]).stderr, "logbook: nothing to repair\n")
        XCTAssertEqual(try Data(contentsOf: cli.database), switched, "the header set back to WAL")

        let missing = cli.folder.appendingPathComponent("missing.sqlite").path
        for arguments in [["repair"], ["repair", "--dry-run"]] {
            XCTAssertFailure(try cli.run(["--db", missing] + arguments, useDatabase: false), status: 1, mentioning: "no database at \(missing)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }

    /// A trigger another program puts on Logbook's table runs inside Logbook's writes (here it
    /// upper-cases every new name): `check` stays healthy but names it on its schema line, and a
    /// trigger on the program's own table is not named. Table names compare as SQLite compares
    /// them: `ON "Exercise_Days"` is on Logbook's `exercise_days` (it was missed; helper-69).
    func testAnotherProgramsTriggerOnLogbooksTablesIsNamedByCheck() throws {
        let cli = try loaded()
        try Connection(path: cli.database.path).execute("""
            CREATE TABLE audit (name TEXT);
            CREATE TRIGGER audit_own AFTER INSERT ON audit BEGIN SELECT 1; END;
            CREATE TRIGGER shout AFTER INSERT ON exercises BEGIN
                UPDATE exercises SET name = upper(NEW.name) WHERE day_pk = NEW.day_pk AND position = NEW.position;
            END;
            CREATE TRIGGER Tally AFTER UPDATE ON "Exercise_Days" BEGIN SELECT 1; END;
            """)
        XCTAssertEqual(try cli.run(["history", "add", "Squat", "--at", "2030-01-02T10:00:00Z"]).status, 0)
        XCTAssertEqual(try cli.run(["history", "list", "--from", "2030-01-02", "--format", "ndjson"]).lines.count, 1)
        XCTAssertTrue(try cli.run(["history", "list", "--from", "2030-01-02", "--format", "ndjson"]).stdout.contains("\"SQUAT\""))
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.lines.contains("schema: ok; another program's triggers run inside Logbook's writes and can change what they "
                                           + "store: Tally on Exercise_Days, shout on exercises"), check.stdout)

        // A name another program chose breaks no line of the report and sends no escape sequence.
        try Connection(path: cli.database.path).execute("""
            CREATE TRIGGER "evil\u{0A}\u{1B}[2J" AFTER DELETE ON exercises BEGIN SELECT 1; END;
            """)
        let escaped = try cli.run(["check"])
        XCTAssertEqual(escaped.status, 0, escaped.stdout + escaped.stderr)
        XCTAssertEqual(escaped.lines.count, check.lines.count, escaped.stdout)
        XCTAssertFalse(escaped.stdout.contains("\u{1B}"), escaped.stdout)
        XCTAssertTrue(escaped.lines.contains("schema: ok; another program's triggers run inside Logbook's writes and can change what they "
                                             + #"store: Tally on Exercise_Days, evil\n\u{1B}[2J on exercises, shout on exercises"#), escaped.stdout)
    }
}
