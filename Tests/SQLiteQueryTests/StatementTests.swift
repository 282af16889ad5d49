import Foundation
import CSQLite
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

/// Preparing, binding, stepping and caching statements.
final class StatementTests: XCTestCase {
    private var connection: Connection!

    override func setUpWithError() throws {
        connection = try makeConnection()
        try connection.execute("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER);
            INSERT INTO people (name, age) VALUES ('Ann', 31), ('Bob', 42), ('Cid', NULL);
            """)
    }

    override func tearDown() {
        connection = nil
    }

    // MARK: Binding

    func testBindByIndex() throws {
        let statement = try connection.prepare("SELECT name FROM people WHERE age > ? AND age < ? ORDER BY name")
        XCTAssertEqual(statement.parameterCount, 2)
        XCTAssertNil(statement.parameterName(at: 1))
        try statement.bind(30, at: 1)
        try statement.bind(40, at: 2)
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: String.self), "Ann")
        XCTAssertFalse(try statement.step())
    }

    func testBindByNameWithEveryPrefix() throws {
        for prefix in [":", "@", "$"] {
            let statement = try connection.prepare("SELECT age FROM people WHERE name = \(prefix)who")
            XCTAssertEqual(statement.parameterName(at: 1), "\(prefix)who")
            try statement.bind("Bob", named: "\(prefix)who")
            XCTAssertTrue(try statement.step(), "prefix \(prefix)")
            XCTAssertEqual(try statement.column(0, as: Int.self), 42, "prefix \(prefix)")
        }
    }

    func testTheSameNameUsedTwiceIsOneParameter() throws {
        let statement = try connection.prepare("SELECT :x + :x")
        XCTAssertEqual(statement.parameterCount, 1)
        try statement.bind(21, named: ":x")
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: Int.self), 42)
    }

    func testUnknownParameterNameIsAnError() throws {
        let sql = "SELECT age FROM people WHERE name = :who"
        let statement = try connection.prepare(sql)
        let error = assertThrows(SQLiteError.self) { try statement.bind("Bob", named: ":whom") }
        XCTAssertEqual(error?.code, SQLITE_RANGE)
        XCTAssertEqual(error?.sql, sql)
        XCTAssertTrue(error?.message.contains(":whom") ?? false, error?.message ?? "")
        // The name must carry its prefix.
        XCTAssertEqual(assertThrows(SQLiteError.self) { try statement.bind("Bob", named: "who") }?.code, SQLITE_RANGE)
    }

    func testACachedStatementNeverKeepsAValueFromItsLastUse() throws {
        let sql = "SELECT count(*) FROM people WHERE age > ? OR name = ?"
        XCTAssertEqual(try connection.scalar(sql, [.integer(40), .text("Ann")], as: Int.self), 2)
        for arguments: [DatabaseValue] in [[.integer(40)], [], [.integer(1), .text("Ann"), .text("extra")]] {
            let error = assertThrows(SQLiteError.self) { _ = try connection.scalar(sql, arguments, as: Int.self) }
            XCTAssertEqual(error?.primaryCode, SQLITE_RANGE, "\(arguments.count) values")
        }
        XCTAssertEqual(try connection.scalar(sql, [.integer(100), .text("Cid")], as: Int.self), 1)
    }

    func testIndexOutOfRangeIsAnError() throws {
        let statement = try connection.prepare("SELECT ?")
        XCTAssertEqual(assertThrows(SQLiteError.self) { try statement.bind(1, at: 2) }?.code, SQLITE_RANGE)
        XCTAssertEqual(assertThrows(SQLiteError.self) { try statement.bind(1, at: 0) }?.code, SQLITE_RANGE)
    }

    func testUnboundParametersAreNull() throws {
        let statement = try connection.prepare("SELECT ? IS NULL")
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: Bool.self), true)
    }

    /// Text is bound from a buffer the statement keeps per parameter (``Statement/bindText(_:at:)``):
    /// whatever was bound before, longer or shorter, to this parameter or another, and whether a
    /// parameter is bound again or kept across a reset, every row holds the bytes last bound to it.
    /// Seeded: every kind of adversarial text (U+0000, NFC/NFD twins, every plane), lengths across
    /// each buffer size and past the largest kept, through `String`, `UUID`, `Optional` and
    /// `DatabaseValue`.
    func testBoundTextIsStoredByteForByteWhateverWasBoundBefore() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("STATEMENT_TEXT_SEED", default: 2611))
        try connection.execute("CREATE TABLE texts (a, b, c)")
        let insert = try connection.prepare("INSERT INTO texts (a, b, c) VALUES (?, ?, ?)")
        var bound: [DatabaseValue] = [.null, .null, .null]
        var expected: [[DatabaseValue]] = []
        for _ in 0..<PropertyTestSettings.scaled(3_000, by: "STATEMENT_TEXT_SCALE") {
            for parameter in 0..<3 where random.chance(0.7) {
                let text: String = switch random.int(0...3) {
                case 0: AdversarialText.string(using: &random)
                case 1: String(repeating: AdversarialText.piece(using: &random), count: random.int(1...40))
                case 2: String(repeating: "x", count: random.int(0...600))
                default: AdversarialText.twin(of: AdversarialText.string(using: &random))
                }
                switch random.int(0...4) {
                case 0:
                    let uuid = UUID()
                    try insert.bind(uuid, at: parameter + 1)
                    bound[parameter] = .text(uuid.uuidString)
                case 1:
                    let value: String? = random.chance(0.2) ? nil : text
                    try insert.bind(value, at: parameter + 1)
                    bound[parameter] = value.map(DatabaseValue.text) ?? .null
                case 2:
                    try insert.bind(DatabaseValue.text(text), at: parameter + 1)
                    bound[parameter] = .text(text)
                default:
                    try insert.bind(text, at: parameter + 1)
                    bound[parameter] = .text(text)
                }
            }
            try insert.execute()
            expected.append(bound)
        }
        let rows = try connection.prepare("SELECT a, b, c FROM texts ORDER BY rowid")
        var row = 0
        while try rows.step() {
            for column in 0..<3 {
                let found = try rows.column(column, as: DatabaseValue.self)
                guard case .text(let text) = expected[row][column], case .text(let foundText) = found else {
                    XCTAssertEqual(found, expected[row][column], "row \(row), column \(column)")
                    continue
                }
                XCTAssertTrue(foundText.utf8.elementsEqual(text.utf8), "row \(row), column \(column): \(foundText.debugDescription) for \(text.debugDescription)")
            }
            row += 1
        }
        XCTAssertEqual(row, expected.count)
    }

    /// A bind refused because the statement is running, or has finished and not been reset,
    /// leaves the text SQLite reads as it was: the buffer it lives in is neither rewritten nor
    /// freed to make room for a longer text.
    func testABindWhileTheStatementRunsIsRefusedAndChangesNothing() throws {
        let statement = try connection.prepare("SELECT ?, name FROM people ORDER BY id")
        try statement.bind("first", at: 1)
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: String.self), "first")
        XCTAssertEqual(assertThrows(SQLiteError.self) { try statement.bind("later", at: 1) }?.code, SQLITE_MISUSE)
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: String.self), "first")
        statement.reset()
        try statement.bind("later", at: 1)
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: String.self), "later")
        statement.reset()
        XCTAssertEqual(assertThrows(SQLiteError.self) { try statement.bind("out of range", at: 3) }?.code, SQLITE_RANGE)

        let finished = try connection.prepare("SELECT ?")
        try finished.bind("kept", at: 1)
        XCTAssertTrue(try finished.step())
        XCTAssertFalse(try finished.step())
        for text in ["much longer than the text bound before, to make a buffer grow", "short"] {
            XCTAssertEqual(assertThrows(SQLiteError.self) { try finished.bind(text, at: 1) }?.code, SQLITE_MISUSE)
        }
        finished.reset()
        XCTAssertTrue(try finished.step())
        XCTAssertEqual(try finished.column(0, as: String.self), "kept")
    }

    // MARK: Stepping

    func testStepResetAndRerun() throws {
        let statement = try connection.prepare("SELECT name FROM people ORDER BY id")
        var first: [String] = []
        while try statement.step() { first.append(try statement.column(0)) }
        XCTAssertEqual(first, ["Ann", "Bob", "Cid"])

        statement.reset()
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: String.self), "Ann", "reset did not rewind")

        statement.reset()
        var second: [String] = []
        while try statement.step() { second.append(try statement.column(0)) }
        XCTAssertEqual(second, first)
    }

    func testResetKeepsBindingsAndResetAndClearBindingsClearsThem() throws {
        let statement = try connection.prepare("SELECT ?")
        try statement.bind("kept", at: 1)
        XCTAssertTrue(try statement.step())
        statement.reset()
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: String.self), "kept")
        statement.resetAndClearBindings()
        XCTAssertTrue(try statement.step())
        XCTAssertTrue(statement.isNull(at: 0))
    }

    func testRerunInsertWithNewBindings() throws {
        let insert = try connection.prepare("INSERT INTO people (name, age) VALUES (:name, :age)")
        for (name, age) in [("Dee", 20), ("Eve", 21), ("Fay", 22)] {
            try insert.bind(name, named: ":name")
            try insert.bind(age, named: ":age")
            try insert.execute()
            XCTAssertEqual(connection.changes, 1)
        }
        XCTAssertEqual(try connection.column("SELECT age FROM people WHERE age BETWEEN 20 AND 29 ORDER BY age", as: Int.self),
                       [20, 21, 22])
        XCTAssertEqual(try connection.scalar("SELECT name FROM people WHERE id = ?", [.integer(connection.lastInsertRowID)],
                                             as: String.self), "Fay")
    }

    func testFailedStepCanBeRetriedAfterFixingBindings() throws {
        let insert = try connection.prepare("INSERT INTO people (name) VALUES (?)")
        try insert.bind(String?.none, at: 1)
        let error = assertThrows(SQLiteError.self) { try insert.step() }
        XCTAssertEqual(error?.code, ResultCode.notNullConstraint)
        try insert.bind("Gus", at: 1)
        XCTAssertFalse(try insert.step())
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM people WHERE name = 'Gus'", as: Int.self), 1)
    }

    func testColumnsAndReadOnly() throws {
        let select = try connection.prepare("SELECT name AS who, age, age * 2 FROM people WHERE id = 3")
        XCTAssertEqual(select.columnCount, 3)
        XCTAssertEqual((0..<3).map { select.columnName(at: $0) }, ["who", "age", "age * 2"])
        XCTAssertTrue(select.isReadOnly)
        XCTAssertTrue(try select.step())
        XCTAssertFalse(select.isNull(at: 0))
        XCTAssertTrue(select.isNull(at: 1))
        XCTAssertEqual(try select.column(1, as: Int?.self), nil)
        XCTAssertFalse(try connection.prepare("DELETE FROM people").isReadOnly)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM people", as: Int.self), 3, "preparing ran the statement")
    }

    // MARK: One statement per prepare

    func testMultipleStatementsInOnePrepareAreRefused() throws {
        let sql = "SELECT 1; DELETE FROM people"
        let error = assertThrows(SQLiteError.self) { try connection.prepare(sql) }
        XCTAssertEqual(error?.code, SQLITE_MISUSE)
        XCTAssertEqual(error?.sql, sql)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM people", as: Int.self), 3)
        XCTAssertNotNil(assertThrows(SQLiteError.self) { try connection.cachedStatement(sql) })
        XCTAssertNotNil(assertThrows(SQLiteError.self) { try connection.prepare("SELECT 1;;SELECT 2") })
    }

    func testTrailingSemicolonsWhitespaceAndCommentsAreAllowed() throws {
        for sql in ["SELECT 7;", "SELECT 7 ;  \n\t", "SELECT 7;;", "SELECT 7; -- the answer", "SELECT 7 /* c */;"] {
            let statement = try connection.prepare(sql)
            XCTAssertTrue(try statement.step(), sql)
            XCTAssertEqual(try statement.column(0, as: Int.self), 7, sql)
        }
    }

    func testEmptySQLIsAMeaningfulError() throws {
        for sql in ["", "  ", "-- nothing"] {
            let error = assertThrows(SQLiteError.self) { try connection.prepare(sql) }
            XCTAssertNotEqual(error?.code, 0, "an error that says \"not an error\" for \(sql.debugDescription)")
        }
    }

    // MARK: Statement cache

    func testCachedStatementIsReusedForTheSameSQL() throws {
        let before = connection.cachedStatementCount
        let first = try connection.cachedStatement("SELECT name FROM people WHERE id = ?")
        XCTAssertEqual(connection.cachedStatementCount, before + 1)
        let again = try connection.cachedStatement("SELECT name FROM people WHERE id = ?")
        XCTAssertTrue(first === again)
        XCTAssertEqual(connection.cachedStatementCount, before + 1)

        let other = try connection.cachedStatement("SELECT age FROM people WHERE id = ?")
        XCTAssertFalse(first === other)
        XCTAssertEqual(connection.cachedStatementCount, before + 2)
        // The cache key is the exact text.
        _ = try connection.cachedStatement("SELECT name FROM people WHERE id = ? ")
        XCTAssertEqual(connection.cachedStatementCount, before + 3)
        // Uncached statements do not enter the cache, and failed preparations neither.
        _ = try connection.prepare("SELECT 123")
        XCTAssertNil(try? connection.cachedStatement("SELECT nonsense FROM nowhere"))
        XCTAssertEqual(connection.cachedStatementCount, before + 3)
    }

    /// Statements are found by their text's address first (literals), by its bytes otherwise: the
    /// same text built anew finds the same statement, canonically equivalent text does not, and
    /// texts built and freed by the hundred (addresses reused, the remembered ones forgotten) always
    /// find their own statement. Seeded.
    func testCachedStatementsAreFoundByTheirExactBytesWhereverTheTextLives() throws {
        let literal = try connection.cachedStatement("SELECT name FROM people WHERE name = 'Jos\u{E9}' OR id = ?")
        let rebuilt = try connection.cachedStatement("SELECT name FROM people WHERE name = 'Jos" + "\u{E9}' OR id = ?")
        XCTAssertTrue(literal === rebuilt)
        let decomposed = try connection.cachedStatement("SELECT name FROM people WHERE name = 'Jose\u{301}' OR id = ?")
        XCTAssertFalse(literal === decomposed, "canonically equivalent SQL is other SQL")
        // Texts of up to 15 bytes live inside the `String` and are found by their bytes alone.
        let shortComposed = try connection.cachedStatement("SELECT '\u{E9}'")
        let shortDecomposed = try connection.cachedStatement("SELECT 'e\u{301}'")
        XCTAssertFalse(shortComposed === shortDecomposed, "canonically equivalent short SQL is other SQL")
        XCTAssertTrue(try shortDecomposed.step())
        XCTAssertEqual(try shortDecomposed.column(0, as: String.self).utf8.count, 3)
        shortDecomposed.reset()
        XCTAssertTrue(try connection.cachedStatement("SELECT '" + "\u{E9}'") === shortComposed)

        var random = SplitMix64(seed: 21)
        print("StatementTests: statement cache, seed 21")
        var statements: [Int: Statement] = [:]
        for _ in 0..<2_000 {
            let value = Int.random(in: 0..<400, using: &random)
            // Short texts live inline and are found by their bytes; long ones on the heap, found by
            // their address first.
            let sql = String(repeating: " ", count: Int.random(in: 0..<3, using: &random))
                + (Bool.random(using: &random) ? "SELECT \(value)" : "SELECT \(value) AS value_of_this_statement")
            let statement = try connection.cachedStatement(sql)
            XCTAssertTrue(try statement.step())
            XCTAssertEqual(try statement.column(0, as: Int.self), value, sql)
            statement.reset()
            if sql.first != " " && sql.count < 16 {
                if let earlier = statements[value] { XCTAssertTrue(earlier === statement, sql) }
                statements[value] = statement
            }
        }
    }

    func testCachedStatementComesBackRewound() throws {
        let statement = try connection.cachedStatement("SELECT name FROM people ORDER BY id")
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try statement.column(0, as: String.self), "Ann")
        XCTAssertTrue(try statement.step())
        let again = try connection.cachedStatement("SELECT name FROM people ORDER BY id")
        XCTAssertTrue(try again.step())
        XCTAssertEqual(try again.column(0, as: String.self), "Ann")
    }

    func testScalarAndRun() throws {
        XCTAssertEqual(try connection.scalar("SELECT age FROM people WHERE name = ?", [.text("Ann")], as: Int.self), 31)
        XCTAssertNil(try connection.scalar("SELECT age FROM people WHERE name = ?", [.text("Nobody")], as: Int.self))
        XCTAssertEqual(try connection.scalar("SELECT age FROM people WHERE name = ?", [.text("Cid")], as: Int?.self),
                       .some(nil))
        try connection.run("UPDATE people SET age = ? WHERE name = ?", [.integer(50), .text("Cid")])
        XCTAssertEqual(connection.changes, 1)
        XCTAssertEqual(try connection.scalar("SELECT age FROM people WHERE name = ?", [.text("Cid")], as: Int.self), 50)
    }
}
