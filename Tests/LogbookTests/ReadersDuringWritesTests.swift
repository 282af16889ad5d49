import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Reads beside a write see the store as it was before the write or as the write leaves it, never
/// a part of it: edits across the history, merges, moves and `repair`, each run while reader tasks
/// of the same store read its rows and its exercise report (from the tallies) without pause.
final class ReadersDuringWritesTests: XCTestCase {
    /// What a reader sees: the rows an edit changes, and the exercise report, which reads the
    /// tallies the write keeps. Each is one read transaction, so one snapshot, but the write may
    /// commit between the two: each is compared on its own.
    private static func observation(of store: Logbook) async throws -> [String] {
        let rows = try await store.query("""
            SELECT (SELECT count(*) FROM exercise_days), (SELECT count(*) FROM exercises),
                   (SELECT count(*) FROM exercises WHERE name = 'Squat'), (SELECT sum(position) FROM exercises),
                   (SELECT group_concat(day) FROM exercise_days WHERE day IN ('2001-01-05', '2040-01-01'))
            """).rows
        let report = try await store.reports.exercises()
        return ["\(rows)", "\(report.map { "\($0.exercise) \($0.count) \($0.days) \($0.lastDay)" })"]
    }

    /// Seeded (`LOGBOOK_READERS_SEED`): 1 to 4 reader tasks, started a seeded moment before each
    /// write, read until it returns; the rows and the report they see are each as before or as
    /// after, as fresh copies show them.
    func testReadersBesideAWriteSeeItWholeOrNotAtAll() async throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_READERS_SEED", default: 0x5245_4144)
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder("logbook-readers")
        let base = folder.file("base.sqlite"), other = folder.file("other.sqlite")
        try SampleLogbook.make(at: base, days: 0..<6_000, drafts: 5)
        try SampleLogbook.make(at: other, days: 4_000..<9_000, drafts: 0)
        let writes = SampleLogbook.largeWrites(merging: other) + [
            SampleLogbook.Write(name: "removal of an exercise") {
                _ = try await $0.history.removeExercises(named: ["Burpee"], from: CalendarDay(year: 2001, month: 1, day: 2)!)
            },
        ]
        var seen: [String: Int] = [:]
        for write in writes {
            let before = try await Self.observation(of: try SampleLogbook.copy(of: base, damaged: write.damaged, in: folder))
            let finished = try SampleLogbook.copy(of: base, damaged: write.damaged, in: folder)
            try await write.run(finished)
            let after = try await Self.observation(of: finished)
            XCTAssertNotEqual(before, after, "\(write.name) changed nothing a reader sees")

            let store = try SampleLogbook.copy(of: base, damaged: write.damaged, in: folder)
            let readers = random.int(1...4), head = UInt64(random.int(0...20)) * 1_000_000
            let done = Flag()
            let observations = try await withThrowingTaskGroup(of: [[String]].self) { group in
                for _ in 0..<readers {
                    group.addTask {
                        var seen: [[String]] = []
                        repeat { seen.append(try await Self.observation(of: store)) } while !done.isSet
                        return seen
                    }
                }
                try await Task.sleep(nanoseconds: head)
                try await write.run(store)
                done.set()
                return try await group.reduce(into: []) { $0 += $1 }
            }
            for observation in observations {
                for (part, (read, was)) in zip(["rows", "report"], zip(observation, zip(before, after))) {
                    XCTAssertTrue(read == was.0 || read == was.1,
                                  "seed \(seed): beside \(write.name), a reader saw \(part) neither as before nor as after it: \(read.prefix(600))")
                    seen["\(write.name), \(part): \(read == was.0 ? "before" : "after")", default: 0] += 1
                }
            }
        }
        print("ReadersDuringWritesTests (LOGBOOK_READERS_SEED=\(seed)): " + seen.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
}

/// A flag one task sets and others read.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
