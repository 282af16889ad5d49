import Foundation
@testable import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// A database written by Logbook 0.1 (`Tests/Fixtures/logbook-0.1.sqlite3`, a copy of
/// `shared/fixtures/logbook-0.1.sqlite`) opens, migrates, and keeps every record byte for byte:
/// ids, days, dates (the exact `Double`s), text and checklist order.
final class ReleaseFixtureMigrationTests: XCTestCase {
    /// Every stored value of the records, exactly: text as bytes, reals as bit patterns.
    private static let recordQueries = [
        "SELECT id, version, whats_new, submitted_at, created_at, updated_at FROM drafts ORDER BY id",
        "SELECT d.id, c.position, c.id, c.title, c.is_done FROM checklist_items AS c JOIN drafts AS d ON d.pk = c.draft_pk ORDER BY d.id, c.position",
        "SELECT id, day, date FROM exercise_days ORDER BY id",
        "SELECT d.id, e.position, e.name FROM exercises AS e JOIN exercise_days AS d ON d.pk = e.day_pk ORDER BY d.id, e.position",
        "SELECT a.id, d.id FROM exercise_day_aliases AS a JOIN exercise_days AS d ON d.pk = a.day_pk ORDER BY a.id",
    ]

    private func exactRows(_ connection: Connection) throws -> [String] {
        var rows: [String] = []
        for sql in Self.recordQueries {
            let statement = try connection.prepare(sql)
            while try statement.step() {
                rows.append((0..<statement.columnCount).map { index -> String in
                    switch try? statement.column(index, as: DatabaseValue.self) {
                    case .text(let text): "t:" + text.utf8.map { String($0, radix: 16) }.joined(separator: ".")
                    case .real(let value): "r:" + String(value.bitPattern, radix: 16)
                    case .integer(let value): "i:\(value)"
                    case .blob(let data): "b:\(data.count)"
                    case .null, nil: "null"
                    }
                }.joined(separator: " | "))
            }
        }
        return rows
    }

    func testEveryRecordSurvivesMigrationByteForByte() throws {
        let path = try Fixtures.copy("logbook-0.1.sqlite3", as: "logbook.sqlite")
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        let before = try exactRows(try Connection(path: path.path))
        XCTAssertGreaterThan(before.count, 150)

        let store = try Logbook(path: path.path, timeZone: TimeZone(identifier: "America/New_York")!)
        XCTAssertEqual(try store.schemaVersion(), Schema.migrationFiles.count)
        let connection = try Connection(path: path.path)
        XCTAssertEqual(try exactRows(connection), before, "records changed by migrating")

        // Keys and derived data are current: as the running Swift computes them, and as a recount says.
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM drafts WHERE version_key IS NOT swift_key(version)", as: Int.self), 0)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM exercises WHERE name_key IS NOT swift_key(name)", as: Int.self), 0)
        XCTAssertEqual(try store.history.fetchAll().reduce(0) { $0 + $1.exercises.count },
                       try connection.scalar("SELECT count(*) FROM exercises", as: Int.self))
        XCTAssertEqual(try store.check().derivedDataProblems, [])

        // Opening again changes nothing.
        let migrated = try Data(contentsOf: path)
        _ = try Logbook(path: path.path)
        XCTAssertEqual(try exactRows(connection), before)
        XCTAssertEqual(try Data(contentsOf: path).count, migrated.count)
    }

    /// Migration 0013 rebuilds `exercise_period_totals` with its period checked by comparisons
    /// instead of an IN list: every row comes through as it was (values of every storage class,
    /// as another program may have written them), and the new check accepts and refuses exactly
    /// the values the old one did.
    func testPeriodTotalsKeepTheirRowsAndTheirCheckThroughMigration0013() throws {
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let connection = try Self.connection(at: folder.url.appendingPathComponent("logbook.sqlite").path, migratedUpTo: "0013_")

        // Candidate periods: the three, near misses, other storage classes.
        let candidates = ["'week'", "'month'", "'year'", "'Week'", "'week '", "'day'", "''", "'week' || char(0)",
                          "x'7765656b'", "7", "7.5", "'month' COLLATE NOCASE", "CAST('year' AS BLOB)"]
        func accepted(in connection: Connection) -> [Bool] {
            candidates.enumerated().map { offset, period in
                (try? connection.execute("""
                    INSERT INTO exercise_period_totals VALUES (\(period), '1900-01-\(String(format: "%02d", offset + 1))', 1, 1, 1, 'x')
                    """)) != nil
            }
        }
        let acceptedBefore = accepted(in: connection)
        // ('month' COLLATE NOCASE is the text 'month': a collation is not part of the value.)
        XCTAssertEqual(acceptedBefore.filter { $0 }.count, 4, "only week, month and year")
        try connection.execute("""
            INSERT INTO exercise_period_totals VALUES ('week', '2026-01-05', 3, 9, 2, 'Squat'), ('month', '2026-01-01', 30, 95, 7, 'Cafe\u{301}'),
                ('year', '2026-01-01', 300, 4000, 20, x'00ff'), ('week', 20260112, 2.5, 1e300, 9, '')
            """)
        let rows = "SELECT quote(period), quote(start), quote(active_days), quote(exercises), quote(distinct_exercises), quote(top_exercise) FROM exercise_period_totals ORDER BY 1, 2"
        func quotedRows() throws -> [[String]] {
            let statement = try connection.prepare(rows)
            var found: [[String]] = []
            while try statement.step() { found.append(try (0..<6).map { try statement.column($0, as: String.self) }) }
            return found
        }
        let before = try quotedRows()
        XCTAssertEqual(before.count, 4 + 4)

        try Schema.migrator().migrate(connection)
        XCTAssertEqual(try quotedRows(), before, "period totals changed by migrating")
        try connection.execute("DELETE FROM exercise_period_totals")
        XCTAssertEqual(accepted(in: connection), acceptedBefore, "the new check accepts what the old one did")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM sqlite_temp_master", as: Int.self), 0, "no copy left behind")
    }

    /// Migration 0014 marks stale the days whose totals miss exercise rows, when the check before
    /// it would have failed: a file written before may hold a year that a recount gave rows another
    /// program had inserted on a day whose totals did not count them, which the check against the
    /// years' totals would otherwise take for current. Also when another program's delete marked a
    /// day stale and made the days' totals add up to the rows again.
    func testMigration0014MarksTheDaysAYearCountedBeyondTheirTotalsStale() throws {
        try assertMigration0014Marks(["2026-01-10"], afterAlso: nil)
        try assertMigration0014Marks(["2026-01-10", "2026-03-05"],
                                     afterAlso: "DELETE FROM exercises WHERE day_pk = (SELECT pk FROM exercise_days WHERE day = '2026-03-05')")
    }

    /// Builds a file at the schema before migration 0014 holding the state above (then runs
    /// `otherWrite` there, as another program), opens it with this version, and checks the days
    /// marked stale, the reports, and that the next write leaves everything derived agreeing.
    private func assertMigration0014Marks(_ expected: [String], afterAlso otherWrite: String?,
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let written = folder.url.appendingPathComponent("written.sqlite").path
        let path = folder.url.appendingPathComponent("logbook.sqlite").path
        let utc = TimeZone(identifier: "UTC")!
        func day(_ month: Int, _ day: Int) -> CalendarDay { CalendarDay(year: 2026, month: month, day: day)! }
        do {
            let store = try Logbook(path: written, timeZone: utc)
            try store.history.addDoneExercises(["Squat"], at: day(1, 10).start(in: utc) + 3_600)
            try store.history.addDoneExercises(["Run"], at: day(3, 5).start(in: utc) + 3_600)
            // Tallied at once, as every day was before migration 0016.
            try store.database.write { try ExerciseTallies.rebuild(in: $0) }
        }
        // Another program's row on January 10, then the year recounted as before this version: the
        // year's tallies and totals count it, the day's, week's and month's do not. Copied into a
        // file at the schema before migration 0014.
        let source = try Connection(path: written)
        try source.execute("""
            INSERT INTO exercises (day_pk, position, name, name_key) SELECT pk, 2, 'Row', 'Row' FROM exercise_days WHERE day = '2026-01-10';
            INSERT INTO exercise_years (year, name_key, name, exercises, days, first_day, last_day)
                VALUES ('2026', 'Row', 'Row', 1, 1, '2026-01-10', '2026-01-10');
            UPDATE exercise_period_totals SET exercises = 3, distinct_exercises = 3, top_exercise = 'Row'
                WHERE period = 'year' AND start = '2026-01-01';
            """)
        let plain = try Self.connection(at: path, migratedUpTo: "0014_")
        try plain.run("ATTACH DATABASE ? AS written", [.text(written)])
        for table in ["exercise_days", "exercises", "exercise_day_totals", "exercise_months", "exercise_years", "exercise_period_totals"] {
            try plain.execute("INSERT INTO main.\(table) SELECT * FROM written.\(table)")
        }
        // The keys' Unicode version too, or opening would recompute the keys and recount the marked days at once.
        try plain.execute("INSERT OR REPLACE INTO main.logbook_settings SELECT * FROM written.logbook_settings")
        try plain.execute("DETACH DATABASE written")
        if let otherWrite { try plain.execute(otherWrite) }

        let store = try Logbook(path: path, timeZone: utc)
        XCTAssertEqual(try store.schemaVersion(), Schema.migrationFiles.count, file: file, line: line)
        let stale = try plain.prepare("SELECT day FROM exercise_tallies_stale ORDER BY day")
        var marked: [String] = []
        while try stale.step() { marked.append(try stale.column(0)) }
        XCTAssertEqual(marked, expected, file: file, line: line)
        var rows: [HistoryReportRow] = []
        try store.reports.history(by: .day, from: day(1, 10), to: day(1, 10)) { rows.append($0) }
        XCTAssertEqual(rows.map(\.exercises), [2], "January 10 counted from its rows", file: file, line: line)
        rows = []
        try store.reports.history(by: .month, from: day(1, 1), to: day(1, 31)) { rows.append($0) }
        XCTAssertEqual(rows.map(\.exercises), [2], "January counted from its rows", file: file, line: line)

        // The next write recounts the marked days: everything derived agrees with the rows again.
        try store.history.addDoneExercises(["Run"], at: day(6, 1).start(in: utc) + 3_600)
        XCTAssertEqual(try store.check().derivedDataProblems, [], file: file, line: line)
    }

    /// Migration 0017 rebuilds the exercises table with its key to the day deferred: every row
    /// comes through as it was, whatever another program stored in it (values of every storage
    /// class, names of adversarial text, gaps in the positions, rows whose day is gone), every other
    /// schema object keeps its text, rows left without their parent elsewhere do not stop it, and
    /// afterwards the key is checked when the transaction commits. Seeded (`LOGBOOK_MIGRATION_0017_SEED`).
    func testMigration0017KeepsEveryExerciseRowAndDefersItsKey() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_MIGRATION_0017_SEED", default: 17)
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let path = folder.url.appendingPathComponent("logbook.sqlite").path
        let connection = try Self.connection(at: path, migratedUpTo: "0017_")
        // Another program's rows, foreign keys off: days, their exercises with gaps, rows whose day
        // is gone, odd storage classes, and a checklist item and an alias whose parent is gone.
        try connection.execute("PRAGMA foreign_keys = OFF")
        let dayCount = Int.random(in: 1...40, using: &random)
        for pk in 1...dayCount {
            try connection.run("INSERT INTO exercise_days (pk, id, day, date) VALUES (?, ?, ?, ?)",
                               [.integer(Int64(pk)), .text(UUID().uuidString), .text(String(format: "2026-%02d-%02d", pk / 28 + 1, pk % 28 + 1)),
                                .real(Double(pk) * 86_400)])
        }
        let values: [DatabaseValue] = [.text("Squat"), .blob(Data([0, 0xFF])), .integer(7), .real(7.5), .text(""), .text("Cafe\u{301}")]
        for _ in 0..<Int.random(in: 1...200, using: &random) {
            let dayKey = Int64.random(in: 1...Int64(dayCount + 3), using: &random)  // above dayCount: no day
            let name = Bool.random(using: &random) ? values.randomElement(using: &random)! : .text(AdversarialText.string(using: &random))
            let key = Bool.random(using: &random) ? name : .text(AdversarialText.string(using: &random))
            try connection.run("INSERT OR IGNORE INTO exercises (day_pk, position, name, name_key) VALUES (?, ?, ?, ?)",
                               [.integer(dayKey), .integer(Int64.random(in: 1...9, using: &random)), name, key])
        }
        try connection.execute("""
            INSERT INTO checklist_items (draft_pk, position, id, title, is_done) VALUES (99, 1, '\(UUID().uuidString)', 'Orphan', 0);
            INSERT INTO exercise_day_aliases (id, day_pk) VALUES ('\(UUID().uuidString)', 999);
            PRAGMA foreign_keys = ON;
            """)
        let exerciseRows = "SELECT quote(day_pk), quote(position), quote(name), quote(name_key) FROM exercises ORDER BY day_pk, position"
        let otherObjects = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT IN ('exercises', 'schema_migrations') ORDER BY name"
        func rows(_ sql: String) throws -> [[String?]] {
            let statement = try connection.prepare(sql)
            var found: [[String?]] = []
            while try statement.step() {
                found.append(try (0..<statement.columnCount).map { try statement.column($0, as: String?.self) })
            }
            return found
        }
        let (exercisesBefore, objectsBefore) = (try rows(exerciseRows), try rows(otherObjects))
        let violationsBefore = try connection.foreignKeyViolations()
        XCTAssertEqual(violationsBefore.count, exercisesBefore.contains { Int($0[0]!)! > dayCount } ? 3 : 2, "seed \(seed)")

        try Schema.migrator().migrate(connection)
        XCTAssertEqual(try rows(exerciseRows), exercisesBefore, "seed \(seed): exercise rows changed by migrating")
        // (Objects the later migrations create are new.)
        let namesBefore = Set(objectsBefore.map { $0[1] })
        XCTAssertEqual(try rows(otherObjects).filter { namesBefore.contains($0[1]) }, objectsBefore,
                       "seed \(seed): other schema objects changed by migrating")
        XCTAssertEqual(try connection.foreignKeyViolations().sorted(), violationsBefore.sorted(), "seed \(seed)")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'exercises_deferred'", as: Int.self), 0)
        XCTAssertTrue(try XCTUnwrap(connection.scalar("SELECT sql FROM sqlite_master WHERE name = 'exercises'", as: String.self))
            .contains("REFERENCES exercise_days (pk) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"))

        // The key is checked at COMMIT: a row whose day is missing may be written and given its day
        // before then; a transaction that ends without it fails whole.
        try connection.execute("""
            BEGIN;
            INSERT INTO exercises (day_pk, position, name, name_key) VALUES (500, 1, 'Run', 'Run');
            INSERT INTO exercise_days (pk, id, day, date) VALUES (500, '\(UUID().uuidString)', '2027-01-01', 0);
            COMMIT;
            """)
        XCTAssertThrowsError(try connection.execute("BEGIN; INSERT INTO exercises (day_pk, position, name, name_key) VALUES (501, 1, 'Run', 'Run'); COMMIT")) {
            XCTAssertTrue("\($0)".contains("FOREIGN KEY constraint failed"), "\($0)")
        }
        if !connection.isAutocommit { try connection.execute("ROLLBACK") }
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM exercises WHERE day_pk = 501", as: Int.self), 0)
        // Deleting a day deletes its rows at once, as before.
        try connection.execute("DELETE FROM exercise_days WHERE pk = 500")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM exercises WHERE day_pk = 500", as: Int.self), 0)
    }

    /// Another program's indexes, triggers and views come through migration 0017's rebuild of the
    /// exercises table with their own text, and still work: an index on the table, a trigger on
    /// it, a view of it, a trigger of another table that names it (such a view or trigger stops
    /// SQLite's `ALTER TABLE … RENAME`, so the migrator drops and makes them again around it), and
    /// an index on a table the migration does not touch.
    func testMigration0017KeepsAnotherProgramsIndexesTriggersAndViews() throws {
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let connection = try Self.connection(at: folder.url.appendingPathComponent("logbook.sqlite").path, migratedUpTo: "0017_")
        try connection.execute("""
            INSERT INTO exercise_days (pk, id, day, date) VALUES (1, '\(UUID().uuidString)', '2026-01-10', 0);
            INSERT INTO exercises (day_pk, position, name, name_key) VALUES (1, 1, 'Squat', 'Squat'), (1, 2, 'Row', 'Row');
            CREATE TABLE audit (name TEXT);
            CREATE INDEX my_names ON exercises (name, position);
            CREATE TRIGGER my_audit AFTER INSERT ON exercises BEGIN INSERT INTO audit VALUES (NEW.name); END;
            CREATE VIEW my_counts AS SELECT name, count(*) AS done FROM exercises GROUP BY name;
            CREATE VIEW "my_""quoted"" view" AS SELECT name FROM exercises;
            CREATE TRIGGER my_day_gone BEFORE DELETE ON exercise_days BEGIN INSERT INTO audit SELECT 'gone ' || name FROM exercises WHERE day_pk = OLD.pk; END;
            CREATE INDEX my_versions ON drafts (version);
            CREATE TRIGGER exercises AFTER INSERT ON exercises BEGIN SELECT 1; END;
            CREATE TRIGGER exercise_days AFTER DELETE ON exercise_days BEGIN SELECT count(*) FROM exercises; END;
            CREATE VIEW exercises_renamed_ascii_key AS SELECT name FROM exercises;
            CREATE TRIGGER my_counts_insert INSTEAD OF INSERT ON my_counts BEGIN INSERT INTO audit VALUES ('counted ' || NEW.name); END;
            CREATE VIEW my_audit_view AS SELECT name FROM audit;
            CREATE TRIGGER my_audit_view_insert INSTEAD OF INSERT ON my_audit_view BEGIN INSERT INTO audit VALUES ('noted ' || NEW.name); END;
            """)
        let foreign = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name LIKE 'my\\_%' ESCAPE '\\' ORDER BY name"
        // Named as Logbook's objects of the other name space (a trigger `exercises`, a view named as
        // Logbook's trigger): kept too (the trigger was dropped, and the others failed the
        // migration as they stopped the rebuild; helper-69).
        let namesake = """
            SELECT type, name, sql FROM sqlite_master
            WHERE (type = 'trigger' AND name IN ('exercises', 'exercise_days')) OR (type = 'view' AND name = 'exercises_renamed_ascii_key')
            ORDER BY type, name
            """
        func rows(_ sql: String) throws -> [[String]] {
            let statement = try connection.prepare(sql)
            var found: [[String]] = []
            while try statement.step() { found.append(try (0..<statement.columnCount).map { try statement.column($0, as: String.self) }) }
            return found
        }
        let before = try rows(foreign), namesakesBefore = try rows(namesake)
        XCTAssertEqual(before.count, 9)
        XCTAssertEqual(namesakesBefore.count, 3)

        try Schema.migrator().migrate(connection)
        XCTAssertEqual(try connection.scalar("SELECT max(version) FROM schema_migrations", as: Int.self), Schema.migrationFiles.count)
        XCTAssertEqual(try rows(foreign), before, "another program's objects changed by migrating")
        XCTAssertEqual(try rows(namesake), namesakesBefore, "another program's objects named as Logbook's changed by migrating")
        XCTAssertEqual(try rows("SELECT name || ' ' || done FROM my_counts ORDER BY name"), [["Row 1"], ["Squat 1"]])
        try connection.execute("INSERT INTO exercises (day_pk, position, name, name_key) VALUES (1, 3, 'Plank', 'Plank'); DELETE FROM exercise_days WHERE pk = 1")
        // A view's INSTEAD OF triggers (which SQLite drops with their view) are there and work
        // (dropped after their view, they failed the migration: "no such trigger"; helper-80).
        try connection.execute("INSERT INTO my_counts (name) VALUES ('Dip'); INSERT INTO my_audit_view (name) VALUES ('Lunge')")
        XCTAssertEqual(try rows("SELECT name FROM audit ORDER BY name"),
                       [["Plank"], ["counted Dip"], ["gone Plank"], ["gone Row"], ["gone Squat"], ["noted Lunge"]])
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM pragma_index_list('exercises') WHERE name = 'my_names'", as: Int.self), 1)
    }

    /// Another program's trigger named as a table a pending migration creates meets no object of
    /// its name space: `check` named the migration as one whose objects exist, though it applies
    /// (helper-69).
    func testATriggerNamedAsAPendingMigrationsTableIsNoClash() throws {
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let connection = try Self.connection(at: folder.url.appendingPathComponent("logbook.sqlite").path, migratedUpTo: "0018_")
        try connection.execute("CREATE TRIGGER exercise_month_days AFTER INSERT ON exercises BEGIN SELECT 1; END")
        let migrator = try Schema.migrator()
        XCTAssertEqual(try migrator.pendingMigrationsWithExistingObjects(in: connection, after: 17), [])
        try migrator.migrate(connection)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'exercise_month_days'", as: Int.self), 2)
        // A table of that name is a clash, named.
        let other = try Self.connection(at: folder.url.appendingPathComponent("other.sqlite").path, migratedUpTo: "0018_")
        try other.execute("CREATE TABLE exercise_month_days (x)")
        XCTAssertEqual(try migrator.pendingMigrationsWithExistingObjects(in: other, after: 17).count, 1)
    }

    /// Another program's index and trigger on any of Logbook's tables, made at any schema version,
    /// are there after migrating to the latest (unless a migration drops their table): every
    /// migration that rebuilds a table makes them again, not only those that need foreign keys
    /// off (0013 rebuilt `exercise_period_totals` and dropped them, exit 0; helper-6).
    func testAnotherProgramsObjectsOnAnyTableSurviveEveryMigration() throws {
        let latest = try Schema.migrator().buildReferenceSchema()
        for (index, file) in Schema.migrationFiles.enumerated() where index > 0 {
            let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
            let prefix = String(file.fileName.prefix(5))
            let connection = try Self.connection(at: folder.url.appendingPathComponent("logbook.sqlite").path, migratedUpTo: prefix)
            let tables = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name <> 'schema_migrations'")
            var made: [String] = []
            while try tables.step() {
                let table: String = try tables.column(0)
                guard latest[table]?.type == "table" else { continue }
                let column = try connection.scalar("SELECT name FROM pragma_table_info(?) ORDER BY cid LIMIT 1", [.text(table)], as: String.self) ?? "rowid"
                try connection.execute("""
                    CREATE INDEX "my_\(table)_index" ON \(table) (\(column));
                    CREATE TRIGGER "my_\(table)_trigger" AFTER INSERT ON \(table) BEGIN SELECT 1; END;
                    """)
                made += ["my_\(table)_index", "my_\(table)_trigger"]
            }
            try Schema.migrator().migrate(connection)
            let kept = try connection.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'my\\_%' ESCAPE '\\' ORDER BY name")
            var found: [String] = []
            while try kept.step() { found.append(try kept.column(0)) }
            XCTAssertEqual(found, made.sorted(), "made before \(file.fileName)")
        }
    }

    /// A file that is not what its applied migrations made (another program added a column) is
    /// refused before any pending migration runs: migration 0017 would have rebuilt the exercises
    /// table without the column, and a refusal after migrating would leave the file changed by a
    /// command that failed.
    func testAFileWhoseSchemaDiffersIsRefusedBeforeAnyMigrationChangesIt() throws {
        for table in ["exercises", "exercise_days"] {
            let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
            let connection = try Self.connection(at: folder.url.appendingPathComponent("logbook.sqlite").path, migratedUpTo: "0017_")
            try connection.execute("ALTER TABLE \(table) ADD COLUMN note TEXT")
            let schema = try connection.prepare("SELECT group_concat(name || ':' || sql, ' / ') FROM (SELECT name, sql FROM sqlite_master ORDER BY name)")
            XCTAssertTrue(try schema.step())
            let before: String = try schema.column(0)
            schema.reset()
            let version = try connection.scalar("SELECT max(version) FROM schema_migrations", as: Int.self)
            XCTAssertThrowsError(try Schema.migrator().migrate(connection)) { error in
                guard case MigrationError.schemaDiffers(let differences) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(differences, ["table \(table) differs from what the migrations create"])
            }
            XCTAssertEqual(try connection.scalar("SELECT max(version) FROM schema_migrations", as: Int.self), version, table)
            XCTAssertTrue(try schema.step())
            XCTAssertEqual(try schema.column(0, as: String.self), before, table)
        }
    }

    /// A file of the first release holding another program's object under the name a later
    /// migration gives one of its own (`change_log`, made by 0009; `exercises_deferred`, 0017's
    /// scratch table; an index, a view in other case, a trigger) is refused before any migration runs, the file byte for
    /// byte as it was: the migrations before the clashing one committed first, and the refusal said
    /// "refusing to change the database" of a file moved from schema 5 to 8 (helper-2).
    func testAFileWithALaterMigrationsObjectNameIsRefusedBeforeAnyMigrationRuns() throws {
        let objects = ["CREATE TABLE change_log (a, b)", "CREATE TABLE exercises_deferred (x)",
                       "CREATE TABLE mine (x); CREATE INDEX exercise_years_by_name ON mine (x)",
                       "CREATE VIEW Exercise_Month_Days AS SELECT 1",
                       "CREATE TABLE mine (x); CREATE TRIGGER drafts_inserted AFTER INSERT ON mine BEGIN SELECT 1; END"]
        for sql in objects {
            let path = try Fixtures.copy("logbook-0.1.sqlite3", as: "logbook.sqlite")
            defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
            try Connection(path: path.path).execute(sql)
            let bytes = try Data(contentsOf: path)
            XCTAssertThrowsError(try Logbook(path: path.path), sql) { error in
                XCTAssertTrue("\(error)".contains("is not in the history but its objects exist"), "\(sql): \(error)")
            }
            XCTAssertEqual(try Data(contentsOf: path), bytes, "\(sql): the file changed")
        }
        // A name SQLite tells apart, though Swift lowercases it to one of them (the Kelvin sign
        // is `k` to Swift, no letter to SQLite): no clash (it was refused; helper-6).
        let path = try Fixtures.copy("logbook-0.1.sqlite3", as: "logbook.sqlite")
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        try Connection(path: path.path).execute("CREATE TABLE \"logboo\u{212A}_settings\" (x)")
        XCTAssertEqual(try Logbook.inspect(path: path.path).check().migrationProblems.filter { $0.contains("objects exist") }, [])
        XCTAssertEqual(try Logbook(path: path.path).schemaVersion(), Schema.migrationFiles.count)
    }

    /// Another program's object that a migration would leave naming what is gone (a trigger,
    /// view or foreign key reading the `exercise_weeks` that migration 0012 drops, a column no
    /// longer there) refuses the migration, naming the migration and the object (a trigger on that
    /// table goes with it, and refuses nothing),
    /// the file byte for byte unchanged, and `check` says so before: migration 0012 applied, and
    /// every history write failed after with "no such table", while `check` said "ok" (or the
    /// foreign key's file said its schema differed). Seeded objects of four kinds over every table
    /// and column of the first release, in either case; an object broken before migrating refuses
    /// nothing (`LOGBOOK_BROKEN_DEPENDENTS_SEED`).
    func testAMigrationThatWouldBreakAnotherProgramsObjectIsRefusedAndCheckSaysSo() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_BROKEN_DEPENDENTS_SEED", default: 12))
        // The oracle: each table's columns in the first release and after every migration.
        func columns(_ connection: Connection) throws -> [String: [String]] {
            let statement = try connection.prepare("""
                SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite%' AND m.name <> 'schema_migrations' ORDER BY m.name, p.cid
                """)
            var found: [String: [String]] = [:]
            while try statement.step() { found[try statement.column(0), default: []].append(try statement.column(1)) }
            return found
        }
        let releasePath = try Fixtures.copy("logbook-0.1.sqlite3", as: "logbook.sqlite")
        defer { try? FileManager.default.removeItem(at: releasePath.deletingLastPathComponent()) }
        let release = try Connection(path: releasePath.path)
        let first = try columns(release)
        // A foreign key of one column to a table whose primary key has two is refused by SQLite
        // ("foreign key mismatch") before any migration: none can break it.
        func primaryKeyWidth(_ table: String) throws -> Int {
            try release.scalar("SELECT count(*) FROM pragma_table_info(?) WHERE pk > 0", [.text(table)], as: Int.self) ?? 0
        }
        let latest = try Connection(path: ":memory:")
        try Schema.migrator().migrate(latest)
        let kept = try columns(latest)
        func swapCase(_ name: String) -> String {
            String(name.map { random.chance(0.5) ? Character($0.uppercased()) : $0 })
        }
        var refused = 0
        defer { print("\(refused) objects refused a migration") }
        for round in 0..<PropertyTestSettings.scaled(16, by: "LOGBOOK_BROKEN_DEPENDENTS_SCALE") {
            // The table migration 0012 drops, often: the one whose readers break.
            let table = random.chance(0.3) ? "exercise_weeks" : random.pick(first.keys.sorted())
            let column = random.pick(first[table]!)
            let named = swapCase(table).quotedSQLIdentifier, columnNamed = swapCase(column).quotedSQLIdentifier
            let readsGone = kept[table]?.contains(column) != true
            let on = random.pick(first.keys.sorted())
            let singleKey = try primaryKeyWidth(table) == 1
            // The object, its name as the refusal gives it, and whether the migrations break it.
            let (sql, object, breaks): (String, String, Bool) = switch random.int(0...4) {
            case 0: ("CREATE TRIGGER my_reader AFTER INSERT ON \(on) BEGIN SELECT \(columnNamed) FROM \(named); END",
                     "trigger my_reader on \(on)", readsGone && kept[on] != nil)
            case 1: ("CREATE TABLE mine (x); CREATE TRIGGER my_writer AFTER INSERT ON mine BEGIN SELECT \(columnNamed) FROM \(named); END",
                     "trigger my_writer on mine", readsGone)
            case 2: ("CREATE VIEW my_view AS SELECT \(columnNamed) FROM \(named)", "view my_view", readsGone)
            case 3: ("CREATE TABLE mine (x REFERENCES \(named)); INSERT INTO mine VALUES (NULL)", "foreign keys of table mine",
                     kept[table] == nil && singleKey)
            default: ("CREATE TABLE mine (x); CREATE VIEW my_view AS SELECT never FROM \(named)", "view my_view", false)
            }
            let path = try Fixtures.copy("logbook-0.1.sqlite3", as: "logbook.sqlite")
            defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
            // As the sqlite3 shell writes, foreign keys off: on, the insert refuses a key SQLite cannot use.
            try Connection(path: path.path).execute("PRAGMA foreign_keys = OFF; " + sql)
            let bytes = try Data(contentsOf: path)
            let context = "round \(round): \(sql)"
            let problems = try Logbook.inspect(path: path.path).check().migrationProblems
            if breaks {
                refused += 1
                XCTAssertEqual(problems.count, 1, context)
                XCTAssertTrue(problems.first?.hasPrefix("migrating would fail, changing nothing: migration ") == true, "\(context): \(problems)")
                XCTAssertTrue(problems.first?.contains("could not keep another program's \(object) (") == true, "\(context): \(problems)")
                XCTAssertThrowsError(try Logbook(path: path.path), context) { error in
                    XCTAssertTrue("\(error)".contains("could not keep another program's \(object) ("), "\(context): \(error)")
                }
                XCTAssertEqual(try Data(contentsOf: path), bytes, "\(context): the file changed")
            } else {
                XCTAssertEqual(problems, [], context)
                XCTAssertEqual(try Logbook(path: path.path).schemaVersion(), Schema.migrationFiles.count, context)
            }
        }
    }

    /// The shapes helper-92 found the first form of the guard wrong on: a view over another
    /// program's full-text index, with an `INSTEAD OF` trigger, stopped `check` and every
    /// migration with "unsafe use of virtual table" (Logbook's connections do not trust the
    /// schema) and `check` called such a view broken; a view already broken before migrating, with
    /// an `INSTEAD OF` trigger, stopped them with "no such table"; a trigger already broken on
    /// inserts into `exercises` hid another that migration 0012 broke on deletes (it migrated, and
    /// every history delete failed; the two are named together, as SQLite compiles them); a
    /// trigger on `exercise_weeks` itself, which goes with the
    /// table, refused the migration for good; a view over `exercise_weeks` with an `INSTEAD OF`
    /// trigger was refused with SQLite's bare message. Each file byte for byte as it was when refused.
    func testAnotherProgramsObjectsThatWorkOrWereBrokenBeforeAreJudgedByWhatTheMigrationChanges() throws {
        let cases: [(sql: String, refusal: String?)] = [
            ("""
             CREATE VIRTUAL TABLE ft USING fts5(title);
             CREATE VIEW ft_v AS SELECT rowid, title FROM ft;
             CREATE TRIGGER ft_v_insert INSTEAD OF INSERT ON ft_v BEGIN INSERT INTO ft (title) VALUES (NEW.title); END;
             """, nil),
            ("""
             CREATE TABLE old_t (x); CREATE VIEW v_old AS SELECT x FROM old_t;
             CREATE TRIGGER v_old_insert INSTEAD OF INSERT ON v_old BEGIN SELECT 1; END; DROP TABLE old_t;
             """, nil),
            ("""
             CREATE TABLE gone (x);
             CREATE TRIGGER ex_gone AFTER INSERT ON exercises BEGIN INSERT INTO gone VALUES (1); END; DROP TABLE gone;
             CREATE TRIGGER ex_weeks AFTER DELETE ON exercises BEGIN SELECT count(*) FROM exercise_weeks; END;
             """, "migration 0012_drop_exercise_weeks could not keep another program's triggers ex_gone, ex_weeks on exercises "
                + "(every delete from exercises fails: no such table: main.exercise_weeks)"),
            ("CREATE TABLE mine (x); CREATE TRIGGER weeks_audit AFTER INSERT ON exercise_weeks BEGIN INSERT INTO mine VALUES (1); END", nil),
            // Broken before, on a table with a foreign key, while migrations run with foreign keys
            // off (helper-93: named otherwise with them off, it was taken for a new failure).
            ("""
             CREATE TABLE notes (x REFERENCES exercise_days (pk)); CREATE TABLE gone (y);
             CREATE TRIGGER notes_gone AFTER INSERT ON notes BEGIN INSERT INTO gone VALUES (1); END; DROP TABLE gone;
             """, nil),
            ("""
             CREATE VIEW weeks_v AS SELECT week FROM exercise_weeks;
             CREATE TRIGGER weeks_v_insert INSTEAD OF INSERT ON weeks_v BEGIN SELECT 1; END;
             """, "migration 0012_drop_exercise_weeks could not keep another program's trigger weeks_v_insert on weeks_v "
                + "(every insert into weeks_v fails: no such table: main.exercise_weeks)"),
        ]
        for (sql, refusal) in cases {
            let path = try Fixtures.copy("logbook-0.1.sqlite3", as: "logbook.sqlite")
            defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
            try Connection(path: path.path).execute(sql)
            let bytes = try Data(contentsOf: path)
            let problems = try Logbook.inspect(path: path.path).check().migrationProblems
            guard let refusal else {
                XCTAssertEqual(problems, [], sql)
                let store = try Logbook(path: path.path)
                XCTAssertEqual(try store.schemaVersion(), Schema.migrationFiles.count, sql)
                _ = try store.history.addDoneExercises(["Squat"])
                let report = try store.check()
                XCTAssertEqual(report.schemaProblems.filter { !$0.contains("v_old") && !$0.contains("notes_gone") }, [], "\(sql): a working object called broken")
                continue
            }
            XCTAssertEqual(problems, ["migrating would fail, changing nothing: " + refusal
                                      + "; it was rolled back: drop it, migrate, and make it again to fit the migrated schema"], sql)
            XCTAssertThrowsError(try Logbook(path: path.path), sql) { error in
                XCTAssertTrue("\(error)".contains(refusal), "\(sql): \(error)")
            }
            XCTAssertEqual(try Data(contentsOf: path), bytes, "\(sql): the file changed")
        }
        // Another program's trigger that keeps the migration history append-only refuses the
        // migrations: `check` says so in its report (the copy it tries them on fired the trigger
        // on the history's own rows, and `check` stopped with an error: helper-93).
        let path = try Fixtures.copy("logbook-0.1.sqlite3", as: "logbook.sqlite")
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        try Connection(path: path.path).execute("""
            CREATE TRIGGER history_append_only BEFORE INSERT ON schema_migrations
            WHEN (SELECT count(*) FROM schema_migrations) >= 5 BEGIN SELECT RAISE(ABORT, 'append-only'); END
            """)
        let problems = try Logbook.inspect(path: path.path).check().migrationProblems
        XCTAssertEqual(problems, ["migrating would fail, changing nothing: append-only"])
        XCTAssertThrowsError(try Logbook(path: path.path)) { XCTAssertTrue("\($0)".contains("append-only"), "\($0)") }
    }

    /// Migration 0018 sets each month's days from the day totals of the file it migrates: a
    /// month's bits are exactly the days (parsed here in Swift) that have totals, over days from
    /// the whole calendar (0001-01-01 and 9999-12-31 included), and a day totals row whose text is
    /// no calendar day (another program's: day 00 or past the month's end, year 0000, not a date,
    /// a BLOB) sets no bit. Seeded (`LOGBOOK_MIGRATION_0018_SEED`).
    func testMigration0018SetsEachMonthsDaysFromItsDayTotals() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_MIGRATION_0018_SEED", default: 18)
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let connection = try Self.connection(at: folder.url.appendingPathComponent("logbook.sqlite").path, migratedUpTo: "0018_")
        var expected: [String: Int64] = [:]
        let anchors = [CalendarDay.first.dayNumber, CalendarDay.last.dayNumber - 120, CalendarDay(year: 2024, month: 1, day: 1)!.dayNumber,
                       Int.random(in: CalendarDay.first.dayNumber...CalendarDay.last.dayNumber - 120, using: &random)]
        for anchor in anchors {
            for number in anchor...anchor + 120 where Bool.random(using: &random) {
                let day = CalendarDay(dayNumber: number)!
                try connection.run("INSERT INTO exercise_day_totals VALUES (?, 1, 1, 'Squat')", [day.databaseValue])
                expected[ReportPeriod.month.start(of: day).description, default: 0] |= 1 << (day.day - 1)
            }
        }
        let strays = ["2026-02-30", "2026-03-00", "2023-02-29", "0000-01-01", "2026-13-01", "2026-01-01x", "today"]
        for stray in strays {
            XCTAssertNil(CalendarDay(stray), stray)
            try connection.run("INSERT INTO exercise_day_totals VALUES (?, 1, 1, 'Stray')", [.text(stray)])
        }
        try connection.run("INSERT INTO exercise_day_totals VALUES (?, 1, 1, 'Stray')", [.blob(Data("2026-01-05".utf8))])

        try Schema.migrator().migrate(connection)
        XCTAssertEqual(try Self.monthDays(in: connection), expected, "seed \(seed)")
    }

    /// Migration 0019 recounts each month holding a text that migration 0018's check, SQLite's
    /// date functions, judged otherwise than ``CalendarDay`` (on SQLite 3.40.1: 0300-03-01, a day
    /// it refused, and 0300-02-29, no day, which it took) and leaves every other row as it was:
    /// the day totals of March 300 (the 1st among them), of the months around it and of random
    /// months, plus texts that are no calendar day there, migrated through 0018, then through
    /// 0019. Seeded (`LOGBOOK_MIGRATION_0019_SEED`).
    func testMigration0019SetsTheDaysOfMonthsSQLiteMisread() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_MIGRATION_0019_SEED", default: 19))
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let path = folder.url.appendingPathComponent("logbook.sqlite").path
        let connection = try Self.connection(at: path, migratedUpTo: "0018_")
        var expected: [String: Int64] = [:]
        let march300 = CalendarDay(year: 300, month: 3, day: 1)!
        let anchors = [march300.dayNumber - 40, Int.random(in: CalendarDay.first.dayNumber...CalendarDay.last.dayNumber - 120, using: &random)]
        for anchor in anchors {
            for number in anchor...anchor + 120 where number == march300.dayNumber || Bool.random(using: &random) {
                let day = CalendarDay(dayNumber: number)!
                try connection.run("INSERT INTO exercise_day_totals VALUES (?, 1, 1, 'Squat')", [day.databaseValue])
                expected[ReportPeriod.month.start(of: day).description, default: 0] |= 1 << (day.day - 1)
            }
        }
        for stray in ["0300-02-29", "0300-03-32", "0300-03-00"] {
            XCTAssertNil(CalendarDay(stray), stray)
            try connection.run("INSERT OR IGNORE INTO exercise_day_totals VALUES (?, 1, 1, 'Stray')", [.text(stray)])
        }
        let files = Schema.migrationFiles
        let through0018 = try XCTUnwrap(files.firstIndex { $0.fileName.hasPrefix("0018_") })
        try Migrator(migrations: files[...through0018].map { try Migration(fileName: $0.fileName, sql: $0.sql) }).migrate(connection)
        let after0018 = try Self.monthDays(in: connection)
        let misread = try connection.scalar("SELECT date(julianday('0300-03-01')) IS NOT '0300-03-01'", as: Bool.self) ?? false
        XCTAssertEqual(after0018["0300-03-01"] == expected["0300-03-01"], !misread,
                       "0018 left March 300 without its 1st exactly when this SQLite misreads that day")
        XCTAssertEqual(after0018["0300-02-01"] == expected["0300-02-01"], !misread,
                       "0018 gave February 300 a 29th exactly when this SQLite misreads that text")

        try Schema.migrator().migrate(connection)
        let after0019 = try Self.monthDays(in: connection)
        XCTAssertEqual(after0019, expected)
        let recounted: Set = ["0300-02-01", "0300-03-01"]
        XCTAssertEqual(after0019.filter { !recounted.contains($0.key) }, after0018.filter { !recounted.contains($0.key) },
                       "every other month as it was")
    }

    /// The rows of `exercise_month_days`: each month's first day with the bits of its days.
    private static func monthDays(in connection: Connection) throws -> [String: Int64] {
        var stored: [String: Int64] = [:]
        let rows = try connection.prepare("SELECT start, days FROM exercise_month_days")
        while try rows.step() { stored[try rows.column(0)] = try rows.column(1) }
        return stored
    }

    /// A connection to a new file at `path`, migrated with every migration before the one whose
    /// file name starts with `prefix` (as a release before that migration left files).
    /// Logbook up to schema version 10 (the first release among them) lost week 9999-W52 from its
    /// week tallies when it recounted that week, and migration 0011 built the week's totals from
    /// them: the weekly report showed the week empty after migrating (helper-30, with those builds).
    /// Migration 0020 marks the week's days stale, so the report counts them from their rows and
    /// the next write puts the totals right. A file at version 10 holding that state, written here
    /// as those builds left it, and a week they counted right beside it, which stays as it is.
    func testMigration0020RecountsTheLastWeekOf9999() throws {
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let path = folder.url.appendingPathComponent("logbook.sqlite").path
        let utc = TimeZone(identifier: "UTC")!
        // The keys' Unicode version as this version writes it, or opening would recount every day.
        let current = folder.url.appendingPathComponent("current.sqlite").path
        _ = try Logbook(path: current, timeZone: utc)
        let old = try Self.connection(at: path, migratedUpTo: "0011_")
        try old.run("ATTACH DATABASE ? AS current", [.text(current)])
        try old.execute("""
            INSERT OR REPLACE INTO main.logbook_settings SELECT * FROM current.logbook_settings;
            DETACH DATABASE current;
            INSERT INTO exercise_days (pk, id, day, date) VALUES
                (1, '6F1B2C43-0000-4000-8000-000000000001', '2026-01-01', 788961600),
                (2, '6F1B2C43-0000-4000-8000-000000000002', '9999-12-31', 252423950400);
            INSERT INTO exercises (day_pk, position, name, name_key) VALUES
                (1, 1, 'Squat', 'Squat'), (2, 1, 'Squat', 'Squat'), (2, 2, 'Row', 'Row'), (2, 3, 'Plank', 'Plank');
            INSERT INTO exercise_day_totals (day, exercises, distinct_exercises, top_exercise) VALUES
                ('2026-01-01', 1, 1, 'Squat'), ('9999-12-31', 3, 3, 'Plank');
            INSERT INTO exercise_months (month, name_key, name, exercises, days, first_day, last_day) VALUES
                ('2026-01', 'Squat', 'Squat', 1, 1, '2026-01-01', '2026-01-01'),
                ('9999-12', 'Plank', 'Plank', 1, 1, '9999-12-31', '9999-12-31'),
                ('9999-12', 'Row', 'Row', 1, 1, '9999-12-31', '9999-12-31'),
                ('9999-12', 'Squat', 'Squat', 1, 1, '9999-12-31', '9999-12-31');
            INSERT INTO exercise_weeks (week, name_key, name, exercises) VALUES ('2025-12-29', 'Squat', 'Squat', 1);
            """)

        let store = try Logbook(path: path, timeZone: utc)
        XCTAssertEqual(try store.schemaVersion(), Schema.migrationFiles.count)
        func weeks() throws -> [String] {
            var rows: [String] = []
            try store.reports.history(by: .week) { row in
                guard row.activeDays > 0 else { return }
                rows.append("\(row.period) \(row.activeDays) \(row.exercises) \(row.distinctExercises) \(row.topExercise ?? "-")")
            }
            return rows
        }
        let expected = ["2026-W01 1 1 1 Squat", "9999-W52 1 3 3 Plank"]
        XCTAssertEqual(try weeks(), expected, "counted from the rows")
        let stale = try old.prepare("SELECT day FROM exercise_tallies_stale ORDER BY day")
        var marked: [String] = []
        while try stale.step() { marked.append(try stale.column(0)) }
        XCTAssertEqual(marked, ["9999-12-31"], "the week's days only")

        // The next write recounts them: the totals agree with the rows, the report as before.
        try store.history.addDoneExercises(["Run"], at: CalendarDay(year: 2026, month: 3, day: 1)!.start(in: utc) + 3_600)
        XCTAssertEqual(try store.check().derivedDataProblems, [])
        XCTAssertEqual(try weeks(), [expected[0], "2026-W09 1 1 1 Run", expected[1]])
    }

    /// Before migration 0021 a small save set its days' bits in `exercise_month_days` at once; now
    /// a day gets its bit when the tallies count it. A file as version 20 left it (days waiting,
    /// their bits set: one alone in its month, one beside a tallied day), made here from one this
    /// version wrote, with their bits set again and its record of 0021 removed: migrating clears
    /// those bits and leaves the tallied day's, the derived data agree with a recount, and the
    /// streaks count the waiting days.
    func testMigration0021ClearsTheBitsOfTheDaysThatWait() throws {
        let folder = try TemporaryFolder("ReleaseFixtureMigrationTests")
        let path = folder.url.appendingPathComponent("logbook.sqlite").path
        let utc = TimeZone(identifier: "UTC")!
        func day(_ text: String, _ exercises: [String]) -> ExerciseDay {
            ExerciseDay(date: CalendarDay(text)!.start(in: utc) + 3_600, day: CalendarDay(text)!, exercises: exercises)
        }
        var store: Logbook? = try Logbook(path: path, timeZone: utc)
        try store!.history.save((1...(ExerciseTallies.smallSaveLimit + 1)).map { day(String(format: "2026-01-%02d", $0), ["Squat"]) })
        for text in ["2026-01-20", "2026-03-05"] { try store!.history.save([day(text, ["Row", "Squat"])]) }
        let waiting = try store!.database.read {
            try $0.scalar("SELECT count(*) FROM exercise_days WHERE pk > \(TalliedThrough.sql)", as: Int.self)
        }
        XCTAssertEqual(waiting, 2)
        store = nil
        let old = try Connection(path: path)
        try old.execute("""
            UPDATE exercise_month_days SET days = days | (1 << 19) WHERE start = '2026-01-01';
            INSERT INTO exercise_month_days (start, days) VALUES ('2026-03-01', 1 << 4);
            DELETE FROM schema_migrations WHERE name LIKE '%month_days_of_tallied_days';
            """)
        let migrated = try Logbook(path: path, timeZone: utc)
        XCTAssertEqual(try migrated.schemaVersion(), Schema.migrationFiles.count)
        let months = try old.prepare("SELECT start || ' ' || days FROM exercise_month_days ORDER BY start")
        var rows: [String] = []
        while try months.step() { rows.append(try months.column(0)) }
        XCTAssertEqual(rows, ["2026-01-01 \((1 << 17) - 1)"], "the tallied days' bits only")
        XCTAssertEqual(try migrated.check().derivedDataProblems, [])
        let streaks = try migrated.reports.streaks(asOf: CalendarDay("2026-03-05")!)
        XCTAssertEqual(streaks.currentStreak, 1)
        XCTAssertEqual(streaks.longestStreak, 17)
        // The next write that counts them sets their bits.
        try migrated.history.save((1...(ExerciseTallies.smallSaveLimit + 1)).map { day(String(format: "2026-05-%02d", $0), ["Row"]) })
        XCTAssertEqual(try migrated.check().derivedDataProblems, [])
    }

    private static func connection(at path: String, migratedUpTo prefix: String) throws -> Connection {
        let files = Schema.migrationFiles
        let index = try XCTUnwrap(files.firstIndex { $0.fileName.hasPrefix(prefix) }, "no migration \(prefix)")
        let connection = try Connection(path: path)
        try Migrator(migrations: files[..<index].map { try Migration(fileName: $0.fileName, sql: $0.sql) }).migrate(connection)
        return connection
    }
}
