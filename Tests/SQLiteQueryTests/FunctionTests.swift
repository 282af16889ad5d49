import Foundation
import CSQLite
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

/// `String.comparisonKey`, the `swift_key` SQL function every connection has, and
/// application-defined functions.
final class FunctionTests: XCTestCase {
    private struct Refusal: Error, CustomStringConvertible {
        var description: String { "refused by the test function" }
    }

    private var connection: Connection!

    override func setUpWithError() throws {
        connection = try makeConnection()
    }

    override func tearDown() {
        connection = nil
    }

    // MARK: String.comparisonKey

    func testComparisonKeyOfCanonicallyEquivalentStringsIsEqual() {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
        XCTAssertEqual(Array(composed.comparisonKey.utf8), [0xC3, 0xA9])
        XCTAssertEqual(Array(decomposed.comparisonKey.utf8), [0xC3, 0xA9])
        // Angstrom sign and A with ring above are canonically equivalent; the key is the NFC letter.
        XCTAssertEqual(Array("\u{212B}".comparisonKey.utf8), Array("\u{C5}".utf8))
        XCTAssertEqual(Array("A\u{30A}".comparisonKey.utf8), Array("\u{C5}".utf8))
        // Hangul jamo compose.
        XCTAssertEqual("\u{1100}\u{1161}".comparisonKey.unicodeScalars.map(\.value), [0xAC00])
    }

    func testComparisonKeyLeavesASCIIAndNFCUnchanged() {
        for text in ["", "abc", "Burpee 2.0", "UPPER lower 123 !@#", "\u{0}"] {
            XCTAssertEqual(Array(text.comparisonKey.utf8), Array(text.utf8))
        }
        let nfc = "Z\u{FC}rich caf\u{E9} \u{65E5}\u{672C} \u{1F600}"
        XCTAssertEqual(Array(nfc.comparisonKey.utf8), Array(nfc.utf8))
    }

    /// The ASCII shortcut reads eight bytes at a time: a combining mark at any offset of a string
    /// of any length up to five words, small (inline) or not, or bridged from `NSString`, still
    /// gets its NFC key.
    func testComparisonKeyFindsACombiningMarkAtEveryOffset() {
        for length in 0...40 {
            let ascii = String(repeating: "e", count: length)
            XCTAssertEqual(ascii.comparisonKey, ascii)
            for offset in 0...length {
                let text = String(ascii.prefix(offset)) + "e\u{301}" + String(ascii.dropFirst(offset))
                let expected = Array(text.precomposedStringWithCanonicalMapping.utf8)
                XCTAssertEqual(Array(text.comparisonKey.utf8), expected, "length \(length), offset \(offset)")
                XCTAssertEqual(Array((NSString(string: text) as String).comparisonKey.utf8), expected, "bridged, length \(length)")
            }
        }
    }

    /// The shortcut for text below U+0300 gives Foundation's NFC: every such scalar, alone and
    /// after each letter that precedes a combining mark in some composition.
    func testComparisonKeyBelowCombiningMarksIsFoundationsNFC() {
        for value in UInt32(0x80)..<0x300 {
            let scalar = String(Character(Unicode.Scalar(value)!))
            for text in [scalar, "A" + scalar, "e" + scalar + "e", scalar + scalar, "\u{C5}" + scalar] {
                XCTAssertEqual(Array(text.comparisonKey.utf8), Array(text.precomposedStringWithCanonicalMapping.utf8),
                               "U+\(String(value, radix: 16))")
            }
        }
    }

    func testComparisonKeyDoesNotFoldCaseOrCompatibilityForms() {
        XCTAssertNotEqual("A".comparisonKey, "a".comparisonKey)
        // "fi" ligature is only compatibility-equivalent to "fi", not canonically: Swift says they differ.
        XCTAssertNotEqual(Array("\u{FB01}".comparisonKey.utf8), Array("fi".utf8))
    }

    func testComparisonKeyByteOrderIsSwiftStringOrder() {
        let strings = ["b", "a", "B", "e\u{301}x", "\u{E9}a", "e", "f", "\u{E4}", "a\u{308}b", "z", "\u{1F600}", "", "Z",
                       "\u{212B}x", "\u{C5}a", "10", "9"]
        let swiftOrder = strings.sorted()
        let keyOrder = strings.sorted { $0.comparisonKey.utf8.lexicographicallyPrecedes($1.comparisonKey.utf8) }
        XCTAssertEqual(swiftOrder.map { Array($0.utf8) }, keyOrder.map { Array($0.utf8) })
    }

    // MARK: swift_key

    func testSwiftKeyMakesCanonicallyEquivalentTextEqual() throws {
        XCTAssertEqual(try connection.scalar("SELECT swift_key(?) = swift_key(?)",
                                             [.text("\u{E9}"), .text("e\u{301}")], as: Bool.self), true)
        XCTAssertEqual(try connection.scalar("SELECT ? = ?", [.text("\u{E9}"), .text("e\u{301}")], as: Bool.self), false,
                       "without swift_key SQLite compares bytes")
        XCTAssertEqual(try connection.scalar("SELECT hex(swift_key(?))", [.text("e\u{301}")], as: String.self), "C3A9")
    }

    func testSwiftKeyLeavesASCIIUnchangedAndNullNull() throws {
        XCTAssertEqual(try connection.scalar("SELECT swift_key('Burpee 2.0')", as: String.self), "Burpee 2.0")
        XCTAssertEqual(try connection.scalar("SELECT swift_key('')", as: String.self), "")
        XCTAssertEqual(try connection.scalar("SELECT typeof(swift_key(''))", as: String.self), "text")
        XCTAssertEqual(try connection.scalar("SELECT typeof(swift_key(NULL))", as: String.self), "null")
        XCTAssertEqual(try connection.scalar("SELECT swift_key(NULL) IS NULL", as: Bool.self), true)
        // Values that are not text come back as they went in.
        XCTAssertEqual(try connection.scalar("SELECT swift_key(42)", as: DatabaseValue.self), .integer(42))
        XCTAssertEqual(try connection.scalar("SELECT swift_key(x'00FF')", as: DatabaseValue.self), .blob(Data([0, 255])))
    }

    func testSwiftKeyFindsRowsStoredInEitherForm() throws {
        try connection.execute("CREATE TABLE names (name TEXT)")
        for name in ["Caf\u{E9}", "Cafe\u{301}", "Cafe", "CAF\u{C9}"] {
            try connection.run("INSERT INTO names VALUES (?)", [.text(name)])
        }
        let matches = try connection.prepare("SELECT name FROM names WHERE swift_key(name) = swift_key(?) ORDER BY rowid")
        try matches.bind("Cafe\u{301}", at: 1)
        var found: [[UInt8]] = []
        while try matches.step() { found.append(Array(try matches.column(0, as: String.self).utf8)) }
        // Both stored forms match, and each comes back byte for byte as it was stored.
        XCTAssertEqual(found, [Array("Caf\u{E9}".utf8), Array("Cafe\u{301}".utf8)])
    }

    func testOrderingBySwiftKeyIsSwiftOrder() throws {
        let strings = ["e\u{301}x", "\u{E9}a", "f", "e", "a\u{308}", "\u{E4}b", "Z", "a"]
        try connection.execute("CREATE TABLE words (word TEXT)")
        for word in strings { try connection.run("INSERT INTO words VALUES (?)", [.text(word)]) }
        let ordered = try connection.column("SELECT word FROM words ORDER BY swift_key(word), rowid", as: String.self)
        XCTAssertEqual(ordered.map { Array($0.utf8) }, strings.sorted().map { Array($0.utf8) })
    }

    /// The keys `swift_key` keeps for long texts (``ComparisonKeyMemo``) are each text's own: long
    /// texts that differ in one byte anywhere, canonical twins, texts at the lengths where keeping
    /// starts and stops, in runs of one text (a walk over a record's children) and alternating,
    /// within one statement and across statements. Seeded (`LOGBOOK_KEY_MEMO_SEED`).
    func testSwiftKeyOfLongTextsIsEachTextsOwnWhateverCameBefore() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_KEY_MEMO_SEED", default: 0x4B45_594D)
        var random = SplitMix64(seed: seed)
        let base = (0..<40).map { _ in AdversarialText.string(using: &random, nonEmpty: true) }.joined(separator: "e\u{301}")
        var texts: [String] = []
        for _ in 0..<24 {
            var text = base + AdversarialText.string(using: &random)
            // One scalar changed somewhere, so that two texts share all but a few bytes.
            var scalars = Array(text.unicodeScalars)
            let index = Int(random.next() % UInt64(scalars.count))
            scalars[index] = AdversarialText.combiningMarks[Int(random.next() % UInt64(AdversarialText.combiningMarks.count))]
            text = String(String.UnicodeScalarView(scalars))
            texts.append(text)
            texts.append(AdversarialText.twin(of: text))
        }
        // The lengths where keeping starts and stops, in bytes, each with a mark that NFC composes;
        // the longest two come a few times only, in a run each and then alternating (a megabyte
        // takes a while to normalize in a debug build).
        for length in [ComparisonKeyMemo.shortestKept - 1, ComparisonKeyMemo.shortestKept,
                       ComparisonKeyMemo.longestKept, ComparisonKeyMemo.longestKept + 1] {
            texts.append("e\u{301}" + String(repeating: "a", count: length - 3))
            texts.append("o\u{308}" + String(repeating: "a", count: length - 3))
        }
        let longest = texts.count - 4
        var order: [Int] = []
        for _ in 0..<300 {
            let index = Int(random.next() % UInt64(longest))
            order += Array(repeating: index, count: 1 + Int(random.next() % 4))
        }
        for run in [[0, 0, 1], [2, 2, 3, 2], [1, 3, 0, 2]].map({ $0.map { longest + $0 } }) {
            order.insert(contentsOf: run, at: Int(random.next() % UInt64(order.count + 1)))
        }
        // Each row beside the key Swift gives; SQLite compares the two byte for byte.
        try connection.execute("CREATE TABLE texts (text TEXT, key TEXT)")
        let keys = texts.map(\.comparisonKey)
        for index in order { try connection.run("INSERT INTO texts VALUES (?, ?)", [.text(texts[index]), .text(keys[index])]) }
        let wrong = try connection.column("SELECT rowid FROM texts WHERE swift_key(text) IS NOT key ORDER BY rowid", as: Int.self)
        XCTAssertEqual(wrong, [], "seed \(seed): the rows whose key is not Swift's")
        for index in order.prefix(60) {
            XCTAssertEqual(try connection.scalar("SELECT swift_key(?) IS ?", [.text(texts[index]), .text(keys[index])], as: Bool.self), true,
                           "seed \(seed): text \(index)")
        }
    }

    func testSwiftKeyIsOnEveryConnection() throws {
        let other = try Connection(path: ":memory:")
        XCTAssertEqual(try other.scalar("SELECT swift_key(?)", [.text("A\u{30A}")], as: String.self), "\u{C5}")
    }

    // MARK: Application-defined functions

    func testCustomFunctionReceivesAndReturnsValues() throws {
        try connection.createFunction("add_ints", argumentCount: 2) { arguments in
            guard case .integer(let a) = arguments[0], case .integer(let b) = arguments[1] else { return .null }
            return .integer(a + b)
        }
        XCTAssertEqual(try connection.scalar("SELECT add_ints(40, 2)", as: Int.self), 42)
        XCTAssertEqual(try connection.scalar("SELECT add_ints('x', 2)", as: Int?.self), .some(nil))
    }

    func testVariadicFunctionSeesEveryArgumentWithItsType() throws {
        try connection.createFunction("types", argumentCount: -1) { arguments in
            .text(arguments.map { value -> String in
                switch value {
                case .null: "null"
                case .integer(let n): "int:\(n)"
                case .real(let x): "real:\(x)"
                case .text(let s): "text:\(s.utf8.count)"
                case .blob(let d): "blob:\(d.count)"
                }
            }.joined(separator: ","))
        }
        XCTAssertEqual(try connection.scalar("SELECT types()", as: String.self), "")
        XCTAssertEqual(try connection.scalar("SELECT types(NULL, 7, 2.5, 'e\u{301}', x'0102', '', zeroblob(0))",
                                             as: String.self),
                       "null,int:7,real:2.5,text:3,blob:2,text:0,blob:0")
    }

    func testFunctionResultsKeepTheirStorageClass() throws {
        try connection.createFunction("echo", argumentCount: 1) { $0[0] }
        let values: [DatabaseValue] = [.null, .integer(.min), .real(-0.5), .text(""), .text("a\u{0}b"),
                                       .text("e\u{301}"), .blob(Data()), .blob(Data([0, 1, 255]))]
        for value in values {
            XCTAssertEqual(try connection.scalar("SELECT echo(?)", [value], as: DatabaseValue.self), value)
        }
        XCTAssertEqual(try connection.scalar("SELECT typeof(echo(?))", [.blob(Data())], as: String.self), "blob")
        XCTAssertEqual(try connection.scalar("SELECT typeof(echo(?))", [.text("")], as: String.self), "text")
        let nfd = try connection.scalar("SELECT echo(?)", [.text("e\u{301}")], as: String.self)
        XCTAssertEqual(nfd.map { Array($0.utf8) }, [0x65, 0xCC, 0x81])
    }

    func testThrownErrorBecomesAnSQLError() throws {
        try connection.createFunction("refuse", argumentCount: 0) { _ in throw Refusal() }
        let error = assertThrows(SQLiteError.self) { try connection.scalar("SELECT refuse()", as: Int.self) }
        XCTAssertEqual(error?.primaryCode, SQLITE_ERROR)
        XCTAssertEqual(error?.message, "refused by the test function")
        XCTAssertEqual(error?.sql, "SELECT refuse()")
    }

    func testWrongArgumentCountIsRefused() throws {
        try connection.createFunction("one", argumentCount: 1) { $0[0] }
        let error = assertThrows(SQLiteError.self) { try connection.prepare("SELECT one(1, 2)") }
        XCTAssertTrue(error?.message.contains("wrong number of arguments") ?? false, error?.message ?? "")
    }

    func testRedefiningAFunctionReplacesIt() throws {
        try connection.createFunction("version_of_f", argumentCount: 0) { _ in .integer(1) }
        XCTAssertEqual(try connection.scalar("SELECT version_of_f()", as: Int.self), 1)
        try connection.createFunction("version_of_f", argumentCount: 0) { _ in .integer(2) }
        XCTAssertEqual(try connection.scalar("SELECT version_of_f()", as: Int.self), 2)
    }

    func testFunctionIsUsableInIndexExpressions() throws {
        // Registered deterministic, so SQLite accepts it in an index on an expression.
        try connection.execute("""
            CREATE TABLE people (name TEXT);
            CREATE INDEX people_name_key ON people (swift_key(name));
            INSERT INTO people VALUES ('Jose\u{301}'), ('Jos\u{E9}'), ('Joe');
            """)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM people WHERE swift_key(name) = swift_key('Jos\u{E9}')",
                                             as: Int.self), 2)
        let detail = try connection.prepare("EXPLAIN QUERY PLAN SELECT * FROM people WHERE swift_key(name) = 'x'")
        var details: [String] = []
        while try detail.step() { details.append(try detail.column(3, as: String.self)) }
        XCTAssertTrue(details.joined().contains("people_name_key"), details.joined(separator: "\n"))
    }
}
