import Foundation
import XCTest
@testable import SQLiteQuery

/// Errors say what went wrong: SQLite's extended code, its message, the SQL, and for conversions
/// the column.
final class ErrorTests: XCTestCase {
    private var connection: Connection!

    override func setUpWithError() throws {
        connection = try makeConnection()
        try connection.execute("""
            CREATE TABLE parents (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE children (
                id INTEGER PRIMARY KEY,
                parent_id INTEGER NOT NULL REFERENCES parents (id) ON DELETE CASCADE,
                age INTEGER CHECK (age >= 0)
            );
            INSERT INTO parents (id, name) VALUES (1, 'Ann');
            """)
    }

    override func tearDown() {
        connection = nil
    }

    // MARK: SQLiteError

    func testUniqueViolationCarriesExtendedCodeMessageAndSQL() throws {
        let sql = "INSERT INTO parents (name) VALUES (?)"
        let error = assertThrows(SQLiteError.self) { try connection.run(sql, [.text("Ann")]) }
        XCTAssertEqual(error?.code, ResultCode.uniqueConstraint)
        XCTAssertEqual(error?.primaryCode, 19)  // SQLITE_CONSTRAINT
        XCTAssertEqual(error?.message, "UNIQUE constraint failed: parents.name")
        XCTAssertEqual(error?.sql, sql)
        XCTAssertEqual(error?.codeDescription, "constraint failed")
        XCTAssertEqual(error?.description, "SQLite error 2067 (constraint failed): UNIQUE constraint failed: parents.name",
                       "the SQL stays out of the message")
        XCTAssertEqual(error?.debugDescription,
                       "SQLite error 2067 (constraint failed): UNIQUE constraint failed: parents.name "
                           + "in `INSERT INTO parents (name) VALUES (?)`")
        XCTAssertEqual(error?.localizedDescription, error?.description)
        XCTAssertEqual(error?.isUniqueConstraint, true)
        XCTAssertEqual(error?.isBusy, false)
        XCTAssertEqual(error?.isNotADatabaseOrCorrupt, false)
    }

    func testExecuteReportsTheExtendedCodeToo() throws {
        let sql = "INSERT INTO parents (name) VALUES ('Bob'); INSERT INTO parents (name) VALUES ('Ann')"
        let error = assertThrows(SQLiteError.self) { try connection.execute(sql) }
        XCTAssertEqual(error?.code, 2067)
        XCTAssertEqual(error?.message, "UNIQUE constraint failed: parents.name")
        XCTAssertEqual(error?.sql, sql)
    }

    func testForeignKeysAreOn() throws {
        XCTAssertEqual(try connection.scalar("PRAGMA foreign_keys", as: Int.self), 1)
        let error = assertThrows(SQLiteError.self) {
            try connection.run("INSERT INTO children (parent_id) VALUES (?)", [.integer(99)])
        }
        XCTAssertEqual(error?.code, 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
        XCTAssertEqual(error?.message, "FOREIGN KEY constraint failed")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM children", as: Int.self), 0)
    }

    func testForeignKeyCascadeDeletes() throws {
        try connection.run("INSERT INTO children (parent_id, age) VALUES (1, 3), (1, 5)")
        try connection.run("DELETE FROM parents WHERE id = 1")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM children", as: Int.self), 0)
    }

    func testOtherConstraintCodes() throws {
        let notNull = assertThrows(SQLiteError.self) { try connection.run("INSERT INTO parents (name) VALUES (NULL)") }
        XCTAssertEqual(notNull?.code, 1299)  // SQLITE_CONSTRAINT_NOTNULL
        let check = assertThrows(SQLiteError.self) {
            try connection.run("INSERT INTO children (parent_id, age) VALUES (1, -1)")
        }
        XCTAssertEqual(check?.code, 275)  // SQLITE_CONSTRAINT_CHECK
        let primaryKey = assertThrows(SQLiteError.self) {
            try connection.run("INSERT INTO parents (id, name) VALUES (1, 'Other')")
        }
        XCTAssertEqual(primaryKey?.code, 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
    }

    func testSyntaxErrorNamesTheSQL() throws {
        let sql = "SELEC name FROM parents"
        let error = assertThrows(SQLiteError.self) { try connection.prepare(sql) }
        XCTAssertEqual(error?.code, 1)  // SQLITE_ERROR
        XCTAssertEqual(error?.sql, sql)
        XCTAssertTrue(error?.message.contains("syntax error") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.debugDescription.contains("`\(sql)`") ?? false, error?.debugDescription ?? "")
        XCTAssertTrue(error?.description.contains("SELEC") ?? false, "SQLite's own message quotes the token")

        let executed = assertThrows(SQLiteError.self) { try connection.execute(sql) }
        XCTAssertEqual(executed?.code, 1)
        XCTAssertEqual(executed?.sql, sql)
        XCTAssertTrue(executed?.message.contains("syntax error") ?? false, executed?.message ?? "")
    }

    func testMissingTableIsNamed() throws {
        let error = assertThrows(SQLiteError.self) { try connection.prepare("SELECT * FROM missing_table") }
        XCTAssertEqual(error?.message, "no such table: missing_table")
    }

    func testErrorWithoutSQLDescription() {
        let error = SQLiteError(code: ResultCode.cannotOpen, message: "unable to open database file: /nowhere")
        XCTAssertEqual(error.description, "SQLite error 14 (unable to open database file): unable to open database file: /nowhere")
        XCTAssertNil(error.sql)
    }

    func testBusyIsRecognised() throws {
        try connection.enableWriteAheadLog()
        var options = Connection.Options()
        options.busyTimeoutMilliseconds = 0
        let other = try Connection(path: connection.path, options: options)
        try connection.execute("BEGIN IMMEDIATE")
        defer { try? connection.execute("ROLLBACK") }
        let error = assertThrows(SQLiteError.self) { try other.run("INSERT INTO parents (name) VALUES ('Bob')") }
        XCTAssertEqual(error?.primaryCode, 5)  // SQLITE_BUSY
        XCTAssertEqual(error?.isBusy, true)
    }

    // MARK: Files that are not databases

    func testFileThatIsNotSQLiteIsReportedAsNotADatabase() throws {
        let path = try makeDatabasePath("notes.txt")
        let contents = Data(String(repeating: "This is a plain text file, not a database.\n", count: 100).utf8)
        try contents.write(to: URL(fileURLWithPath: path))

        // The connection's own settings already read the schema, so opening may be what fails;
        // either way the caller learns it is not a database, and nothing is written.
        let error = assertThrows(SQLiteError.self) { try Connection(path: path).validateIsDatabase() }
        XCTAssertEqual(error?.isNotADatabaseOrCorrupt, true, "\(String(describing: error))")
        XCTAssertEqual(error?.primaryCode, 26)  // SQLITE_NOTADB
        XCTAssertEqual(fileBytes(atPath: path), contents, "the file was changed")
    }

    func testDamagedDatabaseIsReportedAsCorrupt() throws {
        let path = try makeDatabasePath()
        try Connection(path: path).execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        var bytes = try XCTUnwrap(fileBytes(atPath: path))
        // Keep the 100-byte file header, overwrite the schema table's page header with garbage.
        bytes.replaceSubrange(100..<200, with: [UInt8](repeating: 0xFF, count: 100))
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = assertThrows(SQLiteError.self) { try Connection(path: path).validateIsDatabase() }
        XCTAssertEqual(error?.isNotADatabaseOrCorrupt, true, "\(String(describing: error))")
        XCTAssertEqual(fileBytes(atPath: path), bytes, "the file was changed")
    }

    func testEmptyFileIsAValidEmptyDatabase() throws {
        let path = try makeDatabasePath()
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        let opened = try Connection(path: path)
        XCTAssertNoThrow(try opened.validateIsDatabase())
    }

    // MARK: Column conversions

    func testReadingTheWrongTypeNamesTheColumn() throws {
        try connection.execute("""
            CREATE TABLE mixed (n INTEGER, r REAL, t TEXT, b BLOB, flag INTEGER, id TEXT);
            INSERT INTO mixed VALUES (7, 1.5, 'seven', x'07', 2, 'not-a-uuid');
            """)
        let row = try connection.prepare("SELECT n, r, t, b, flag, id, t AS alias FROM mixed")
        XCTAssertTrue(try row.step())

        func conversionError<Value: SQLiteValue>(_ column: Int, as type: Value.Type) -> ColumnConversionError? {
            assertThrows(ColumnConversionError.self) { try row.column(column, as: Value.self) }
        }
        XCTAssertEqual(conversionError(0, as: String.self), ColumnConversionError(column: "n", expected: "TEXT", found: "INTEGER"))
        XCTAssertEqual(conversionError(0, as: Data.self), ColumnConversionError(column: "n", expected: "BLOB", found: "INTEGER"))
        XCTAssertEqual(conversionError(1, as: Int.self), ColumnConversionError(column: "r", expected: "INTEGER", found: "REAL"))
        XCTAssertEqual(conversionError(2, as: Int64.self), ColumnConversionError(column: "t", expected: "INTEGER", found: "TEXT"))
        XCTAssertEqual(conversionError(2, as: Double.self), ColumnConversionError(column: "t", expected: "REAL", found: "TEXT"))
        XCTAssertEqual(conversionError(2, as: Date.self)?.column, "t")
        XCTAssertEqual(conversionError(3, as: String.self), ColumnConversionError(column: "b", expected: "TEXT", found: "BLOB"))
        XCTAssertEqual(conversionError(4, as: Bool.self), ColumnConversionError(column: "flag", expected: "0 or 1", found: "INTEGER"))
        XCTAssertEqual(conversionError(5, as: UUID.self), ColumnConversionError(column: "id", expected: "an uppercase UUID string", found: "TEXT"))
        XCTAssertEqual(conversionError(6, as: Int.self)?.column, "alias")
        // Optional reads of a present value convert the same way.
        XCTAssertEqual(conversionError(2, as: Int?.self), ColumnConversionError(column: "t", expected: "INTEGER", found: "TEXT"))

        XCTAssertEqual(ColumnConversionError(column: "n", expected: "TEXT", found: "INTEGER").description,
                       "column n: expected TEXT, found INTEGER")
    }

    func testScalarConversionErrorNamesTheColumn() throws {
        let error = assertThrows(ColumnConversionError.self) {
            try connection.scalar("SELECT name AS parent_name FROM parents", as: Int.self)
        }
        XCTAssertEqual(error?.column, "parent_name")
        XCTAssertEqual(error?.found, "TEXT")
    }

    // MARK: Migration errors

    func testMigrationErrorDescriptionsNameTheMigration() {
        XCTAssertEqual(MigrationError.invalidFileName("create.sql").description,
                       "migration file name create.sql is not of the form NNNN_name.sql")
        XCTAssertEqual(MigrationError.duplicateVersion(3).description, "two migrations share the number 3")
        let mismatch = MigrationError.checksumMismatch(identifier: "0002_add_index",
                                                       recorded: String(repeating: "a", count: 64),
                                                       current: String(repeating: "b", count: 64)).description
        XCTAssertTrue(mismatch.contains("0002_add_index"), mismatch)
        XCTAssertTrue(mismatch.contains("aaaaaaaaaaaa"), mismatch)
        XCTAssertTrue(mismatch.contains("bbbbbbbbbbbb"), mismatch)
        let unknown = MigrationError.unknownMigrations(identifiers: ["0007_future", "0008_later"]).description
        XCTAssertTrue(unknown.contains("0007_future, 0008_later"), unknown)
        XCTAssertTrue(unknown.contains("newer version"), unknown)
    }
}
