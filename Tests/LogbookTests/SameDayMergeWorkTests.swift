import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Records of one calendar day under ids of their own merge into that day's record; each merge
/// costs about the same however many came before it. The record merged into was read whole for
/// every merge (to keep its content as the import inserted it, for a record the file gives
/// again), so a day of 10,000 merged records took 33 s (helper-31). Counted in SQLite's
/// virtual-machine steps, not timed, and the merged record checked whole.
final class SameDayMergeWorkTests: XCTestCase {
    func testMergingRecordsIntoOneDayGrowsLikeTheRecords() throws {
        let steps = try [500, 2_000].map { count in
            let test = try TestStore()
            let file = (0..<count).map { index in
                #"{"id":"\#(UUID().uuidString)","day":"2026-03-01","date":"2026-03-01T08:00:00Z","exercises":["Squat \#(index)","Row"]}"#
            }.joined(separator: "\n") + "\n"
            let work = try test.store.underlyingDatabase.withConnection { connection in
                try connection.countingVirtualMachineSteps {
                    let summary = try test.store.importRecords(from: Data(file.utf8), named: "one-day.ndjson")
                    XCTAssertEqual(summary.inserted, 1)
                    XCTAssertEqual(summary.merged, count - 1)
                }.steps
            }
            let days = try test.store.history.fetchAll()
            XCTAssertEqual(days.count, 1)
            XCTAssertEqual(days.first?.exercises, (0..<count).flatMap { ["Squat \($0)", "Row"] })
            return work
        }
        let growth = Double(steps[1]) / Double(steps[0])
        print("SameDayMergeWorkTests: \(steps[0]) steps to merge 500 records into one day, \(steps[1]) for 2,000 (×\(String(format: "%.1f", growth)))")
        XCTAssertLessThan(growth, 6, "4 times the merged records cost \(growth) times the work")
    }
}
