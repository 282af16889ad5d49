import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// A fetch in an order no index holds still streams: its first record comes after the parents'
/// sort, not after every child row of the page was read and sorted, and memory holds one record.
/// `drafts list` in its default order (`createdAt`, unindexed) sorted every checklist row first:
/// 10,000 drafts of 1,000 items took 7 s to their first line (helper-31). Counted in SQLite's
/// virtual-machine steps, not timed; every listing is checked against a sort of all the records.
final class UnindexedOrderStreamingTests: XCTestCase {
    private struct FirstRecord: Error {}

    /// The same 3,000 drafts with 50 checklist items each cost at most 1.5 times the work to the
    /// first record that they cost with 1 each, in orders no index holds whole (the work of
    /// sorting every checklist row is 50 times); the whole listing is the drafts sorted in Swift.
    func testDraftsInAnUnindexedOrderStreamTheirChecklists() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_UNINDEXED_ORDER_SEED", default: 0x50_27)
        var random = SplitMix64(seed: seed)
        let drafts = (0..<3_000).map { index in
            ReleaseDraft(version: "\(random.int(0...9)).\(index)", whatsNew: "Notes \(random.int(0...99))",
                         checklist: (0..<50).map { ChecklistItem(title: "Step \($0)", isDone: random.int(0...1) == 1) },
                         submittedAt: random.int(0...2) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(random.int(0...1_000_000))),
                         createdAt: Date(timeIntervalSinceReferenceDate: Double(random.int(0...1_000_000))),
                         updatedAt: Date(timeIntervalSinceReferenceDate: Double(random.int(0...1_000_000))))
        }
        let orders: [(field: String, descending: Bool, sort: [SortDescriptor<ReleaseDraft>])] = [
            ("createdAt", false, [SortDescriptor(\.createdAt), SortDescriptor(\.id)]),
            ("updatedAt", true, [SortDescriptor(\.updatedAt, order: .reverse), SortDescriptor(\.id)]),
            ("submittedAt", false, [SortDescriptor(\.submittedAt), SortDescriptor(\.id)]),  // indexed, but not with the id after it
        ]
        let stores = try [1, 50].map { items in
            let test = try TestStore()
            try test.store.drafts.save(contentsOf: drafts.map { draft in
                var draft = draft
                draft.checklist = Array(draft.checklist.prefix(items))
                return draft
            })
            return test
        }
        for order in orders {
            let query = RecordQuery(ordering: [try DraftRepository.schema.ordering(forFieldNamed: order.field, descending: order.descending)])
            let steps = try stores.map { test in
                try test.store.underlyingDatabase.withConnection { connection in
                    try connection.countingVirtualMachineSteps {
                        XCTAssertThrowsError(try test.store.drafts.forEach(query) { _ in throw FirstRecord() })
                    }.steps
                }
            }
            let growth = Double(steps[1]) / Double(steps[0])
            print("UnindexedOrderStreamingTests: seed \(seed), drafts by \(order.field): \(steps[0]) steps to the first record "
                  + "with 1 item each, \(steps[1]) with 50 (×\(String(format: "%.2f", growth)))")
            XCTAssertLessThan(growth, 1.5, "by \(order.field), 50 times the items made the first record \(growth) times the work")
            var listed: [ReleaseDraft] = []
            try stores[1].store.drafts.forEach(query) { listed.append($0) }
            XCTAssertEqual(listed.map(\.id), drafts.sorted(using: order.sort).map(\.id), "by \(order.field), seed \(seed)")
            XCTAssertEqual(listed, drafts.sorted(using: order.sort), "by \(order.field), seed \(seed)")
        }
    }

    /// The same for days sorted by how many exercises they hold, which no index holds either
    /// (the parents' sort counts every day's rows, so only the listing is checked here).
    func testDaysInAnUnindexedOrderComeWhole() throws {
        let utc = TimeZone(identifier: "UTC")!
        let first = try XCTUnwrap(CalendarDay("2001-01-01"))
        let days = (0..<2_000).map { index in
            let day = first.adding(days: index)!
            return ExerciseDay(date: day.start(in: utc) + 3_600, day: day, exercises: (0...(index % 30)).map { "Move \($0)" })
        }
        let test = try TestStore(timeZone: utc)
        try test.store.history.save(days)
        let query = RecordQuery(ordering: [try HistoryRepository.schema.ordering(forFieldNamed: "exercises.count", descending: true)])
        var listed: [ExerciseDay] = []
        try test.store.history.forEach(query) { listed.append($0) }
        XCTAssertEqual(listed, days.sorted(using: [SortDescriptor(\.exercises.count, order: .reverse), SortDescriptor(\.id)]))
    }
}
