import Foundation
import LogbookTestSupport
import XCTest
@testable import Logbook

/// The "did you mean" hints' choice (`String.closest(among:)`): the same letters up to case and
/// diacritics first, else the nearest within a few typing mistakes that keeps a Character of the
/// name typed. A stored name of U+0000 alone was offered for `é` (helper-30): every Character
/// replaced is no resemblance.
final class ResemblanceTests: XCTestCase {
    func testTheHintIsTheNearestNameThatResemblesTheOneTyped() {
        XCTAssertEqual("Bupree".closest(among: ["Squat", "Burpee", "Row"]), "Burpee")
        XCTAssertEqual("burpee".closest(among: ["Squat", "Burpée"]), "Burpée")
        XCTAssertEqual("Rwo".closest(among: ["Row", "Run"]), "Row")
        XCTAssertEqual("ab".closest(among: ["ac"]), "ac")
        XCTAssertNil("é".closest(among: ["\u{0}"]))
        XCTAssertNil("X".closest(among: ["\u{0}", "Y"]))
        XCTAssertNil("ab".closest(among: ["cd"]))
        XCTAssertNil("Plank".closest(among: ["Burpee", "Row"]))
    }

    /// The distance within a bound is the full table's distance, or nil past the bound. Seeded:
    /// random strings over a small alphabet (with combining marks, so Characters are not scalars)
    /// against the plain Levenshtein table, for every bound from 0 to past the longer length.
    func testTheBoundedEditDistanceIsTheFullOneWithinItsBound() {
        let seed = PropertyTestSettings.seed("LOGBOOK_EDIT_DISTANCE_SEED", default: 0xED17)
        var random = SplitMix64(seed: seed)
        let alphabet = ["a", "b", "c", "e\u{301}", "é", "ß", "\u{0}"]
        func word() -> String { (0..<Int.random(in: 0...14, using: &random)).map { _ in random.pick(alphabet) }.joined() }
        func table(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var current = [i + 1]
                for (j, y) in b.enumerated() { current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))) }
                previous = current
            }
            return previous[b.count]
        }
        for _ in 0..<PropertyTestSettings.scaled(2_000, by: "LOGBOOK_PROPERTY_SCALE") {
            let a = word(), b = random.next() % 3 == 0 ? a + word() : word()
            let full = table(Array(a), Array(b))
            XCTAssertEqual(a.editDistance(to: b), full, "seed \(seed): \(a.debugDescription) \(b.debugDescription)")
            for limit in 0...(max(a.count, b.count) + 1) {
                let expected = full <= limit ? full : nil
                XCTAssertEqual(String.editDistance(Array(a), Array(b), atMost: limit), expected,
                               "seed \(seed): \(a.debugDescription) \(b.debugDescription) within \(limit)")
            }
        }
    }

    /// A long name's hint: a near twin of a name of 100,000 letters is offered (it took tens of
    /// seconds, growing with the square of the length; helper-70), and the bound of a few typing
    /// mistakes stays 10 however long the name.
    func testALongNamesNearTwinIsItsHint() {
        let stored = String(repeating: "k", count: 100_000)
        XCTAssertEqual((String(repeating: "k", count: 99_999) + "q").closest(among: ["Squat", stored]), stored)
        let tenApart = String(repeating: "k", count: 99_990) + String(repeating: "q", count: 10)
        XCTAssertEqual(tenApart.closest(among: [stored]), stored)
        XCTAssertNil((String(repeating: "k", count: 99_989) + String(repeating: "q", count: 11)).closest(among: [stored]))
    }
}
