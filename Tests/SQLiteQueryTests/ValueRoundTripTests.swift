import Foundation
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

/// Every `SQLiteValue` type goes into a real table through a bound parameter and comes back out of a
/// result column unchanged, stored in the storage class the documentation promises.
final class ValueRoundTripTests: XCTestCase {
    private var connection: Connection!

    override func setUpWithError() throws {
        connection = try makeConnection()
    }

    override func tearDown() {
        connection = nil
    }

    /// Stores `value` as the only row of a new table whose column `v` is declared `declaredType`,
    /// then reads it back as `Value`.
    private func roundTrip<Value: SQLiteValue>(_ value: Value, declaredType: String = "") throws -> Value {
        try connection.execute("DROP TABLE IF EXISTS t; CREATE TABLE t (v \(declaredType))")
        let insert = try connection.prepare("INSERT INTO t (v) VALUES (?)")
        try insert.bind(value, at: 1)
        try insert.execute()
        let select = try connection.prepare("SELECT v FROM t")
        XCTAssertTrue(try select.step(), "the inserted row is missing")
        let read = try select.column(0, as: Value.self)
        XCTAssertFalse(try select.step(), "more than one row")
        return read
    }

    /// SQLite's `typeof(v)` of the row stored by the last ``roundTrip(_:declaredType:)``.
    private func storedType() throws -> String? {
        try connection.scalar("SELECT typeof(v) FROM t", as: String.self)
    }

    // MARK: Integers

    func testIntRoundTrips() throws {
        for value in [0, 1, -1, 42, 1 << 40, Int.max, Int.min] {
            XCTAssertEqual(try roundTrip(value, declaredType: "INTEGER"), value)
            XCTAssertEqual(try storedType(), "integer")
        }
    }

    func testInt64ExtremesRoundTrip() throws {
        for value in [Int64.min, Int64.min + 1, -1, 0, Int64.max - 1, Int64.max] {
            XCTAssertEqual(try roundTrip(value, declaredType: "INTEGER"), value)
            XCTAssertEqual(try storedType(), "integer")
        }
        // Also in a column without a declared type, where no affinity applies.
        XCTAssertEqual(try roundTrip(Int64.max), Int64.max)
        XCTAssertEqual(try connection.scalar("SELECT v = 9223372036854775807 FROM t", as: Bool.self), true)
    }

    func testBoolRoundTripsAsZeroOrOne() throws {
        XCTAssertEqual(try roundTrip(true, declaredType: "INTEGER"), true)
        XCTAssertEqual(try connection.scalar("SELECT v FROM t", as: Int.self), 1)
        XCTAssertEqual(try roundTrip(false, declaredType: "INTEGER"), false)
        XCTAssertEqual(try connection.scalar("SELECT v FROM t", as: Int.self), 0)
        XCTAssertEqual(try storedType(), "integer")
    }

    // MARK: Doubles

    func testDoubleRoundTripsBitForBit() throws {
        let values: [Double] = [0, 1.5, -2.25, .pi, 0.1, 1e300, -1e-300, .greatestFiniteMagnitude,
                                .leastNonzeroMagnitude, -.leastNormalMagnitude, .infinity, -.infinity]
        for value in values {
            let read = try roundTrip(value, declaredType: "REAL")
            XCTAssertEqual(read.bitPattern, value.bitPattern, "\(value) came back as \(read)")
            XCTAssertEqual(try storedType(), "real")
        }
    }

    func testNegativeZero() throws {
        // Without a declared type nothing converts the value: the sign bit survives.
        let untyped = try roundTrip(-0.0 as Double)
        XCTAssertEqual(untyped.bitPattern, (-0.0 as Double).bitPattern)
        XCTAssertEqual(untyped.sign, .minus)
        // A REAL column stores whole numbers as integers (an SQLite storage optimization), so -0.0
        // comes back as 0.0: equal as a Double, but without its sign.
        let real = try roundTrip(-0.0 as Double, declaredType: "REAL")
        XCTAssertEqual(real, 0)
        XCTAssertEqual(try storedType(), "real")
    }

    func testWholeDoubleInRealColumnComesBackAsDouble() throws {
        XCTAssertEqual(try roundTrip(3.0, declaredType: "REAL"), 3.0)
        XCTAssertEqual(try storedType(), "real")
    }

    func testNaNIsStoredAsNull() throws {
        XCTAssertNil(try roundTrip(Double?.some(.nan), declaredType: "REAL"))
        XCTAssertEqual(try storedType(), "null")
    }

    // MARK: Strings

    func testStringRoundTrips() throws {
        for value in ["a", "hello, world", "line 1\nline 2\r\n\ttab", "quote ' and \" and ;", "日本語のテキスト"] {
            XCTAssertEqual(try roundTrip(value, declaredType: "TEXT"), value)
            XCTAssertEqual(try storedType(), "text")
        }
    }

    func testEmptyStringIsTextNotNull() throws {
        XCTAssertEqual(try roundTrip("", declaredType: "TEXT"), "")
        XCTAssertEqual(try storedType(), "text")
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM t WHERE v IS NULL", as: Int.self), 0)
        XCTAssertEqual(try roundTrip(String?.some(""), declaredType: "TEXT"), .some(""))
        XCTAssertEqual(try roundTrip(String?.none, declaredType: "TEXT"), nil)
        XCTAssertEqual(try storedType(), "null")
    }

    func testStringWithNULBytesInside() throws {
        let value = "a\u{0}b\u{0}\u{0}c\u{0}"
        let read = try roundTrip(value, declaredType: "TEXT")
        XCTAssertEqual(Array(read.utf8), Array(value.utf8))
        XCTAssertEqual(read.utf8.count, 7)
        XCTAssertEqual(try connection.scalar("SELECT length(CAST(v AS BLOB)) FROM t", as: Int.self), 7)
    }

    func testDecomposedTextStaysDecomposed() throws {
        let nfd = "Cafe\u{301} Zu\u{308}rich"
        let read = try roundTrip(nfd, declaredType: "TEXT")
        XCTAssertEqual(Array(read.utf8), Array(nfd.utf8))
        XCTAssertNotEqual(Array(read.utf8), Array(nfd.precomposedStringWithCanonicalMapping.utf8))
        XCTAssertEqual(try connection.scalar("SELECT hex(v) FROM t", as: String.self),
                       "43616665CC81205A75CC8872696368")
        // NFC input is not decomposed either.
        let nfc = "Caf\u{E9}"
        XCTAssertEqual(Array(try roundTrip(nfc, declaredType: "TEXT").utf8), [0x43, 0x61, 0x66, 0xC3, 0xA9])
    }

    func testEmojiRoundTrip() throws {
        let value = "🏋️‍♀️ family: 👩‍👩‍👧‍👦 flag: 🇸🇪 skin: 👍🏽"
        let read = try roundTrip(value, declaredType: "TEXT")
        XCTAssertEqual(Array(read.utf8), Array(value.utf8))
    }

    func testHugeStringRoundTrip() throws {
        let chunk = "0123456789abcdefé🙂\n"   // multi-byte characters, so a byte-counting slip shows
        let value = String(repeating: chunk, count: 20 * 1024 * 1024 / chunk.utf8.count + 1)
        XCTAssertGreaterThan(value.utf8.count, 20 * 1024 * 1024)
        let read = try roundTrip(value, declaredType: "TEXT")
        XCTAssertEqual(read.utf8.count, value.utf8.count)
        XCTAssertTrue(Array(read.utf8) == Array(value.utf8))
    }

    // MARK: Data

    func testDataRoundTrip() throws {
        let value = Data((0...255).map { UInt8($0) } + [0, 0, 255])
        XCTAssertEqual(try roundTrip(value, declaredType: "BLOB"), value)
        XCTAssertEqual(try storedType(), "blob")
    }

    func testEmptyDataIsBlobNotNull() throws {
        XCTAssertEqual(try roundTrip(Data(), declaredType: "BLOB"), Data())
        XCTAssertEqual(try storedType(), "blob")
        XCTAssertEqual(try connection.scalar("SELECT length(v) FROM t", as: Int.self), 0)
        XCTAssertEqual(try roundTrip(Data?.some(Data()), declaredType: "BLOB"), .some(Data()))
        XCTAssertEqual(try roundTrip(Data?.none, declaredType: "BLOB"), nil)
        XCTAssertEqual(try storedType(), "null")
    }

    func testHugeBlobRoundTrip() throws {
        // A period of 251 bytes (a prime) never lines up with SQLite's pages, so a misplaced page shows.
        let value = Data((0..<(20 * 1024 * 1024 + 3)).map { UInt8($0 % 251) })
        let read = try roundTrip(value, declaredType: "BLOB")
        XCTAssertEqual(read.count, value.count)
        XCTAssertTrue(read == value)
    }

    // MARK: Dates

    func testDateRoundTripsExactly() throws {
        let dates: [Date] = [
            Date(),
            Date(timeIntervalSince1970: 0),
            Date(timeIntervalSince1970: -1_234_567_890.5),          // 1930
            Date(timeIntervalSince1970: -5_000_000_000.000_001),    // 1811
            Date(timeIntervalSince1970: 4_200_000_000.25),          // 2103
            Date(timeIntervalSince1970: 32_503_680_000.125),        // 3000
            Date(timeIntervalSinceReferenceDate: 791_029_800.123456),
            Date(timeIntervalSinceReferenceDate: -0.000_001),
            Date(timeIntervalSinceReferenceDate: 0),
            .distantPast, .distantFuture,
        ]
        for date in dates {
            let read = try roundTrip(date, declaredType: "REAL")
            XCTAssertEqual(read.timeIntervalSinceReferenceDate.bitPattern, date.timeIntervalSinceReferenceDate.bitPattern,
                           "\(date.timeIntervalSinceReferenceDate) came back as \(read.timeIntervalSinceReferenceDate)")
        }
    }

    func testDateFromNowRoundTripsBitwise() throws {
        for _ in 0..<50 {
            let now = Date()
            let read = try roundTrip(now, declaredType: "REAL")
            XCTAssertEqual(read.timeIntervalSinceReferenceDate.bitPattern, now.timeIntervalSinceReferenceDate.bitPattern)
            XCTAssertEqual(read, now)
        }
    }

    func testMicrosecondsAreKept() throws {
        let date = Date(timeIntervalSinceReferenceDate: 791_029_800.000_001)
        let read = try roundTrip(date, declaredType: "REAL")
        XCTAssertNotEqual(read, Date(timeIntervalSinceReferenceDate: 791_029_800))
        let microseconds = (read.timeIntervalSinceReferenceDate * 1_000_000).rounded()
        XCTAssertEqual(microseconds, 791_029_800_000_001)
    }

    func testDateIsStoredAsSecondsSinceReferenceDate() throws {
        _ = try roundTrip(Date(timeIntervalSince1970: 978_307_200 + 90.5), declaredType: "REAL")
        XCTAssertEqual(try storedType(), "real")
        XCTAssertEqual(try connection.scalar("SELECT v FROM t", as: Double.self), 90.5)
        // Readable by SQLite's own date functions with the documented epoch offset.
        XCTAssertEqual(try connection.scalar("SELECT datetime(v + 978307200, 'unixepoch') FROM t", as: String.self),
                       "2001-01-01 00:01:30")
    }

    func testWholeSecondDateStoredAsIntegerReadsBack() throws {
        try connection.execute("CREATE TABLE w (v); INSERT INTO w VALUES (60)")
        XCTAssertEqual(try connection.scalar("SELECT v FROM w", as: Date.self), Date(timeIntervalSinceReferenceDate: 60))
    }

    // MARK: UUIDs

    func testUUIDRoundTripsAsUppercaseText() throws {
        let uuid = UUID()
        XCTAssertEqual(try roundTrip(uuid, declaredType: "TEXT"), uuid)
        XCTAssertEqual(try storedType(), "text")
        let stored = try connection.scalar("SELECT v FROM t", as: String.self)
        XCTAssertEqual(stored, uuid.uuidString)
        XCTAssertEqual(stored?.count, 36)
        XCTAssertEqual(stored, stored?.uppercased())
    }

    // MARK: Optionals

    func testOptionalsRoundTripSomeAndNil() throws {
        let uuid = UUID()
        let date = Date()
        XCTAssertEqual(try roundTrip(Int?.some(-7)), -7)
        XCTAssertEqual(try roundTrip(Int64?.some(.min)), .min)
        XCTAssertEqual(try roundTrip(Double?.some(-.infinity)), -.infinity)
        XCTAssertEqual(try roundTrip(String?.some("x")), "x")
        XCTAssertEqual(try roundTrip(Data?.some(Data([1, 2]))), Data([1, 2]))
        XCTAssertEqual(try roundTrip(Bool?.some(true)), true)
        XCTAssertEqual(try roundTrip(Date?.some(date)), date)
        XCTAssertEqual(try roundTrip(UUID?.some(uuid)), uuid)
        XCTAssertEqual(try roundTrip(Int?.some(0)), 0)
        XCTAssertEqual(try roundTrip(Bool?.some(false)), false)
    }

    func testOptionalNilIsStoredAsNullForEveryType() throws {
        func assertNil<Value: SQLiteValue & Equatable>(_ type: Value.Type, line: UInt = #line) throws {
            XCTAssertNil(try roundTrip(Value?.none), "\(Value.self)", line: line)
            XCTAssertEqual(try storedType(), "null", "\(Value.self)", line: line)
            XCTAssertEqual(try connection.scalar("SELECT count(*) FROM t WHERE v IS NULL", as: Int.self), 1, line: line)
        }
        try assertNil(Int.self)
        try assertNil(Int64.self)
        try assertNil(Double.self)
        try assertNil(String.self)
        try assertNil(Data.self)
        try assertNil(Bool.self)
        try assertNil(Date.self)
        try assertNil(UUID.self)
    }

    func testNullReadAsNonOptionalThrows() throws {
        _ = try roundTrip(Int?.none, declaredType: "INTEGER")
        let select = try connection.prepare("SELECT v FROM t")
        XCTAssertTrue(try select.step())
        XCTAssertTrue(select.isNull(at: 0))
        let error = assertThrows(ColumnConversionError.self) { try select.column(0, as: Int.self) }
        XCTAssertEqual(error, ColumnConversionError(column: "v", expected: "INTEGER", found: "NULL"))
    }

    // MARK: DatabaseValue

    func testDatabaseValueRoundTripsEveryStorageClass() throws {
        let values: [DatabaseValue] = [.null, .integer(.min), .integer(7), .real(2.5), .text(""), .text("e\u{301}"),
                                       .blob(Data()), .blob(Data([0, 1, 2]))]
        for value in values {
            let read = try roundTrip(value)
            XCTAssertEqual(read, value)
            if case .text(let text) = value, case .text(let readText) = read {
                XCTAssertEqual(Array(readText.utf8), Array(text.utf8))
            }
        }
    }

    func testBindingAnArrayOfDatabaseValues() throws {
        try connection.execute("CREATE TABLE many (a, b, c, d, e)")
        try connection.run("INSERT INTO many VALUES (?, ?, ?, ?, ?)",
                           [.integer(1), .real(0.5), .text("t"), .blob(Data([9])), .null])
        XCTAssertEqual(try connection.scalar("SELECT typeof(a) || typeof(b) || typeof(c) || typeof(d) || typeof(e) FROM many",
                                             as: String.self),
                       "integerrealtextblobnull")
        let row = try connection.prepare("SELECT * FROM many")
        XCTAssertTrue(try row.step())
        XCTAssertEqual(try (0..<5).map { try row.column($0, as: DatabaseValue.self) },
                       [.integer(1), .real(0.5), .text("t"), .blob(Data([9])), .null])
    }
}

extension ValueRoundTripTests {
    /// The hand-written UUID text is Foundation's, both ways, for many random UUIDs.
    func testUUIDTextMatchesFoundation() {
        for _ in 0..<10_000 {
            let uuid = UUID()
            XCTAssertEqual(uuid.text, uuid.uuidString)
            let lower = uuid.uuidString.lowercased()
            let parsed = Array(lower.utf8).withUnsafeBufferPointer { UUIDText.parse($0) }
            XCTAssertEqual(parsed, uuid)
            XCTAssertEqual(UUID(text: lower), uuid)
        }
        XCTAssertNil(UUID(text: "not a uuid"))
        for bad in ["", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8XC36C-495A-93FC-0C247A3E6E5F",
                    "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF"] {
            XCTAssertNil(Array(bad.utf8).withUnsafeBufferPointer { UUIDText.parse($0) }, bad)
        }
    }

    /// A stored id is read only as it is bound, uppercase: another program's lowercase spelling of
    /// the same UUID (Python's `str(uuid4())`) is refused, for no lookup by id would find it, and
    /// read as its uppercase form it was listed under an id no command could reach.
    func testAStoredUUIDIsReadOnlyInUppercase() throws {
        let connection = try Connection(path: ":memory:")
        let uuid = UUID()
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_UUID_CASE_SEED", default: 0x5555))
        for _ in 0..<200 {
            // Some of the letters in lowercase: at least one, when the text has any.
            let mixed = String(uuid.uuidString.map { $0.isLetter && random.chance(0.5) ? Character($0.lowercased()) : $0 })
            let spelling = mixed == uuid.uuidString && uuid.uuidString.contains(where: \.isLetter) ? uuid.uuidString.lowercased() : mixed
            let statement = try connection.prepare("SELECT ?1")
            try statement.bind(DatabaseValue.text(spelling), at: 1)
            XCTAssertTrue(try statement.step())
            if spelling == uuid.uuidString {
                XCTAssertEqual(try statement.column(0, as: UUID.self), uuid)
            } else {
                XCTAssertThrowsError(try statement.column(0, as: UUID.self), spelling)
            }
            XCTAssertEqual(UUID(text: spelling), uuid, "typed ids are read in either case")
        }
    }
}
