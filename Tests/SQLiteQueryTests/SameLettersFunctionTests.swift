import Foundation
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

/// `swift_same_letters(text, other)` (the CLI's `exercises icontains "…"`) gives Foundation's
/// answer for every row, though it keeps its results per statement by each text's bytes
/// (``TextResultMemo``): texts that differ in a byte (NFC and NFD, case) are computed apart, a
/// statement run again with another argument or given a changing one never reuses a result, and
/// texts past the memo's capacity are still right. Seeded (`LOGBOOK_SAME_LETTERS_SEED`).
final class SameLettersFunctionTests: XCTestCase {
    /// Texts that differ by case, diacritics, canonical equivalence and case foldings of more than
    /// one letter (`ß`, `ẞ`, ligatures), the last beside accented letters where Foundation on Linux
    /// answers wrongly ("sé" against "ß": helper-43), which the store still gives as Foundation does.
    private static let words = ["Café", "Cafe\u{301}", "CAFE", "cafe", "Crème brûlée", "CRE\u{300}ME BRULEE", "Straße", "STRASSE", "ǅ", "ǆ",
                                "Ångström", "A\u{30A}ngstro\u{308}m", "", "x", "ß", "ss", "İ", "i\u{307}", "ﬃ", "ffi", "Ⅻ", "xii",
                                "sé", "se\u{301}", "ẞ", "fé", "café", "ﬀ", "ﬆ", "st", "ǰ"]

    /// `swift_localized_contains(text, other)` (the CLI's `icontains` on a text field) gives
    /// `localizedStandardContains`'s answer for every pair of texts made of the words, faults of
    /// Foundation on the running platform included. Seeded (`LOGBOOK_SAME_LETTERS_SEED`).
    func testLocalizedContainsGivesFoundationsAnswer() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_SAME_LETTERS_SEED", default: 0x5A3E)
        var generator = SplitMix64(seed: seed)
        let connection = try Connection(path: ":memory:")
        let statement = try connection.prepare("SELECT swift_localized_contains(?, ?)")
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...3, using: &generator)).map { _ in Self.words.randomElement(using: &generator)! }.joined()
            let other = Self.words.randomElement(using: &generator)!
            try statement.bind([.text(text), .text(other)])
            XCTAssertTrue(try statement.step())
            XCTAssertEqual(try statement.column(0, as: Int64.self), text.localizedStandardContains(other) ? 1 : 0,
                           "\(text.debugDescription) and \(other.debugDescription), seed \(seed)")
            statement.reset()
        }
    }

    private func expected(_ text: String, _ other: String) -> Int64 {
        text.compare(other, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame ? 1 : 0
    }

    func testEveryRowGetsFoundationsAnswerWhateverTheStatementKept() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_SAME_LETTERS_SEED", default: 0x5A3E)
        var generator = SplitMix64(seed: seed)
        let words = Self.words
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, a TEXT, b TEXT)")
        // More distinct texts than the memo keeps, each many times.
        let distinct = words + (0..<(TextResultMemo.capacity + 200)).map { "name \($0) \(words[$0 % words.count])" }
        var rows: [(String, String)] = []
        for _ in 0..<6_000 {
            rows.append((distinct[Int.random(in: 0..<distinct.count, using: &generator)], words.randomElement(using: &generator)!))
        }
        for (index, row) in rows.enumerated() {
            try connection.run("INSERT INTO t VALUES (?, ?, ?)", [.integer(Int64(index)), .text(row.0), .text(row.1)])
        }
        let statement = try connection.cachedStatement("SELECT a, swift_same_letters(a, ?) FROM t ORDER BY n")
        for other in words.shuffled(using: &generator).prefix(8) {  // the same statement, run again with other arguments
            try statement.bind([.text(other)])
            var index = 0
            while try statement.step() {
                XCTAssertEqual(try statement.column(1, as: Int64.self), expected(rows[index].0, other), "\(rows[index].0) and \(other), seed \(seed)")
                index += 1
            }
            XCTAssertEqual(index, rows.count)
            statement.reset()
        }
        // An argument that changes from row to row, and two arguments in one statement.
        let changing = try connection.prepare("SELECT a, b, swift_same_letters(a, b), swift_same_letters(b, ?1) OR swift_same_letters(a, ?2) FROM t ORDER BY n")
        try changing.bind([.text("CAFE"), .text("ss")])
        var index = 0
        while try changing.step() {
            let (a, b) = rows[index]
            XCTAssertEqual(try changing.column(2, as: Int64.self), expected(a, b), "\(a) and \(b), seed \(seed)")
            XCTAssertEqual(try changing.column(3, as: Int64.self), expected(b, "CAFE") == 1 || expected(a, "ss") == 1 ? 1 : 0, "seed \(seed)")
            index += 1
        }
        XCTAssertEqual(index, rows.count)
    }

    func testNullGivesNullAndOtherValuesAreRefused() throws {
        let connection = try Connection(path: ":memory:")
        XCTAssertNil(try connection.scalar("SELECT swift_same_letters(NULL, 'a')", as: Int64?.self) ?? nil)
        XCTAssertNil(try connection.scalar("SELECT swift_same_letters('a', NULL)", as: Int64?.self) ?? nil)
        XCTAssertThrowsError(try connection.scalar("SELECT swift_same_letters(1, 'a')", as: Int64.self)) { error in
            XCTAssertTrue("\(error)".contains("swift_same_letters expects text, got"), "\(error)")
        }
        XCTAssertThrowsError(try connection.scalar("SELECT swift_same_letters('a', x'00')", as: Int64.self))
    }

    /// The memo computes a text once, tells texts apart by every byte, and stops keeping texts at
    /// its capacity while still answering for them.
    func testTheMemoComputesEachTextOnceAndKeepsAtMostItsCapacity() {
        let argument = Array("café".utf8)
        let memo = argument.withUnsafeBufferPointer { TextResultMemo(argument: $0) }
        XCTAssertTrue(argument.withUnsafeBufferPointer { memo.isFor(argument: $0) })
        XCTAssertFalse(Array("cafe\u{301}".utf8).withUnsafeBufferPointer { memo.isFor(argument: $0) })
        var computed: [[UInt8]: Int] = [:]  // by bytes: as Strings, NFC and NFD are one key
        func ask(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { buffer in
                memo.result(for: buffer) { bytes in
                    computed[Array(bytes), default: 0] += 1
                    return String(decoding: bytes, as: UTF8.self).count.isMultiple(of: 2)
                }
            }
        }
        let texts = ["", "Café", "Cafe\u{301}", "CAFÉ"] + (0..<(TextResultMemo.capacity + 100)).map { "text \($0)" }
        for _ in 0..<3 {
            for text in texts { XCTAssertEqual(ask(text), text.count.isMultiple(of: 2), text) }
        }
        XCTAssertEqual(computed.count, texts.count, "NFC and NFD are two texts")
        XCTAssertEqual(computed.values.filter { $0 == 1 }.count, TextResultMemo.capacity)
        XCTAssertEqual(computed.values.filter { $0 == 3 }.count, texts.count - TextResultMemo.capacity)
    }
}
