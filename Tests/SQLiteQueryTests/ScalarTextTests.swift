import Foundation
import LogbookTestSupport
@testable import SQLiteQuery
import XCTest

/// `replacingEvery(_:with:)` and the `split(at…:)` family find every ASCII separator scalar (`'`,
/// `"`, `=`, `/`), checked against the UTF-8 bytes on seeded adversarial text in which the
/// separators are glued into larger characters: followed by a combining mark (the newest the
/// running Swift knows included), a zero-width joiner, a variation selector or a Hangul vowel, or
/// preceded by a prepended concatenation mark (U+0600), where Swift's `Character` operations and
/// Foundation's `replacingOccurrences` pass them over (helper-61: a quote left single in the
/// PostgreSQL script).
final class ScalarTextTests: XCTestCase {
    func testEverySeparatorIsFoundAsItsBytesAre() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_SCALAR_TEXT_SEED", default: 0x5CA1)
        var random = SplitMix64(seed: seed)
        var gluedSeen = 0
        for round in 0..<3_000 {
            let separator = random.pick(["'", "\"", "=", "/"] as [Unicode.Scalar])
            let text = Self.text(around: separator, using: &random)
            let context = "seed \(seed), round \(round): \(text.unicodeScalars.map { String($0.value, radix: 16) })"
            let byte = UInt8(separator.value)
            let bytes = Array(text.utf8)
            if !text.contains(Character(separator)) && bytes.contains(byte) { gluedSeen += 1 }

            let replacement = random.pick(["''", "\"\"", "'\\''", ""])
            XCTAssertEqual(Array(text.replacingEvery(separator, with: replacement).utf8),
                           bytes.flatMap { $0 == byte ? Array(replacement.utf8) : [$0] }, context)
            XCTAssertEqual(text.split(atEvery: separator).map { Array($0.utf8) },
                           bytes.split(separator: byte, omittingEmptySubsequences: false).map(Array.init), context)
            let first = bytes.firstIndex(of: byte), last = bytes.lastIndex(of: byte)
            XCTAssertEqual(text.split(atFirst: separator).map { [Array($0.before.utf8), Array($0.after.utf8)] },
                           first.map { [Array(bytes[..<$0]), Array(bytes[($0 + 1)...])] }, context)
            XCTAssertEqual(text.split(atLast: separator).map { [Array($0.before.utf8), Array($0.after.utf8)] },
                           last.map { [Array(bytes[..<$0]), Array(bytes[($0 + 1)...])] }, context)
            XCTAssertEqual(text.ends(with: separator), bytes.last == byte, context)
        }
        // The generator did glue separators into characters that Swift's own search misses.
        XCTAssertGreaterThan(gluedSeen, 500, "seed \(seed)")
    }

    /// Quoting an identifier doubles a `"` a combining mark follows: the quoted name is one
    /// identifier to SQLite, which names exactly the table.
    func testAQuotedIdentifierNamesOnlyItself() throws {
        let connection = try Connection(path: ":memory:")
        for name in ["a\"\u{301}b", "\u{600}\"x", "\"\u{200D}\"", "t\"; DROP TABLE victims; --\u{301}"] {
            try connection.execute("CREATE TABLE victims (x); CREATE TABLE \(name.quotedSQLIdentifier) (x)")
            XCTAssertEqual(try connection.scalar("SELECT name FROM sqlite_master WHERE name NOT IN ('victims')", as: String.self), name)
            try connection.execute("DROP TABLE \(name.quotedSQLIdentifier); DROP TABLE victims")
        }
    }

    /// Scalars that join a neighbouring separator into one `Character`.
    private static let followers: [Unicode.Scalar] = AdversarialText.newestCombiningMarks
        + ["\u{301}", "\u{323}", "\u{5B0}", "\u{302A}", "\u{200D}", "\u{FE0F}", "\u{1161}", "\u{E0100}", "\u{1F3FB}"]
    private static let prependers: [Unicode.Scalar] = ["\u{600}", "\u{605}", "\u{6DD}", "\u{70F}", "\u{8E2}", "\u{110BD}", "\u{111C2}"]

    /// Adversarial pieces with `separator` bare, followed by a joining scalar, or after a prepender.
    private static func text(around separator: Unicode.Scalar, using random: inout SplitMix64) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<random.int(1...8) {
            switch random.int(0...3) {
            case 0: scalars.append(contentsOf: AdversarialText.piece(using: &random).unicodeScalars)
            case 1: scalars.append(separator)
            case 2: scalars.append(contentsOf: [separator, random.pick(followers)])
            default: scalars.append(contentsOf: [random.pick(prependers), separator])
            }
        }
        return String(scalars)
    }
}
