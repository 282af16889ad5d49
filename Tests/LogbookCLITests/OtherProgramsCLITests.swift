import Foundation
import LogbookTestSupport
import XCTest

/// The cases of issue 16, written with the real `sqlite3` shell (`.ci/run` installs it): reports
/// stay exact, `check` names what is inconsistent, `repair` puts it right.
final class OtherProgramsCLITests: XCTestCase {
    private static let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `sql` with the shell; what it printed.
    @discardableResult
    private func sqlite3(_ cli: CLIHarness, _ sql: String) throws -> String {
        guard let shell = Self.shell else { throw XCTSkip("the sqlite3 shell is not installed (Debian package sqlite3)") }
        let result = try ExternalProgram.run(shell, ["-bail", cli.database.path, sql])
        XCTAssertEqual(result.status, 0, "sqlite3: \(result.errors)")
        return result.output
    }

    private func report(_ cli: CLIHarness, _ arguments: [String]) throws -> [String] {
        let result = try cli.run(["report"] + arguments + ["--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.lines
    }

    /// Another program's table, view, index and trigger whose name or text holds bytes that are
    /// not UTF-8 (SQLite keeps what it is given) leave the file usable: every command, `check`
    /// included, failed on them with a message that sent the user to `check` (helper-97). The
    /// names show as U+FFFD; a migration that would make such an object again refuses by its name,
    /// the file unchanged. Seeded: ill-formed sequences of every kind (a lone continuation byte,
    /// an overlong lead, a lead without its continuation, an encoded surrogate, bytes above U+10FFFF).
    func testAnotherProgramsObjectsWhoseNamesAreNotUTF8LeaveTheFileUsable() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_SCHEMA_BYTES_SEED", default: 0x5343_4842)
        var random = SplitMix64(seed: seed)
        let illFormed: [[UInt8]] = [[0x80], [0xBF], [0xC0, 0xAF], [0xC1], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                    [0xF5], [0xFE], [0xFF], [0xF0, 0x9F, 0x98]]
        func bytes() -> [UInt8] { Array("x".utf8) + illFormed[random.int(0...(illFormed.count - 1))] + Array("y".utf8) }
        for round in 0..<PropertyTestSettings.scaled(3, by: "LOGBOOK_PROPERTY_SCALE") {
            let (table, view, index, trigger) = (bytes(), bytes(), bytes(), bytes())
            var sql: [UInt8] = Array("CREATE TABLE \"t".utf8) + table + Array("\" (day INTEGER REFERENCES exercise_days (pk));\n".utf8)
            sql += Array("CREATE VIEW \"v".utf8) + view + Array("\" AS SELECT '".utf8) + bytes() + Array("' AS a;\n".utf8)
            sql += Array("CREATE INDEX \"i".utf8) + index + Array("\" ON exercise_days (day);\n".utf8)
            sql += Array("CREATE TRIGGER \"r".utf8) + trigger + Array("\" AFTER INSERT ON drafts BEGIN SELECT 1; END;\n".utf8)
            // A column so named, with a trigger on its table (helper-100).
            sql += Array("CREATE TABLE notes (\"c".utf8) + bytes() + Array("\" TEXT);\n".utf8)
            sql += Array("CREATE TRIGGER notes_audit AFTER UPDATE ON notes BEGIN SELECT 1; END;\n".utf8)
            let context = "seed \(seed), round \(round): \(String(decoding: sql, as: UTF8.self).debugDescription)"

            let cli = try CLIHarness()
            XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-01T10:00:00Z"]).status, 0)
            let objects = cli.folder.appendingPathComponent("objects.sql")
            try Data(sql).write(to: objects)
            try sqlite3(cli, ".read '\(objects.path)'")
            let check = try cli.run(["check"])
            XCTAssertEqual(check.status, 0, "\(context): \(check.stdout) \(check.stderr)")
            XCTAssertTrue(check.stdout.contains("trigger"), "\(context): the trigger on drafts is named: \(check.stdout)")
            for command in [["-q", "history", "add", "Row"], ["-q", "drafts", "add", "--version", "1.0"], ["history", "list"],
                            ["export", "history"], ["-q", "repair"], ["query", "SELECT count(*) FROM exercises"],
                            ["-q", "backup", cli.folder.appendingPathComponent("copy.sqlite").path], ["migrate", "--status"]] {
                let result = try cli.run(command)
                XCTAssertEqual(result.status, 0, "\(context): \(command): \(result.stderr)")
            }

            // A migration that makes the view and the trigger again cannot make them as they are.
            let old = try CLIHarness()
            try FileManager.default.copyItem(at: CLIHarness.fixture("logbook-0.1.sqlite3"), to: old.database)
            try sqlite3(old, ".read '\(objects.path)'")
            let before = try Data(contentsOf: old.database)
            XCTAssertFailure(try old.run(["migrate"]), status: 1, mentioning: "is not UTF-8, which the migration cannot make again as it is")
            XCTAssertEqual(try Data(contentsOf: old.database), before, "\(context): the refused migration changed the file")
            XCTAssertFalse(try old.run(["check"]).stderr.contains("cannot read"), context)
        }
    }

    /// Values another program wrote into the migration histories: an `applied_at` that is no
    /// number refuses the file by its row and says how to put it right (every command, `check`
    /// included, refused it with a message that sent the user to `check`); a name that is not
    /// UTF-8, an app's set named by a blob and a time past year 9999 are shown, not refused
    /// (helper-97). Seeded: texts and blobs of random bytes.
    func testMigrationHistoryValuesAnotherProgramWroteAreNamedOrShown() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_HISTORY_VALUES_SEED", default: 0x4849_5354)
        var random = SplitMix64(seed: seed)
        func hex(_ count: Int) -> String { (0..<count).map { _ in String(format: "%02X", random.int(0...255)) }.joined() }
        for round in 0..<PropertyTestSettings.scaled(3, by: "LOGBOOK_PROPERTY_SCALE") {
            let cli = try CLIHarness()
            XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-01T10:00:00Z"]).status, 0)
            let version = random.int(1...5)
            let value = random.chance(0.5) ? "'not a time \(round)'" : "X'\(hex(random.int(0...6)))'"
            try sqlite3(cli, "UPDATE schema_migrations SET applied_at = \(value) WHERE version = \(version)")
            let before = try Data(contentsOf: cli.database)
            for command in [["check"], ["history", "list"], ["-q", "history", "add", "Row"], ["migrate", "--status"]] {
                XCTAssertFailure(try cli.run(command), status: 1, mentioning: "row of version \(version) (schema_migrations) holds applied_at",
                                 "UPDATE schema_migrations SET applied_at = 0 WHERE version = \(version)")
            }
            XCTAssertEqual(try Data(contentsOf: cli.database), before, "seed \(seed), round \(round)")
            try sqlite3(cli, """
                UPDATE schema_migrations SET applied_at = 1e300, name = CAST(X'\(hex(2))FF' AS TEXT) WHERE version = \(version);
                UPDATE schema_migrations SET name = X'\(hex(3))' WHERE version = \(version % 5 + 1);
                CREATE TABLE app_migrations (
                    set_name TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    applied_at REAL NOT NULL,  -- seconds since 2001-01-01T00:00:00Z
                    PRIMARY KEY (set_name, version)
                ) WITHOUT ROWID;
                INSERT INTO app_migrations VALUES (X'00', 1, 'notes', 'c', 0);
                INSERT INTO app_migrations VALUES ('it''s', 1, 'notes', 'c', 'later');
                """)
            // An app's row is named by its set too, and the UPDATE given reaches it alone.
            XCTAssertFailure(try cli.run(["migrate", "--status"]), status: 1,
                             mentioning: "row of version 1 of the set 'it's' (app_migrations) holds applied_at 'later'",
                             "WHERE version = 1 AND set_name = 'it''s')")
            let check = try cli.run(["check"])
            XCTAssertEqual(check.status, 1)
            XCTAssertTrue(check.stdout.contains("migrations: the migration history's row of version 1 of the set 'it's'"), check.stdout)
            try sqlite3(cli, "UPDATE app_migrations SET applied_at = 0 WHERE version = 1 AND set_name = 'it''s'")
            XCTAssertEqual(try cli.run(["check"]).status, 0, "seed \(seed), round \(round)")
            XCTAssertEqual(try cli.run(["-q", "history", "add", "Row"]).status, 0)
            let status = try cli.run(["migrate", "--status"])
            XCTAssertEqual(status.status, 0, status.stderr)
            XCTAssertTrue(status.stdout.contains("applied 1e+300 seconds since 2001"), status.stdout)
            XCTAssertTrue(status.stdout.contains("X'00'/0001_notes\tapplied"), status.stdout)
        }
    }

    /// The shell holding the write lock (`BEGIN IMMEDIATE`, left open): a write waits out the busy
    /// timeout, then fails in one line that says another connection held the lock, changing
    /// nothing; once the shell is gone it goes through. (It said only "database is locked".)
    func testAWriteWhileTheShellHoldsTheLockSaysWhoHeldItAndChangesNothing() throws {
        guard let shell = Self.shell else { throw XCTSkip("the sqlite3 shell is not installed (Debian package sqlite3)") }
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["history", "add", "Squat", "--at", "2026-01-12T10:00:00Z"]).status, 0)
        let before = cli.snapshot()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: shell)
        holder.arguments = [cli.database.path]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        // The shell's `1` says it holds the lock (a fixed sleep could end before it took it).
        input.fileHandleForWriting.write(Data(".bail on\n.timeout 10000\nBEGIN IMMEDIATE;\nSELECT 1;\n".utf8))
        XCTAssertEqual(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self), "1\n")
        let blocked = try cli.run(["history", "add", "Row", "--at", "2026-01-13T10:00:00Z"])
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        XCTAssertEqual(blocked.status, 1, blocked.stderr)
        XCTAssertEqual(blocked.stderr.split(separator: "\n").count, 1, blocked.stderr)
        XCTAssertTrue(blocked.stderr.contains("another connection") && blocked.stderr.contains("locked"), blocked.stderr)
        XCTAssertEqual(cli.snapshot(), before)
        XCTAssertEqual(try cli.run(["history", "add", "Row", "--at", "2026-01-13T10:00:00Z"]).status, 0)
    }

    /// Another program's deferred foreign key, broken by its trigger on Logbook's drafts, refuses
    /// the commit of `drafts add`: exit 1, no draft, and no id on stdout (the id of no draft was
    /// printed before the commit failed: helper-95).
    func testDraftsAddPrintsNoIdWhenAnotherProgramsDeferredForeignKeyRefusesTheCommit() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "init"]).status, 0)
        try sqlite3(cli, """
            CREATE TABLE audit (draft_pk INTEGER REFERENCES drafts(pk) DEFERRABLE INITIALLY DEFERRED);
            CREATE TRIGGER audit_drafts AFTER INSERT ON drafts BEGIN INSERT INTO audit VALUES (NEW.pk + 1000); END;
            """)
        let before = cli.snapshot()
        let added = try cli.run(["drafts", "add", "--version", "1.0"])
        XCTAssertEqual(added.status, 1, added.stderr)
        XCTAssertEqual(added.stdout, "", "the id of a draft that was not committed")
        XCTAssertTrue(added.stderr.contains("FOREIGN KEY constraint failed"), added.stderr)
        XCTAssertEqual(cli.snapshot(), before)
    }

    func testWritesWithTheShellKeepReportsExactAndRepairPutsTheRestRight() throws {
        let cli = try CLIHarness()
        for day in 12...14 {
            XCTAssertEqual(try cli.run(["history", "add", "Squat", "Burpee", "--at", "2026-01-\(day)T10:00:00Z"]).status, 0)
        }
        // A day with three exercises, foreign keys on and name_key set as the README says.
        try sqlite3(cli, """
            PRAGMA foreign_keys = ON;
            INSERT INTO exercise_days (id, day, date) VALUES ('6F1B2C43-0000-4000-8000-000000000001', '2026-01-15', 790164000);
            INSERT INTO exercises (day_pk, position, name, name_key) VALUES
                (last_insert_rowid(), 1, 'Row', 'Row'), (last_insert_rowid(), 2, 'Row', 'Row'), (last_insert_rowid(), 3, 'Squat', 'Squat');
            """)
        XCTAssertEqual(try report(cli, ["history", "--by", "day", "--from", "2026-01-15", "--to", "2026-01-15"]),
                       ["period,activeDays,exercises,distinctExercises,topExercise\r", "2026-01-15,1,3,2,Row\r"])
        XCTAssertEqual(try report(cli, ["history", "--by", "week", "--from", "2026-01-12", "--to", "2026-01-18"]).last,
                       "2026-W03,4,9,3,Squat\r")
        XCTAssertEqual(try report(cli, ["history", "--by", "week", "--from", "2026-01-13", "--to", "2026-01-18"]).last,
                       "2026-W03,3,7,3,Squat\r", "a Tuesday–Sunday range of the same week")
        XCTAssertTrue(try report(cli, ["exercises"]).contains("Row,2,1,2026-01-15,2026-01-15\r"))
        XCTAssertEqual(try cli.run(["check"]).status, 1, "the tallies are behind the rows")
        XCTAssertTrue(try cli.run(["report", "exercises"]).stderr.contains("'logbook repair' recounts the tallies"),
                      "the slower report says why and what makes it fast again")

        // A day deleted with foreign keys off (the shell's default): its exercises go with it (the
        // delete trigger), as with them on. Exercise rows written for a day that is not there stay.
        try sqlite3(cli, "DELETE FROM exercise_days WHERE day = '2026-01-12';")
        XCTAssertEqual(try report(cli, ["history", "--by", "day", "--from", "2026-01-12", "--to", "2026-01-12"]).last,
                       "2026-01-12,0,0,0,\r")
        XCTAssertEqual(try sqlite3(cli, "SELECT count(*) FROM exercises WHERE day_pk NOT IN (SELECT pk FROM exercise_days);"), "0\n")
        try sqlite3(cli, "INSERT INTO exercises (day_pk, position, name, name_key) VALUES (9999, 1, 'Row', 'Row'), (9999, 2, 'Row', 'Row');")
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.contains("exercises: 2 rows whose exercise_days row is gone (run 'logbook repair')"), check.stdout)
        XCTAssertTrue(check.stdout.contains("foreign keys: exercises: 2 rows refer to exercise_days pk 9999, which is gone"), check.stdout)

        // A rename without name_key: an ASCII name gets its key from a trigger, so lookups find it.
        try sqlite3(cli, "UPDATE exercises SET name = 'Burpees' WHERE name = 'Burpee';")
        XCTAssertEqual(try cli.run(["count", "history", "--where", "exercises contains \"Burpees\""]).stdout, "2\n")
        XCTAssertEqual(try cli.run(["history", "list", "--exercise", "Burpees", "--format", "ndjson"]).lines.count, 2)
        XCTAssertTrue(try report(cli, ["exercises"]).contains { $0.hasPrefix("Burpees,2,2,") })

        let repaired = try cli.run(["repair"])
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertTrue(repaired.stderr.contains("removed 2 exercises rows whose exercise_days row was gone"), repaired.stderr)
        XCTAssertEqual(try cli.run(["check"]).status, 0)
        XCTAssertEqual(try cli.run(["repair"]).stderr, "logbook: nothing to repair\n")
        XCTAssertEqual(try report(cli, ["history", "--by", "week", "--from", "2026-01-12", "--to", "2026-01-18"]).last,
                       "2026-W03,3,7,3,Squat\r")
    }

    /// SQLite runs no delete trigger for a row that REPLACE removes unless `recursive_triggers` is
    /// on: with it on, reports stay exact; without, the README says so and `check` and `repair`
    /// catch the stale tallies.
    func testReplaceIsExactWithRecursiveTriggersAndCaughtByCheckWithout() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["history", "add", "Squat", "Burpee", "--at", "2026-01-12T10:00:00Z"]).status, 0)
        try sqlite3(cli, """
            PRAGMA foreign_keys = ON; PRAGMA recursive_triggers = ON;
            INSERT OR REPLACE INTO exercises (day_pk, position, name, name_key) VALUES (1, 1, 'Row', 'Row');
            """)
        XCTAssertEqual(try report(cli, ["exercises"]).dropFirst(), ["Burpee,1,1,2026-01-12,2026-01-12\r", "Row,1,1,2026-01-12,2026-01-12\r"])
        // The day is marked: Logbook's next write recounts it, so `check` names it without failing.
        let marked = try cli.run(["check"])
        XCTAssertEqual(marked.status, 0, marked.stdout)
        XCTAssertTrue(marked.stdout.contains("derived data: ok (Logbook's next history write recounts 1 day another program changed; "), marked.stdout)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Plank", "--at", "2026-02-20T10:00:00Z"]).status, 0)
        XCTAssertTrue(try cli.run(["check"]).stdout.contains("derived data: ok\n"))

        try sqlite3(cli, "PRAGMA foreign_keys = ON; REPLACE INTO exercises (day_pk, position, name, name_key) VALUES (1, 2, 'Swim', 'Swim');")
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.contains(" from a recount of the exercises (run 'logbook repair')"), check.stdout)
        XCTAssertFalse(check.stdout.contains(" 1 rows "), check.stdout)
        XCTAssertEqual(try cli.run(["repair"]).status, 0)
        XCTAssertEqual(try report(cli, ["exercises", "--to", "2026-01-31"]).dropFirst(),
                       ["Row,1,1,2026-01-12,2026-01-12\r", "Swim,1,1,2026-01-12,2026-01-12\r"])
        XCTAssertEqual(try cli.run(["check"]).status, 0)
    }

    /// The same history copied by the shell into a file it made UTF-16 (`.dump` replayed after
    /// `PRAGMA encoding`): every command but those that inspect it (`check`, `migrate --status`)
    /// refuses it with one line naming the encoding and the way to copy it into UTF-8, dry runs
    /// included, leaving it byte for byte as it was; `check` names it; and the copy that line
    /// describes reads as the original does.
    func testAUTF16CopyIsRefusedWithTheWayToCopyItIntoUTF8() throws {
        guard let shell = Self.shell else { throw XCTSkip("the sqlite3 shell is not installed (Debian package sqlite3)") }
        let cli = try CLIHarness()
        for (day, names) in [(12, ["Squat", "Caf\u{E9}"]), (13, ["Cafe\u{301}", "Row", "Row"]), (14, ["\u{1F3CB}\u{FE0F}"])] {
            XCTAssertEqual(try cli.run(["history", "add"] + names + ["--at", "2026-01-\(day)T10:00:00Z"]).status, 0)
        }
        let reads = [["history", "list"], ["export", "history", "--format", "ndjson"], ["report", "history", "--by", "day"],
                     ["report", "exercises"]]
        let dump = try ExternalProgram.run(shell, [cli.database.path, ".dump"])
        XCTAssertEqual(dump.status, 0, dump.errors)
        for encoding in ["UTF-16le", "UTF-16be"] {
            let copy = cli.folder.appendingPathComponent("\(encoding).sqlite")
            let script = cli.folder.appendingPathComponent("\(encoding).sql")
            try Data(("PRAGMA encoding = '\(encoding)';\n" + dump.output).utf8).write(to: script)
            let replay = try ExternalProgram.run(shell, ["-bail", copy.path, ".read \(script.path)"])
            XCTAssertEqual(replay.status, 0, replay.errors)
            XCTAssertEqual(try ExternalProgram.run(shell, [copy.path, "PRAGMA encoding"]).output, "\(encoding)\n")

            let problem = "it stores text as \(encoding), which SQLite neither keeps byte for byte (it writes U+FFFE and U+FFFF as "
                + "U+FFFD) nor orders by UTF-8 bytes; 'sqlite3 FILE .dump | sqlite3 NEW' copies it into a UTF-8 file"
            let before = try Data(contentsOf: copy)
            let dayFile = cli.folder.appendingPathComponent("day.ndjson")
            try Data(#"{"day":"2026-01-20","date":"2026-01-20T10:00:00Z","exercises":["b\#u{FFFF}"]}"#.utf8 + [0x0A]).write(to: dayFile)
            for arguments in reads + [["history", "add", "a\u{FFFF}"], ["init"], ["repair"], ["repair", "--dry-run"],
                                      ["drafts", "add", "--version", "1.0"], ["import", dayFile.path, "--kind", "history", "--dry-run"],
                                      ["import", dayFile.path, "--kind", "history"]] {
                let refused = try cli.run(["--db", copy.path] + arguments, useDatabase: false)
                XCTAssertEqual(refused.status, 1, "\(encoding) \(arguments)")
                XCTAssertEqual(refused.stderr, "logbook: error: cannot open \(copy.path): \(problem)\n", "\(encoding) \(arguments)")
                XCTAssertEqual(try Data(contentsOf: copy), before, "\(encoding) \(arguments)")
            }
            // Inspecting it is allowed, and changes nothing either.
            XCTAssertEqual(try cli.run(["--db", copy.path, "migrate", "--status"], useDatabase: false).status, 0)
            XCTAssertEqual(try Data(contentsOf: copy), before, encoding)
            let check = try cli.run(["--db", copy.path, "check"], useDatabase: false)
            XCTAssertEqual(check.status, 1)
            XCTAssertTrue(check.lines.contains("file: \(problem)"), check.stdout)
            // Its records are not audited (the audits measure text in UTF-8 bytes: every day was
            // "not a calendar day", and the derived data differed; helper-2).
            XCTAssertTrue(check.lines.contains("stored values: not checked (see 'file:' above)"), check.stdout)
            XCTAssertTrue(check.lines.contains("derived data: not checked (see 'file:' above)"), check.stdout)

            let converted = cli.folder.appendingPathComponent("\(encoding)-converted.sqlite")
            let copied = try ExternalProgram.run("/bin/sh", ["-c", "'\(shell)' '\(copy.path)' .dump | '\(shell)' '\(converted.path)'"])
            XCTAssertEqual(copied.status, 0, copied.errors)
            for arguments in reads {
                let original = try cli.run(arguments)
                XCTAssertEqual(original.status, 0, original.stderr)
                let read = try cli.run(["--db", converted.path] + arguments, useDatabase: false)
                XCTAssertEqual(read.status, 0, "\(encoding) \(arguments): \(read.stderr)")
                XCTAssertEqual(read.output, original.output, "\(encoding) \(arguments)")
            }
            XCTAssertEqual(try cli.run(["--db", converted.path, "check"], useDatabase: false).status, 0)
        }
    }

    /// A day record another program emptied of exercises (a plain DELETE, foreign keys on) is no
    /// active day for any report, the streaks included, and `check` names it: Logbook saves and
    /// imports no such record, so the file's own export would not import.
    func testADayRecordEmptiedByAnotherProgramIsNoActiveDayAndCheckNamesIt() throws {
        let cli = try CLIHarness()
        for (index, name) in ["Squat", "Bupree", "Squat"].enumerated() {
            XCTAssertEqual(try cli.run(["-q", "history", "add", name, "--at", "2026-01-0\(index + 1)T10:00:00Z"]).status, 0)
        }
        _ = try sqlite3(cli, "PRAGMA foreign_keys = ON; DELETE FROM exercises WHERE name = 'Bupree'")
        let streaks = try cli.run(["report", "streaks", "--as-of", "2026-01-03", "--format", "json"])
        XCTAssertEqual(streaks.status, 0, streaks.stderr)
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: streaks.output) as? [[String: Any]])?.first, streaks.stdout)
        XCTAssertEqual(report["longestStreak"] as? Int, 1, streaks.stdout)
        XCTAssertEqual(report["currentStreak"] as? Int, 1, streaks.stdout)
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 1, check.stdout)
        XCTAssertTrue(check.stdout.contains("exercise_days: 1 row is not a record with an exercise"), check.stdout)
        // Export refuses it in every format rather than write a file no import takes (it wrote the
        // record with no exercise, exit 0; helper-33); the days around it export.
        for format in ["json", "ndjson", "csv", "plist", "postgres"] {
            XCTAssertFailure(try cli.run(["export", "history", "--format", format]), status: 1,
                             mentioning: "holds a value Logbook cannot read (the record of 2026-01-02", "holds no exercise")
        }
        let others = try cli.run(["export", "history", "--format", "ndjson", "--where", "day != 2026-01-02"])
        XCTAssertEqual(others.status, 0, others.stderr)
        XCTAssertEqual(others.stdout.split(separator: "\n").count, 2)
    }

    /// A value another program stored that the library would not save (an empty exercise name, a
    /// name or a draft's text over 64 MiB) is refused by export in every format, naming the record
    /// and field, as a record with no exercise is: no import would take the file back (each was
    /// exported, exit 0; helper-2). `check` names each.
    func testRecordsTheLibraryWouldNotSaveAreRefusedByExport() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "Row", "--at", "2026-01-01T10:00:00Z"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-02T10:00:00Z"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "1.0"]).status, 0)
        let over = (64 << 20) + 1
        let cases: [(sql: String, kind: String, mentioning: [String])] = [
            ("UPDATE exercises SET name = '', name_key = '' WHERE name = 'Row'", "history",
             ["the record of 2026-01-01", "exercises[1]: an exercise name cannot be empty"]),
            ("UPDATE exercises SET name = printf('%.*c', \(over), 'a') WHERE name = 'Row'", "history",
             ["the record of 2026-01-01", "exercises[1]: \(over) bytes"]),
            ("UPDATE drafts SET whats_new = printf('%.*c', \(over), 'a')", "drafts", ["whatsNew: \(over) bytes"]),
        ]
        for (sql, kind, mentioning) in cases {
            let snapshot = try sqlite3(cli, "SELECT quote(name) FROM exercises ORDER BY day_pk, position; SELECT quote(whats_new) FROM drafts")
            _ = try sqlite3(cli, sql)
            for format in ["json", "ndjson", "csv", "plist", "postgres"] {
                XCTAssertFailure(try cli.run(["export", kind, "--format", format]), status: 1,
                                 mentioning: ["holds a value Logbook cannot read"] + mentioning)
            }
            // (check names a long text too, CheckCLITests; it holds many copies of it meanwhile.)
            if !sql.contains("printf") { XCTAssertEqual(try cli.run(["check"]).status, 1, sql) }
            if kind == "history" {
                let others = try cli.run(["export", "history", "--format", "ndjson", "--where", "day != 2026-01-01"])
                XCTAssertEqual(others.stdout.split(separator: "\n").count, 1, others.stderr)
            }
            _ = try sqlite3(cli, "UPDATE exercises SET name = 'Row', name_key = 'Row' WHERE day_pk = 1 AND position = 2; UPDATE drafts SET whats_new = ''")
            XCTAssertEqual(try sqlite3(cli, "SELECT quote(name) FROM exercises ORDER BY day_pk, position; SELECT quote(whats_new) FROM drafts"), snapshot)
        }
    }

    /// A day row another program stored at the largest row key makes SQLite draw later rows' keys
    /// at random, which the change feed and the tallies (both find new days above a mark) cannot
    /// follow: a day `history add` filed then never reached the feed, and check failed after it
    /// (helper-2). Adding a day is refused instead, changing nothing, and `check` names the row;
    /// moved to a smaller key, writes work and the feed delivers them.
    func testADayRowAtTheLargestKeyIsNamedAndNoDayIsAddedAfterIt() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-01T10:00:00Z"]).status, 0)
        let state = cli.folder.appendingPathComponent("feed.state").path
        XCTAssertEqual(try cli.run(["-q", "changes", "--state", state]).status, 0)
        _ = try sqlite3(cli, """
            INSERT INTO exercise_days (pk, id, day, date) VALUES (9223372036854775807, '00000000-0000-0000-0000-0000000000AA', '2026-01-03', 0);
            INSERT INTO exercises VALUES (9223372036854775807, 1, 'Run', 'Run');
            """)
        // Drafts keep no day keys: they are written as ever.
        XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "1.0"]).status, 0)
        let before = cli.snapshot()
        XCTAssertFailure(try cli.run(["history", "add", "Lunge", "--at", "2025-06-06T10:00:00Z"]), status: 1,
                         mentioning: "a day row's key is 9223372036854775807", "logbook check")
        XCTAssertEqual(cli.snapshot(), before, "nothing written")
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdout.contains("exercise_days.pk: 1 row is not below 9223372036854775807"), check.stdout)

        _ = try sqlite3(cli, """
            PRAGMA foreign_keys = ON;
            BEGIN;
            UPDATE exercise_days SET pk = 100 WHERE pk = 9223372036854775807;
            UPDATE exercises SET day_pk = 100 WHERE day_pk = 9223372036854775807;
            COMMIT;
            """)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Lunge", "--at", "2025-06-06T10:00:00Z"]).status, 0)
        let feed = try cli.run(["changes", "--state", state, "--format", "ndjson"])
        XCTAssertEqual(feed.status, 0, feed.stderr)
        for day in ["2025-06-06", "2026-01-03"] { XCTAssertTrue(feed.stdout.contains("\"\(day)\""), "\(day) not in \(feed.stdout)") }
        let healthy = try cli.run(["check"])
        XCTAssertEqual(healthy.status, 0, healthy.stdout)
    }

    /// The days `check` leaves to Logbook's next history write hide nothing that write leaves
    /// (helper-35): a recount mark whose text is no calendar day (another program deleted a day
    /// row `2026-02-30`) is dropped by the next write, which failed on it, as `repair` did, while
    /// `check` said "ok"; it hides no period; and a tally row whose key is a blob, which no
    /// recount deletes, is compared though its period is marked.
    func testMarksCheckLeavesToTheNextWriteHideNothing() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "history", "add", "A", "B", "--at", "2026-01-05T10:00:00Z"]).status, 0)
        _ = try sqlite3(cli, """
            INSERT INTO exercise_days (id, day, date) VALUES ('00000000-0000-0000-0000-000000000001', '2026-02-30', 0);
            INSERT INTO exercises VALUES (last_insert_rowid(), 1, 'Run', 'Run');
            DELETE FROM exercise_days WHERE day = '2026-02-30';
            """)
        XCTAssertEqual(try cli.run(["check"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Walk", "--at", "2026-03-05T10:00:00Z"]).status, 0)
        XCTAssertEqual(try sqlite3(cli, "SELECT count(*) FROM exercise_tallies_stale"), "0\n")
        _ = try sqlite3(cli, "INSERT INTO exercise_tallies_stale VALUES ('2026-02-30'); UPDATE exercise_years SET exercises = 99 WHERE year = '2026';")
        let hidden = try cli.run(["check"])
        XCTAssertEqual(hidden.status, 1, hidden.stdout)
        XCTAssertTrue(hidden.stdout.contains("exercise_years: 3 rows differ from a recount"), hidden.stdout)
        let repaired = try cli.run(["repair"])
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertEqual(try cli.run(["check"]).status, 0)

        _ = try sqlite3(cli, """
            UPDATE exercises SET name = 'Running', name_key = 'Running' WHERE name = 'A';
            INSERT INTO exercise_years VALUES (CAST('2026' AS BLOB), 'zzz', 'Zzz', 5, 1, '2026-01-05', '2026-01-05');
            """)
        let blob = try cli.run(["check"])
        XCTAssertEqual(blob.status, 1, blob.stdout)
        XCTAssertTrue(blob.stdout.contains("exercise_years: 1 row differs from a recount"), blob.stdout)
        XCTAssertEqual(try cli.run(["repair"]).status, 0)
        XCTAssertEqual(try cli.run(["check"]).status, 0, "one repair")
    }

    /// A merged id another program rewrote in lowercase never matches the uppercase id an import
    /// looks up, so importing its record again adds its exercises a second time: `check` names it
    /// and `repair` refuses until it is corrected.
    func testALowercaseMergedIdIsNamedByCheck() throws {
        let cli = try CLIHarness()
        for (day, at) in [("2026-01-12", "2026-01-12T10:00:00Z"), ("2026-01-13", "2026-01-13T10:00:00Z")] {
            XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", at]).status, 0, day)
        }
        XCTAssertEqual(try cli.run(["-q", "history", "move", "--day", "2026-01-13", "--to", "2026-01-12"]).status, 0)
        _ = try sqlite3(cli, "UPDATE exercise_day_aliases SET id = lower(id)")
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 1, check.stdout)
        XCTAssertTrue(check.stdout.contains("stored values: exercise_day_aliases.id: 1 row is not an uppercase UUID"), check.stdout)
        XCTAssertFailure(try cli.run(["repair"]), status: 1, mentioning: "cannot repair")
    }

    /// Values another program stored that Logbook cannot read exactly (seeded: text whose bytes are
    /// not UTF-8 in each text column, dates outside years 0001 to 9999 in each date column, ids in
    /// lowercase): every
    /// command that would show the record refuses with one line naming the file and the column,
    /// never U+FFFD or a made-up date in its place; `check` names the row, `repair` refuses, a
    /// merge of that file refuses naming it (not the logbook merged into), and nothing is written.
    func testValuesLogbookCannotReadAreRefusedNotRewritten() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_UNREADABLE_SEED", default: 0x5554_4638)
        var random = SplitMix64(seed: seed)
        let invalid: [String] = ["FF", "80", "C3", "E298", "F09F98", "C0AF", "E080AF", "EDA080", "F4908080", "E9"]
        let dates = [1e300, -1e300, 1e20, -1e20, 252_423_993_600.0, -63_113_904_000.0.nextDown]
        let cases: [(table: String, column: String, kind: String)] = [
            ("exercises", "name", "history"), ("exercise_days", "date", "history"), ("drafts", "version", "drafts"),
            ("drafts", "whats_new", "drafts"), ("drafts", "submitted_at", "drafts"), ("drafts", "created_at", "drafts"),
            ("checklist_items", "title", "drafts"),
            // Ids in lowercase (Python's `str(uuid4())`): read as uppercase, they were listed under an
            // id no command could find, and a round trip of the export doubled the day's exercises.
            ("exercise_days", "id", "history"), ("drafts", "id", "drafts"), ("checklist_items", "id", "drafts"),
        ]
        for (table, column, kind) in cases {
            let cli = try CLIHarness()
            XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "Row", "--at", "2026-01-12T10:00:00Z"]).status, 0)
            let added = try cli.run(["-q", "drafts", "add", "--version", "2.0", "--item", "Screenshots"])
            XCTAssertEqual(added.status, 0, added.stderr)
            XCTAssertEqual(try cli.run(["-q", "drafts", "submit", "2.0"]).status, 0)
            let value = column == "id" ? "lower(id)" : column.hasSuffix("_at") || column == "date"
                ? "\(random.pick(dates))"
                : "CAST(X'\(Array(AdversarialText.string(using: &random, nonEmpty: true).utf8).map { String(format: "%02X", $0) }.joined())"
                    + "\(random.pick(invalid))' AS TEXT)"
            // One row: the records' values are all different.
            try sqlite3(cli, "UPDATE \(table) SET \(column) = \(value) WHERE \(column) = (SELECT min(\(column)) FROM \(table))")
            let context = "seed \(seed): \(table).\(column) = \(value)"
            let before = cli.snapshot()
            let shows = kind == "history"
                ? [["history", "list"], ["export", "history", "--format", "ndjson"], ["export", "history", "--format", "json"],
                   ["export", "history", "--format", "csv"], ["export", "history", "--format", "plist"]]
                : [["drafts", "list"], ["drafts", "show", "2.0"], ["export", "drafts", "--format", "ndjson"],
                   ["export", "drafts", "--format", "csv"], ["export", "drafts", "--format", "plist"]]
            for command in shows + (column == "submitted_at" ? [["report", "drafts"]] : []) {
                let result = try cli.run(command)
                XCTAssertEqual(result.status, 1, "\(context): \(command.joined(separator: " ")) printed \(result.stdout.prefix(300))")
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(context): \(result.stderr)")
                XCTAssertTrue(result.stderr.hasPrefix("logbook: error: \(cli.database.path) holds a value Logbook cannot read (column \(column)"),
                              "\(context): \(command.joined(separator: " ")): \(result.stderr)")
            }
            let check = try cli.run(["check"])
            XCTAssertEqual(check.status, 1, context)
            XCTAssertTrue(check.stdout.contains("stored values: \(table).\(column): 1 row is not "), "\(context): \(check.stdout)")
            XCTAssertFailure(try cli.run(["repair"]), status: 1, mentioning: "cannot repair")
            XCTAssertEqual(cli.snapshot(), before, "\(context): the file changed")

            let other = try CLIHarness()
            XCTAssertEqual(try other.run(["init"]).status, 0)
            let otherBefore = other.snapshot()
            let merge = try other.run(["import", cli.database.path])
            XCTAssertEqual(merge.status, 1, context)
            XCTAssertTrue(merge.stderr.hasPrefix("logbook: error: \(cli.database.path): it holds values Logbook cannot read (\(table).\(column)"),
                          "\(context): \(merge.stderr)")
            XCTAssertEqual(other.snapshot(), otherBefore, "\(context): the merge wrote")
        }
    }

    /// A file SQLite's integrity check finds damaged (here two indexes that another program gave
    /// each other's pages) is refused by `repair` and its dry run, naming the check's finding and
    /// writing nothing, and `check` fails: `repair` said "nothing to repair" and exited 0, though
    /// `check` failed after it (helper-49, with bits flipped in an index page).
    func testRepairRefusesAFileSQLiteFindsDamaged() throws {
        let cli = try CLIHarness()
        for version in ["1.0", "2.0"] { XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", version]).status, 0) }
        XCTAssertEqual(try cli.run(["-q", "drafts", "submit", "1.0", "--at", "2026-01-05T10:00:00Z"]).status, 0)
        try sqlite3(cli, """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET rootpage = (SELECT sum(rootpage) FROM sqlite_schema WHERE name IN ('drafts_by_version', 'drafts_by_submitted_at')) - rootpage
            WHERE name IN ('drafts_by_version', 'drafts_by_submitted_at');
            """)
        let before = cli.snapshot()
        for arguments in [["repair"], ["repair", "--dry-run"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1,
                             mentioning: "is damaged (SQLite's integrity check fails: row ", "missing from index drafts_by_")
            XCTAssertEqual(cli.snapshot(), before, "\(arguments) wrote")
        }
        XCTAssertEqual(try cli.run(["check"]).status, 1)
    }

    /// A file closed with committed pages still in its write-ahead log (the shell's
    /// `no_ckpt_on_close`, as a program killed after its commit leaves it): every command that
    /// writes nothing, and every refusal, leaves the file and its log byte for byte as they were,
    /// for another program's database and for a logbook (helper-44: SQLite's last close folded the
    /// log into the file and deleted it, under every command); the first command that writes folds it.
    func testALogLeftFullIsLeftAsItWasByEveryCommandThatWritesNothing() throws {
        guard let shell = Self.shell else { throw XCTSkip("the sqlite3 shell is not installed (Debian package sqlite3)") }
        let cli = try CLIHarness()
        let log = URL(fileURLWithPath: cli.database.path + "-wal")
        func leaveFullLog(_ sql: String) throws {
            let result = try ExternalProgram.run(shell, ["-bail", cli.database.path, ".dbconfig no_ckpt_on_close on", sql])
            XCTAssertEqual(result.status, 0, "sqlite3: \(result.errors)")
            XCTAssertGreaterThan(try Data(contentsOf: log).count, 32, "the shell left no pages in the log")
        }
        func files() throws -> [Data] { [try Data(contentsOf: cli.database), try Data(contentsOf: log)] }
        let reading = [["history", "list"], ["count", "history"], ["report", "history"], ["report", "streaks"], ["export", "drafts"],
                       ["query", "SELECT count(*) FROM sqlite_schema"], ["drafts", "list"], ["check"], ["migrate", "--status"],
                       ["backup", cli.folder.appendingPathComponent("copy.sqlite").path]]

        // Another program's database: refused by every command, reading or writing.
        try leaveFullLog("PRAGMA journal_mode = WAL; CREATE TABLE notes (body); INSERT INTO notes VALUES (randomblob(5000));")
        let other = try files()
        for arguments in reading + [["init"], ["history", "add", "Squat"], ["import", "--dry-run", CLIHarness.fixture("history.json").path]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertEqual(try files(), other, "\(arguments) changed another program's file or its log")
        }

        // A logbook, a draft committed to its log by another program.
        for path in [cli.database.path, log.path, cli.database.path + "-shm"] { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-05T10:00:00Z"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: log.path), "the add left its log")
        try leaveFullLog("""
            INSERT INTO drafts (id, version, version_key, whats_new, created_at, updated_at)
            VALUES ('00000000-0000-4000-8000-0000000000F1', '9.9', '9.9', 'from the log', 0, 0);
            """)
        let logbook = try files()
        for arguments in reading + [["import", "--dry-run", CLIHarness.fixture("history.json").path]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(try files(), logbook, "\(arguments) changed the file or its log")
        }
        XCTAssertEqual(try cli.run(["drafts", "show", "9.9", "--format", "json"]).stdout.contains("from the log"), true)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Row", "--at", "2026-01-06T10:00:00Z"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: log.path), "the write left the log it found")
        XCTAssertEqual(try cli.run(["count", "drafts"]).stdout, "1\n")
    }
}
