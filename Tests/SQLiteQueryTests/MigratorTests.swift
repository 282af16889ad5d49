import Foundation
import XCTest
@testable import SQLiteQuery

/// Numbered migrations: applied once, in order, each in its own transaction, recorded with a
/// checksum; a database the migrator must refuse is left byte for byte as it was.
final class MigratorTests: XCTestCase {
    private let createA = Migration(version: 1, name: "create_a", sql: "CREATE TABLE a (x INTEGER);")
    // Needs table a, so it can only succeed after migration 1.
    private let createB = Migration(version: 2, name: "create_b", sql: """
        CREATE TABLE b (a_x INTEGER REFERENCES a (x));
        INSERT INTO a (x) VALUES (1);
        """)
    // Needs table b, so it can only succeed after migration 2.
    private let indexB = Migration(version: 3, name: "index_b", sql: "CREATE INDEX b_a_x ON b (a_x);")

    private func migrator(_ migrations: Migration...) throws -> Migrator {
        try Migrator(migrations: migrations)
    }

    /// Creates a database at a new path, migrated with `migrations` by a connection that is closed
    /// again before this returns, so the file on disk is complete.
    private func makeMigratedDatabase(_ migrations: Migration...) throws -> String {
        let path = try makeDatabasePath()
        do {
            _ = try Database(path: path, migrator: try Migrator(migrations: migrations))
        }
        return path
    }

    private func userVersion(_ connection: Connection) throws -> Int? {
        try connection.scalar("PRAGMA user_version", as: Int.self)
    }

    // MARK: Migrations from files

    func testMigrationFromFileName() throws {
        let migration = try Migration(fileName: "0001_create_drafts.sql", sql: "SELECT 1;")
        XCTAssertEqual(migration.version, 1)
        XCTAssertEqual(migration.name, "create_drafts")
        XCTAssertEqual(migration.sql, "SELECT 1;")
        XCTAssertEqual(migration.identifier, "0001_create_drafts")

        let later = try Migration(fileName: "0012_add_index_on_day.sql", sql: "")
        XCTAssertEqual(later.version, 12)
        XCTAssertEqual(later.name, "add_index_on_day")
        XCTAssertEqual(try Migration(fileName: "12345_big.sql", sql: "").identifier, "12345_big")
        XCTAssertEqual(Migration(version: 7, name: "x", sql: "").identifier, "0007_x")
    }

    func testInvalidFileNamesAreRejected() {
        let names = ["create_drafts.sql", "0001_create_drafts.txt", "0001_create_drafts", "0001.sql", "0001_.sql",
                     "0000_zero.sql", "-001_negative.sql", "+001_plus.sql", "abcd_letters.sql", "0x01_hex.sql",
                     " 001_space.sql", "0001_create.sql.bak", "", ".sql", "_name.sql"]
        for name in names {
            XCTAssertThrowsError(try Migration(fileName: name, sql: ""), "accepted \(name.debugDescription)") { error in
                XCTAssertEqual(error as? MigrationError, .invalidFileName(name))
            }
        }
    }

    func testChecksumIsSHA256OfTheSQLText() {
        // Computed independently: printf 'CREATE TABLE a (x INTEGER);' | sha256sum
        XCTAssertEqual(createA.checksum, "038a26bc41bee121077edb6515a0d0d125d48b83120e525a0a93fa4112edd1f2")
        let edited = Migration(version: 1, name: "create_a", sql: "CREATE TABLE a (x INTEGER);\n")
        XCTAssertEqual(edited.checksum, "6eb120b0a70656b1b48169154fa40d24182151dc0e057b785e20e96f007a610e")
    }

    func testVersionsBelowOneAreRejected() {
        for version in [0, -3] {
            XCTAssertThrowsError(try migrator(createA, Migration(version: version, name: "zero", sql: "CREATE TABLE z (x);"))) { error in
                XCTAssertEqual(error as? MigrationError, .invalidVersion(version))
            }
        }
    }

    func testDuplicateVersionsAreRejected() {
        let other = Migration(version: 2, name: "other", sql: "CREATE TABLE other (x);")
        XCTAssertThrowsError(try migrator(indexB, createB, createA, other)) { error in
            XCTAssertEqual(error as? MigrationError, .duplicateVersion(2))
        }
    }

    // MARK: Applying

    func testAppliesInOrderEachOnce() throws {
        let connection = try makeConnection()
        let migrator = try migrator(indexB, createA, createB)
        XCTAssertEqual(migrator.migrations.map(\.version), [1, 2, 3])
        XCTAssertEqual(migrator.latestVersion, 3)
        XCTAssertEqual(try migrator.currentVersion(of: connection), 0)

        XCTAssertEqual(try migrator.migrate(connection).map(\.version), [1, 2, 3])
        XCTAssertEqual(try connection.tableNames(), ["a", "b", "schema_migrations"])
        XCTAssertEqual(try connection.column("SELECT version FROM schema_migrations ORDER BY rowid", as: Int.self), [1, 2, 3])
        XCTAssertEqual(try userVersion(connection), 3)
        XCTAssertEqual(try migrator.currentVersion(of: connection), 3)

        XCTAssertEqual(try migrator.migrate(connection), [], "a second migrate applied something")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM a", as: Int.self), 1, "migration 2 ran twice")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM schema_migrations", as: Int.self), 3)
        XCTAssertTrue(connection.isAutocommit)
    }

    func testRecordsNameChecksumAndTime() throws {
        let connection = try makeConnection()
        let now = Date(timeIntervalSinceReferenceDate: 791_029_800.123456)
        try migrator(createA, createB).migrate(connection, now: { now })
        let applied = try migrator(createA, createB).appliedMigrations(in: connection)
        XCTAssertEqual(applied.map(\.version), [1, 2])
        XCTAssertEqual(applied.map(\.name), ["create_a", "create_b"])
        XCTAssertEqual(applied.first?.checksum, "038a26bc41bee121077edb6515a0d0d125d48b83120e525a0a93fa4112edd1f2")
        XCTAssertEqual(applied.last?.checksum, createB.checksum)
        XCTAssertEqual(applied.first?.appliedAt.timeIntervalSinceReferenceDate.bitPattern,
                       now.timeIntervalSinceReferenceDate.bitPattern)
    }

    func testNewMigrationsApplyIncrementallyAndUserVersionFollows() throws {
        let connection = try makeConnection()
        XCTAssertEqual(try userVersion(connection), 0)
        XCTAssertEqual(try migrator(createA).migrate(connection).map(\.version), [1])
        XCTAssertEqual(try userVersion(connection), 1)
        XCTAssertEqual(try migrator(createA, createB).migrate(connection).map(\.version), [2])
        XCTAssertEqual(try userVersion(connection), 2)
        XCTAssertEqual(try migrator(createA, createB, indexB).migrate(connection).map(\.version), [3])
        XCTAssertEqual(try userVersion(connection), 3)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM a", as: Int.self), 1)
    }

    func testStatusReportsAppliedAndPending() throws {
        let connection = try makeConnection()
        let all = try migrator(createA, createB, indexB)
        let fresh = try all.status(of: connection)
        XCTAssertEqual(fresh.map(\.migration), [createA, createB, indexB])
        XCTAssertEqual(fresh.map(\.appliedAt), [nil, nil, nil])
        XCTAssertEqual(try connection.tableNames(), [], "status wrote to the database")

        let now = Date(timeIntervalSinceReferenceDate: 800_000_000.5)
        try migrator(createA, createB).migrate(connection, now: { now })
        let status = try all.status(of: connection)
        XCTAssertEqual(status.map(\.migration.version), [1, 2, 3])
        XCTAssertEqual(status.map(\.appliedAt), [now, now, nil])
    }

    func testEmptyMigratorOnEmptyDatabase() throws {
        let connection = try makeConnection()
        let migrator = try migrator()
        XCTAssertEqual(migrator.latestVersion, 0)
        XCTAssertEqual(try migrator.migrate(connection), [])
        XCTAssertEqual(try migrator.status(of: connection), [])
    }

    // MARK: Failures leave the previous version

    func testMigrationFailingMidwayLeavesThePreviousVersion() throws {
        let connection = try makeConnection()
        try migrator(createA).migrate(connection)
        // The first statements run before the invalid one is reached.
        let broken = Migration(version: 2, name: "broken", sql: """
            CREATE TABLE c (x);
            INSERT INTO a (x) VALUES (5);
            CREATE TABLE d (;
            """)
        let error = assertThrows(SQLiteError.self) { try migrator(createA, broken).migrate(connection) }
        XCTAssertTrue(error?.message.contains("syntax error") ?? false, error?.message ?? "")

        XCTAssertEqual(try connection.tableNames(), ["a", "schema_migrations"])
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM a", as: Int.self), 0)
        XCTAssertEqual(try userVersion(connection), 1)
        XCTAssertEqual(try migrator(createA, broken).currentVersion(of: connection), 1)
        XCTAssertEqual(try migrator(createA, broken).status(of: connection).map { $0.appliedAt == nil }, [false, true])
        XCTAssertTrue(connection.isAutocommit)
    }

    /// A migration that makes again a table an earlier one dropped is no clash for a file before
    /// them: the look ahead compares only the first pending migration with what it leaves.
    func testATableDroppedAndMadeAgainByLaterMigrationsIsNoClash() throws {
        let connection = try makeConnection()
        let first = Migration(version: 1, name: "make", sql: "CREATE TABLE t (x);")
        let drop = Migration(version: 2, name: "drop", sql: "DROP TABLE t;")
        let again = Migration(version: 3, name: "again", sql: "CREATE TABLE t (x, y);")
        try migrator(first).migrate(connection)
        let all = try migrator(first, drop, again)
        XCTAssertEqual(try all.pendingMigrationsWithExistingObjects(in: connection, after: 1), [])
        XCTAssertEqual(try all.migrate(connection).map(\.version), [2, 3])
        XCTAssertEqual(try connection.tableNames(), ["schema_migrations", "t"])
    }

    func testMigrationFailingOnAConstraintLeavesNothingBehind() throws {
        let connection = try makeConnection()
        let failing = Migration(version: 2, name: "failing", sql: """
            CREATE TABLE c (x UNIQUE);
            INSERT INTO c VALUES (1);
            INSERT INTO c VALUES (1);
            """)
        let error = assertThrows(SQLiteError.self) { try migrator(createA, failing).migrate(connection) }
        XCTAssertEqual(error?.code, ResultCode.uniqueConstraint)
        // The pending migrations run in one transaction: nothing of migration 1 remains either
        // (a file several versions behind is left as it was, not part of the way).
        XCTAssertEqual(try connection.tableNames(), [])
        XCTAssertEqual(try userVersion(connection), 0)
        // Fixed, both apply.
        let fixed = Migration(version: 2, name: "failing", sql: "CREATE TABLE c (x UNIQUE);")
        XCTAssertEqual(try migrator(createA, fixed).migrate(connection).map(\.version), [1, 2])
        XCTAssertEqual(try connection.tableNames(), ["a", "c", "schema_migrations"])
    }

    func testFirstMigrationFailingLeavesAnEmptyDatabase() throws {
        let connection = try makeConnection()
        let broken = Migration(version: 1, name: "broken", sql: "CREATE TABLE a (x); CREATE TABLE b (;")
        XCTAssertThrowsError(try migrator(broken).migrate(connection))
        XCTAssertEqual(try connection.tableNames(), [], "the history table or table a was left behind")
        XCTAssertEqual(try userVersion(connection), 0)
    }

    // MARK: Refusals leave the file untouched

    func testEditedAppliedMigrationIsRefusedAndTheFileIsUnchanged() throws {
        let path = try makeDatabasePath()
        do {
            let connection = try Connection(path: path)
            try migrator(createA, createB).migrate(connection)
        }
        let before = try XCTUnwrap(fileBytes(atPath: path))
        let editedA = Migration(version: 1, name: "create_a", sql: "CREATE TABLE a (x INTEGER, y TEXT);")
        let expected = MigrationError.checksumMismatch(identifier: "0001_create_a", recorded: createA.checksum,
                                                       current: editedA.checksum)

        do {
            let connection = try Connection(path: path)
            XCTAssertThrowsError(try migrator(editedA, createB, indexB).migrate(connection)) { error in
                XCTAssertEqual(error as? MigrationError, expected)
            }
            XCTAssertThrowsError(try migrator(editedA, createB).status(of: connection)) { error in
                XCTAssertEqual(error as? MigrationError, expected)
            }
        }
        XCTAssertEqual(fileBytes(atPath: path), before, "the refused database was changed")

        let connection = try Connection(path: path)
        XCTAssertEqual(try connection.tableNames(), ["a", "b", "schema_migrations"])
        XCTAssertEqual(try userVersion(connection), 2)
    }

    func testDatabaseOpenRefusesAnEditedMigrationBeforeWritingAnything() throws {
        let path = try makeMigratedDatabase(createA, createB)
        let before = try XCTUnwrap(fileBytes(atPath: path))
        let editedB = Migration(version: 2, name: "create_b", sql: createB.sql + "\n-- a comment added later")
        XCTAssertThrowsError(try Database(path: path, migrator: try migrator(createA, editedB, indexB))) { error in
            guard case .checksumMismatch(let identifier, let recorded, let current)? = error as? MigrationError else {
                return XCTFail("expected checksumMismatch, got \(error)")
            }
            XCTAssertEqual(identifier, "0002_create_b")
            XCTAssertEqual(recorded, createB.checksum)
            XCTAssertEqual(current, editedB.checksum)
        }
        XCTAssertEqual(fileBytes(atPath: path), before, "the refused database was changed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    func testAChecksumMessageShowsWhereTheTwoChecksumsDiffer() {
        let shared = String(repeating: "a", count: 20), rest = String(repeating: "0", count: 43)
        let late = MigrationError.checksumMismatch(identifier: "0001_x", recorded: shared + "b" + rest, current: shared + "c" + rest)
        XCTAssertTrue(late.description.contains("(checksum \(shared)b000… recorded, \(shared)c000… now)"), late.description)
        let early = MigrationError.checksumMismatch(identifier: "0001_x", recorded: "b" + shared + rest, current: "c" + shared + rest)
        XCTAssertTrue(early.description.contains("(checksum baaaaaaaaaaa… recorded, caaaaaaaaaaa… now)"), early.description)
    }

    func testUnknownNewerMigrationIsRefusedAndTheFileIsUnchanged() throws {
        let path = try makeMigratedDatabase(createA, createB, indexB)
        let before = try XCTUnwrap(fileBytes(atPath: path))
        XCTAssertThrowsError(try Database(path: path, migrator: try migrator(createA, createB))) { error in
            XCTAssertEqual(error as? MigrationError, .unknownMigrations(identifiers: ["0003_index_b"]))
        }
        do {
            let connection = try Connection(path: path)
            XCTAssertThrowsError(try migrator(createA).migrate(connection)) { error in
                XCTAssertEqual(error as? MigrationError, .unknownMigrations(identifiers: ["0002_create_b", "0003_index_b"]))
            }
        }
        XCTAssertEqual(fileBytes(atPath: path), before, "the refused database was changed")

        let connection = try Connection(path: path)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM schema_migrations", as: Int.self), 3)
        XCTAssertEqual(try userVersion(connection), 3)
    }

    // MARK: Database

    func testDatabaseOpenMigratesAndEnablesWAL() throws {
        let path = try makeDatabasePath()
        let database = try Database(path: path, migrator: try migrator(createA, createB))
        XCTAssertEqual(database.path, path)
        XCTAssertEqual(database.migrator.latestVersion, 2)
        try database.read { connection in
            XCTAssertEqual(try connection.tableNames(), ["a", "b", "schema_migrations"])
            XCTAssertEqual(try self.userVersion(connection), 2)
        }
        XCTAssertEqual(try database.withConnection { try $0.scalar("PRAGMA journal_mode", as: String.self) }, "wal")
    }

    func testReopeningAppliesOnlyNewMigrations() throws {
        let path = try makeMigratedDatabase(createA)
        let database = try Database(path: path, migrator: try migrator(createA, createB, indexB))
        let applied = try database.read { try Migrator(migrations: []).appliedMigrations(in: $0) }
        XCTAssertEqual(applied.map(\.version), [1, 2, 3])
        XCTAssertEqual(try database.read { try $0.scalar("SELECT count(*) FROM a", as: Int.self) }, 1)
    }

    func testInspectModeNeitherCreatesNorMigrates() throws {
        let missing = try makeDatabasePath()
        XCTAssertThrowsError(try Database(path: missing, migrator: try migrator(createA), mode: .inspect))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))

        let path = try makeMigratedDatabase(createA)
        let before = try XCTUnwrap(fileBytes(atPath: path))
        do {
            let database = try Database(path: path, migrator: try migrator(createA, createB), mode: .inspect)
            let status = try database.read { try database.migrator.status(of: $0) }
            XCTAssertEqual(status.map { $0.appliedAt == nil }, [false, true])
        }
        XCTAssertEqual(fileBytes(atPath: path), before)
    }

    func testNotADatabaseIsRefusedByDatabaseOpen() throws {
        let path = try makeDatabasePath("notes.txt")
        let contents = Data(String(repeating: "plain text\n", count: 200).utf8)
        try contents.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Database(path: path, migrator: try migrator(createA))) { error in
            XCTAssertEqual((error as? SQLiteError)?.isNotADatabaseOrCorrupt, true, "\(error)")
        }
        XCTAssertEqual(fileBytes(atPath: path), contents)
    }

    // MARK: Rebuilding a parent table (issue 15, item 13)

    private let parentsAndChildren = Migration(version: 1, name: "create_parents", sql: """
        CREATE TABLE parents (pk INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE children (parent_pk INTEGER NOT NULL REFERENCES parents (pk) ON DELETE CASCADE, x INTEGER);
        INSERT INTO parents (pk, name) VALUES (1, 'one'), (2, 'two');
        INSERT INTO children (parent_pk, x) VALUES (1, 10), (1, 11), (2, 20);
        """)

    /// SQLite's twelve-step procedure: a new table, the rows copied, the old one dropped, the new renamed.
    private func rebuild(directive: Bool, keeping rows: String = "") -> Migration {
        Migration(version: 2, name: "rebuild_parents", sql: (directive ? Migration.foreignKeysOffDirective + "\n" : "") + """
            CREATE TABLE parents_new (pk INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT NOT NULL DEFAULT '');
            INSERT INTO parents_new (pk, name) SELECT pk, name FROM parents \(rows);
            DROP TABLE parents;
            ALTER TABLE parents_new RENAME TO parents;
            """)
    }

    func testAMigrationWithForeignKeysOffRebuildsAParentAndKeepsEveryChild() throws {
        let path = try makeMigratedDatabase(parentsAndChildren, rebuild(directive: true))
        let connection = try Connection(path: path)
        XCTAssertEqual(try connection.column("SELECT x FROM children ORDER BY x", as: Int.self), [10, 11, 20])
        XCTAssertEqual(try connection.column("SELECT note FROM parents", as: String.self), ["", ""])
        XCTAssertEqual(try connection.scalar("PRAGMA foreign_keys", as: Int.self), 1, "foreign keys are on again")
        XCTAssertEqual(try connection.foreignKeyViolations(), [])
        // The same rebuild with foreign keys on loses the children: why the directive exists.
        let lossy = try makeMigratedDatabase(parentsAndChildren, rebuild(directive: false))
        XCTAssertEqual(try Connection(path: lossy).scalar("SELECT count(*) FROM children", as: Int.self), 0)
    }

    func testARebuildThatLeavesOrphansIsRolledBack() throws {
        let path = try makeMigratedDatabase(parentsAndChildren)
        let before = fileBytes(atPath: path)
        XCTAssertThrowsError(try Database(path: path, migrator: migrator(parentsAndChildren, rebuild(directive: true, keeping: "WHERE pk = 1")))) { error in
            guard case MigrationError.foreignKeyViolations(let identifier, let violations) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(identifier, "0002_rebuild_parents")
            XCTAssertEqual(violations.count, 1)
        }
        let connection = try Connection(path: path)
        XCTAssertEqual(try connection.scalar("SELECT max(version) FROM schema_migrations", as: Int.self), 1)
        XCTAssertEqual(try connection.column("SELECT x FROM children ORDER BY x", as: Int.self), [10, 11, 20])
        XCTAssertEqual(fileBytes(atPath: path), before)
    }

    /// A child row another program left without its parent (foreign keys off) is the file's, not
    /// the migration's: the rebuild applies and keeps it, for `check` to name and `repair` to
    /// remove; refusing would leave a file no command could open. A rebuild that loses a parent
    /// as well is still refused.
    func testARebuildKeepsChildrenThatHadLostTheirParentBefore() throws {
        for losesAParent in [false, true] {
            let path = try makeMigratedDatabase(parentsAndChildren)
            do {
                let other = try Connection(path: path)
                try other.execute("PRAGMA foreign_keys = OFF; INSERT INTO children (parent_pk, x) VALUES (9, 90)")
            }
            let before = fileBytes(atPath: path)
            let rebuilt = rebuild(directive: true, keeping: losesAParent ? "WHERE pk = 1" : "")
            if losesAParent {
                XCTAssertThrowsError(try Database(path: path, migrator: migrator(parentsAndChildren, rebuilt))) { error in
                    guard case MigrationError.foreignKeyViolations(_, let violations) = error else { return XCTFail("\(error)") }
                    XCTAssertEqual(violations, ["children: 2 rows refer to parents pk 2, 9, which are gone"])
                }
                XCTAssertEqual(fileBytes(atPath: path), before)
            } else {
                _ = try Database(path: path, migrator: migrator(parentsAndChildren, rebuilt))
                let connection = try Connection(path: path)
                XCTAssertEqual(try connection.scalar("SELECT max(version) FROM schema_migrations", as: Int.self), 2)
                XCTAssertEqual(try connection.column("SELECT x FROM children ORDER BY x", as: Int.self), [10, 11, 20, 90])
                XCTAssertEqual(try connection.foreignKeyViolations(), ["children: 1 row refers to parents pk 9, which is gone"])
            }
        }
    }
}
