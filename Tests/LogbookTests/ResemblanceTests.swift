import Foundation
import Logbook
import XCTest

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
}
