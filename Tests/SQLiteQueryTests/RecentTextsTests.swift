import CSQLite
import Foundation
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

/// A statement hands back a short text it read before instead of decoding it again
/// (`RecentTexts`): every read must still be exactly `String(validating:as:)` of the column's
/// bytes, and bytes that are not UTF-8 are refused, never repaired.
final class RecentTextsTests: XCTestCase {
    /// Texts read in a random order through one statement, from a pool built to fool a memo: texts
    /// sharing a slot (same length, same first and last eight bytes), canonically equivalent
    /// NFC/NFD twins (equal to Swift's `==`, different bytes), invalid UTF-8 (refused, also where
    /// valid text with the same slot was read before), NUL bytes, the empty text, and lengths
    /// around the longest kept. Each read is compared byte for byte with the bytes bound.
    func testEveryReadIsTheDecodingOfItsOwnBytes() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_RECENT_TEXTS_SEED", default: 0x5245_4345_4E54_5458)
        var random = SplitMix64(seed: seed)
        let pool = Self.adversarialPool(using: &random)
        XCTAssertTrue(pool.contains { $0.count > RecentTexts.longestKept }, "the pool reaches past the longest text kept")
        let sharingASlot = Dictionary(grouping: pool.filter { $0.count <= RecentTexts.longestKept }) { bytes in
            bytes.withUnsafeBytes { RecentTexts.slot(of: $0) }
        }
        XCTAssertTrue(sharingASlot.values.contains { Set($0).count > 1 }, "some different texts share a slot")

        let connection = try makeConnection()
        let statement = try connection.prepare("SELECT ?")
        for read in 0..<20_000 {
            let bytes = random.pick(pool)
            bytes.withUnsafeBufferPointer { buffer in
                statement.reset()
                XCTAssertEqual(statement.bindText(buffer, at: 1), SQLITE_OK)
            }
            XCTAssertTrue(try statement.step())
            let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
            let text: [UInt8]? = (try? statement.column(0, as: String.self)).map { Array($0.utf8) }
            let optional: [UInt8]?? = (try? statement.column(0, as: String?.self)).map { $0.map { Array($0.utf8) } }
            XCTAssertEqual(text, isUTF8 ? bytes : nil, "read \(read) of \(bytes) (seed \(seed))")
            XCTAssertEqual(optional, isUTF8 ? .some(bytes) : nil, "read \(read) as String? (seed \(seed))")
        }
    }

    /// Through one statement that read a text before: NULL is nil as `String?` and an error as
    /// `String`, and a BLOB of the same bytes is an error, not the text kept.
    func testNullAndBlobAreNotTheTextReadBefore() throws {
        let connection = try makeConnection()
        let statement = try connection.prepare("""
            SELECT value FROM (SELECT 1 AS n, 'Squat' AS value UNION ALL SELECT 2, NULL
                               UNION ALL SELECT 3, x'5371756174' UNION ALL SELECT 4, 'Squat') ORDER BY n
            """)
        var read: [String] = []
        while try statement.step() {
            if let text = try? statement.column(0, as: String.self) {
                read.append(text)
                XCTAssertEqual(try statement.column(0, as: String?.self), text)
            } else {
                // A NULL reads as nil; anything else that is not text is refused as String? too.
                switch Result(catching: { try statement.column(0, as: String?.self) }) {
                case .success(nil): read.append("nil")
                case .success: read.append("text")
                case .failure: read.append("refused")
                }
            }
        }
        XCTAssertEqual(read, ["Squat", "nil", "refused", "Squat"])
    }

    private static func adversarialPool(using random: inout SplitMix64) -> [[UInt8]] {
        var pool: [[UInt8]] = [[], [0], [0, 0], [0xFF], [0xC3], [0xE2, 0x98], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]]
        for _ in 0..<60 {
            let text = AdversarialText.string(using: &random)
            pool.append(Array(text.utf8))
            pool.append(Array(AdversarialText.twin(of: text).utf8))
            pool.append(Array(text.swiftNFC.utf8))
        }
        // Same length, same first and last eight bytes, a different middle: one slot.
        for length in [17, 24, RecentTexts.longestKept - 1, RecentTexts.longestKept, RecentTexts.longestKept + 1] {
            let base = (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
            for middle in [UInt8(ascii: "a"), UInt8(ascii: "b"), 0x00, 0xFF, 0x80] {
                var text = base
                text[length / 2] = middle
                pool.append(text)
            }
        }
        // Short texts differing in one byte, invalid sequences among them.
        for length in 1...9 {
            let base = (0..<length).map { _ in UInt8.random(in: 0...0xFF, using: &random) }
            for position in 0..<length {
                var text = base
                text[position] ^= 0x01
                pool.append(text)
            }
            pool.append(base)
        }
        // An NFC/NFD pair of one length, "é" composed and decomposed within the same frame.
        pool.append(Array("Café au lait, s'il vous plaît".utf8))
        pool.append(Array("Cafe\u{301} au lait, s'il vous plai\u{302}t".utf8))
        return pool
    }
}
