import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Cancelling the task of any `async` write leaves the store as it was before the write, or, when
/// the write committed first, as the write leaves it: never a part of it. Each write is cancelled at
/// seeded moments spread over the length of an uninterrupted run; a call that throws
/// `CancellationError` changed nothing, one that returns changed what an uninterrupted run changes,
/// and `check` passes either way.
final class CancelledWritesTests: XCTestCase {
    func testACancelledWriteLeavesTheStoreAsBeforeOrAsAfterIt() async throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_CANCEL_SEED", default: 0x4341_4E43)
        var random = SplitMix64(seed: seed)
        let cancels = PropertyTestSettings.scaled(5, by: "LOGBOOK_PROPERTY_SCALE")
        let folder = try TemporaryFolder("logbook-cancel")
        let base = folder.file("base.sqlite"), other = folder.file("other.sqlite")
        try SampleLogbook.make(at: base, days: 0..<6_000, drafts: 40)
        try SampleLogbook.make(at: other, days: 4_000..<9_000, drafts: 10)
        let writes = SampleLogbook.largeWrites(merging: other) + [
            SampleLogbook.Write(name: "save of many days") { store in
                try await store.history.save((0..<3_000).map { index in
                    let date = Date(timeIntervalSinceReferenceDate: Double(20_000 + index) * 86_400 + 60)
                    return ExerciseDay(id: UUID(uuidString: String(format: "00000000-0000-4000-9000-%012d", index))!, date: date,
                                       day: CalendarDay(date, in: SampleLogbook.utc), exercises: ["Swim"])
                })
            },
            SampleLogbook.Write(name: "checklist items added") { _ = try await $0.drafts.addItems(["Notarize", "Announce ☀︎"], to: "1.7") },
        ]
        var outcomes: [String: Int] = [:]
        for write in writes {
            let before = try await Self.state(of: try SampleLogbook.copy(of: base, damaged: write.damaged, in: folder))
            let store = try SampleLogbook.copy(of: base, damaged: write.damaged, in: folder)
            let started = Date()
            try await write.run(store)
            let duration = Date().timeIntervalSince(started)
            let after = try await Self.state(of: store)
            XCTAssertNotEqual(before, after, "\(write.name) changed nothing")
            for index in 0..<cancels {
                let store = try SampleLogbook.copy(of: base, damaged: write.damaged, in: folder)
                let delay = duration * 1.2 * (Double(index) + Double(random.next() % 1_000) / 1_000) / Double(cancels)
                let task = Task { try await write.run(store) }
                try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                task.cancel()
                let context = "seed \(seed): \(write.name) cancelled after \(String(format: "%.3f", delay)) s of \(String(format: "%.3f", duration)) s"
                let outcome: String
                do {
                    try await task.value
                    outcome = "finished"
                } catch is CancellationError {
                    outcome = "cancelled"
                }
                let state = try await Self.state(of: store)
                XCTAssertEqual(state, outcome == "finished" ? after : before, "\(context): \(outcome), the store is not as \(outcome == "finished" ? "after" : "before") the write")
                let report = try await store.check()
                XCTAssertTrue(write.damaged && outcome == "cancelled" || report.isHealthy, "\(context): \(report)")
                outcomes["\(write.name): \(outcome)", default: 0] += 1
            }
        }
        print("CancelledWritesTests (LOGBOOK_CANCEL_SEED=\(seed)): " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    /// The history export, every exercise row (its day's key and its position, which `repair`
    /// renumbers), and the drafts without the ids and times a new run draws afresh.
    private static func state(of store: Logbook) async throws -> String {
        let history = try await store.exportHistory(format: .ndjson)
        let rows = try await store.query("SELECT day_pk, position, name FROM exercises ORDER BY day_pk, position").rows
        let drafts = try await store.exportDrafts(format: .json)
        return String(decoding: history, as: UTF8.self) + "\(rows)" + (try InterruptedWrites.comparableDrafts(drafts))
    }
}
