@testable import Logbook
import LogbookTestSupport
import XCTest

/// The filter an import keeps of the contents whose counts it moved to a temporary table
/// (`IDlessOccurrences`): an id added is always found (a miss would give a second copy of a record
/// the first one's id, and lose it), and an id not added is rarely taken for one. Seeded
/// (`LOGBOOK_FILTER_SEED`): random ids, as SHA-256 digests are, and ids differing in one half only.
final class SeenContentsFilterTests: XCTestCase {
    func testEveryIDAddedIsFoundAndFewOthersAre() {
        let seed = PropertyTestSettings.seed("LOGBOOK_FILTER_SEED", default: 0x5EE9)
        var random = SplitMix64(seed: seed)
        var filter = SeenContentsFilter()
        let count = PropertyTestSettings.scaled(200_000, by: "LOGBOOK_PROPERTY_SCALE")
        var added: [(high: Int64, low: Int64)] = []
        for index in 0..<count {
            let high = Int64(bitPattern: random.next())
            // Every tenth id shares its first half with the one before.
            let id = (high: index % 10 == 9 ? added[index - 1].high : high, low: Int64(bitPattern: random.next()))
            filter.add(id)
            added.append(id)
        }
        XCTAssertTrue(added.allSatisfy(filter.mayHold), "seed \(seed): an id added was not found")
        let takenForAdded = (0..<count).filter { _ in filter.mayHold((Int64(bitPattern: random.next()), Int64(bitPattern: random.next()))) }
        XCTAssertLessThan(takenForAdded.count, count / 1_000, "seed \(seed): ids never added taken for added ones")
    }
}
