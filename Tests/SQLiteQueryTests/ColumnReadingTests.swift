import CSQLite
import Foundation
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

/// Every `SQLiteValue` type reads a column of every storage class exactly as the `sqlite3_column_*`
/// functions tell it: the value when the storage class is the type's, an error otherwise. The
/// readers go through `sqlite3_column_value` (`ColumnValue`); the oracle here asks the column
/// functions themselves, on a second statement stepping over the same rows.
final class ColumnReadingTests: XCTestCase {
    /// Rows of one column holding adversarial values of every storage class (integers at the
    /// extremes and 0/1, reals from random bit patterns with infinities, -0.0 and subnormals, texts
    /// with NUL, invalid UTF-8, NFC/NFD twins and UUIDs in both cases, blobs empty and of UUID
    /// bytes, NULL), each read by every type in a random order, several times.
    func testEveryTypeReadsEveryStorageClassAsTheColumnFunctionsTellIt() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_COLUMN_READING_SEED", default: 0x434F_4C55_4D4E_5244)
        var random = SplitMix64(seed: seed)
        let connection = try makeConnection()
        try connection.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, v)")
        let insert = try connection.prepare("INSERT INTO t (v) VALUES (?)")
        let rowCount = PropertyTestSettings.scaled(3_000, by: "LOGBOOK_PROPERTY_SCALE")
        for _ in 0..<rowCount {
            insert.reset()
            try Self.bindRandomValue(to: insert, using: &random)
            try insert.execute()
        }

        let readers = Self.readers
        let statement = try connection.prepare("SELECT v FROM t ORDER BY n")
        let oracle = try connection.prepare("SELECT v FROM t ORDER BY n")
        var row = 0
        var storageClasses = Set<Int32>()
        while try statement.step() {
            XCTAssertTrue(try oracle.step())
            storageClasses.insert(sqlite3_column_type(oracle.handle, 0))
            for _ in 0..<2 * readers.count {
                let reader = random.pick(readers)
                XCTAssertEqual(reader.read(statement), reader.expected(oracle.handle),
                               "row \(row) read as \(reader.name) (seed \(seed))")
            }
            row += 1
        }
        XCTAssertEqual(row, rowCount)
        XCTAssertEqual(storageClasses, [SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL])
    }

    /// A reader under test and what the column functions say it must read, both as text to compare.
    private struct Reader {
        let name: String
        let read: (Statement) -> String
        let expected: (OpaquePointer) -> String
    }

    private static func reader<Value: SQLiteValue>(_ type: Value.Type, expected: @escaping (OpaquePointer) -> Value?,
                                                   describe: @escaping (Value) -> String) -> Reader {
        Reader(name: "\(type)",
               read: { statement in
                   // Not `try?`, which would flatten an optional read's nil into "refused".
                   switch Result(catching: { try statement.column(0, as: Value.self) }) {
                   case .success(let value): describe(value)
                   case .failure: "refused"
                   }
               },
               expected: { oracle in expected(oracle).map(describe) ?? "refused" })
    }

    private static var readers: [Reader] {
        let integer: (OpaquePointer) -> Int64? = { sqlite3_column_type($0, 0) == SQLITE_INTEGER ? sqlite3_column_int64($0, 0) : nil }
        let real: (OpaquePointer) -> Double? = {
            [SQLITE_INTEGER, SQLITE_FLOAT].contains(sqlite3_column_type($0, 0)) ? sqlite3_column_double($0, 0) : nil
        }
        let text: (OpaquePointer) -> [UInt8]? = { oracle in
            guard sqlite3_column_type(oracle, 0) == SQLITE_TEXT else { return nil }
            guard let bytes = sqlite3_column_text(oracle, 0) else { return [] }
            return Array(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(oracle, 0))))
        }
        let blob: (OpaquePointer) -> Data? = { oracle in
            guard sqlite3_column_type(oracle, 0) == SQLITE_BLOB else { return nil }
            guard let bytes = sqlite3_column_blob(oracle, 0) else { return Data() }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(oracle, 0)))
        }
        /// What an optional reads: nil for NULL, else what the wrapped type reads (nil: refused).
        func optional<Wrapped>(_ oracle: OpaquePointer, _ wrapped: Wrapped?) -> Wrapped?? {
            sqlite3_column_type(oracle, 0) == SQLITE_NULL ? .some(nil) : wrapped.map { .some($0) }
        }
        let decoded: ([UInt8]) -> String = { String(decoding: $0, as: UTF8.self) }
        // String refuses text that is not UTF-8 (DatabaseValue, for any SQL's result, decodes it with U+FFFD).
        let validated: ([UInt8]) -> String? = { String(validating: $0, as: UTF8.self) }
        let described: (String) -> String = { "text \(Array($0.utf8))" }
        let bits: (Double) -> String = { "real \($0.bitPattern)" }
        return [
            reader(Int64.self, expected: integer, describe: { "integer \($0)" }),
            reader(Int.self, expected: { integer($0).map(Int.init) }, describe: { "integer \($0)" }),
            reader(Bool.self, expected: { integer($0).flatMap { $0 == 0 ? false : $0 == 1 ? true : nil } }, describe: { "\($0)" }),
            reader(Double.self, expected: real, describe: bits),
            reader(Date.self, expected: { real($0).map(Date.init(timeIntervalSinceReferenceDate:)) },
                   describe: { bits($0.timeIntervalSinceReferenceDate) }),
            reader(String.self, expected: { text($0).flatMap(validated) }, describe: described),
            reader(Data.self, expected: blob, describe: { "blob \(Array($0))" }),
            // Stored ids are read only in uppercase, as they are bound.
            reader(UUID.self, expected: { text($0).flatMap { text in UUID(uuidString: decoded(text)).flatMap { decoded(text) == $0.uuidString ? $0 : nil } } },
                   describe: { $0.uuidString }),
            reader(String?.self, expected: { optional($0, text($0).flatMap(validated)) },
                   describe: { $0.map(described) ?? "nil" }),
            reader(Int64?.self, expected: { optional($0, integer($0)) }, describe: { $0.map { "integer \($0)" } ?? "nil" }),
            reader(Data?.self, expected: { optional($0, blob($0)) }, describe: { $0.map { "blob \(Array($0))" } ?? "nil" }),
            reader(DatabaseValue.self, expected: { oracle in
                switch sqlite3_column_type(oracle, 0) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(oracle, 0))
                case SQLITE_FLOAT: .real(sqlite3_column_double(oracle, 0))
                case SQLITE_TEXT: .text(decoded(text(oracle)!))
                case SQLITE_BLOB: .blob(blob(oracle)!)
                default: .null
                }
            }, describe: { value in
                switch value {
                case .integer(let integer): "integer \(integer)"
                case .real(let real): bits(real)
                case .text(let text): described(text)
                case .blob(let blob): "blob \(Array(blob))"
                case .null: "null"
                }
            }),
        ]
    }

    /// Binds one value of a random storage class, built to sit on the edges of the readers' checks.
    private static func bindRandomValue(to statement: Statement, using random: inout SplitMix64) throws {
        switch random.int(0...5) {
        case 0:
            let integer = random.chance(0.5) ? random.pick([Int64.min, Int64.max, 0, 1, -1, 2, 1 << 53, (1 << 53) + 1])
                                             : Int64(bitPattern: random.next())
            try statement.bind(integer, at: 1)
        case 1:
            let real = random.chance(0.3) ? random.pick([0.0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude,
                                                         .greatestFiniteMagnitude, 1.0, 0.5, 9_007_199_254_740_993])
                                          : Double(bitPattern: random.next())
            try statement.bind(real.isNaN ? 1.5 : real, at: 1)
        case 2:
            let uuid = randomUUID(using: &random).uuidString
            let text = random.chance(0.2) ? random.pick([uuid, uuid.lowercased(), "", "0", "1", "\u{0}", "a\u{0}b", "e\u{301}", "\u{E9}"])
                                          : AdversarialText.string(using: &random)
            try statement.bind(text, at: 1)
        case 3:
            // Text that is not UTF-8: lone continuation bytes, a truncated sequence, an overlong NUL.
            let bytes: [UInt8] = random.pick([[0x80], [0x61, 0xC3], [0xC0, 0x80], [0xFF, 0xFE, 0x41], [0xED, 0xA0, 0x80]])
            bytes.withUnsafeBufferPointer { XCTAssertEqual(statement.bindText($0, at: 1), SQLITE_OK) }
        case 4:
            let blob = random.chance(0.3) ? Data(randomUUID(using: &random).uuidString.utf8)
                                          : Data((0..<random.int(0...40)).map { _ in UInt8.random(in: 0...255, using: &random) })
            try statement.bind(blob, at: 1)
        default:
            try statement.bind(DatabaseValue.null, at: 1)
        }
    }

    private static func randomUUID(using random: inout SplitMix64) -> UUID {
        let (high, low) = (random.next(), random.next())
        return withUnsafeBytes(of: (high, low)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
}
