import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// The recount a merging import ends with, whatever planner statistics the file holds. SQLite
/// plans each statement from `sqlite_stat1`, which `PRAGMA optimize` writes when a small logbook
/// closes (its one exercise row: "1 1 1") and an import refreshes only at its end; another program
/// may write any. With a one-row file's statistics on thousands of days, the recount read every
/// exercise row for each month and week it recounted (3,000 merged days into 50,000 took 13 s
/// against 0.4 s; helper-10): its joins now go from the days to their rows whatever the
/// statistics say. Counted in SQLite's virtual-machine steps, not timed.
final class PlannerStatisticsTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!

    /// Whatever statistics the file holds, merging the same 200 records into a history of 4,000
    /// days costs about what it costs in one of 1,000 (the work grows with what is merged, not with
    /// the history): a plan that reads every exercise row per recounted period makes it 4 times.
    func testAMergingImportsWorkDoesNotGrowWithTheHistoryWhateverTheStatistics() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_STATISTICS_SEED", default: 0x5747)
        var random = SplitMix64(seed: seed)
        let names = ["Squat", "Row", "Burpee", "Plank", "Cafe\u{301}"]
        let first = try XCTUnwrap(CalendarDay("2001-01-01"))
        let history = (0..<4_000).map { index in
            let day = first.adding(days: index)!
            return ExerciseDay(date: day.start(in: utc) + 3_600, day: day, exercises: (0..<3).map { _ in random.pick(names) })
        }
        // Records for 200 of the first 1,000 days under ids of their own: each is merged into its day's record.
        let merged = (0..<200).map { _ in
            let day = first.adding(days: random.int(0...999))!
            return #"{"day":"\#(day)","date":"\#(day)T20:00:00Z","exercises":["\#(random.pick(names))"]}"#
        }.joined(separator: "\n") + "\n"
        let statistics = [
            "fresh": "ANALYZE",
            "a one-row file's, as PRAGMA optimize leaves them": """
                ANALYZE; DELETE FROM sqlite_stat1;
                INSERT INTO sqlite_stat1 VALUES ('exercises', 'exercises_by_name', '1 1 1'), ('exercises', 'exercises', '1 1 1')
                """,
            "none": "ANALYZE; DELETE FROM sqlite_stat1",
            "a one-row table's for every index": "ANALYZE; UPDATE sqlite_stat1 SET stat = '1 1 1 1'",
        ]
        for (name, sql) in statistics.sorted(by: { $0.key < $1.key }) {
            let small = try mergingWork(history.prefix(1_000), merged, statistics: sql)
            let large = try mergingWork(history[...], merged, statistics: sql)
            let growth = Double(large) / Double(small)
            print("PlannerStatisticsTests: seed \(seed), \(name) statistics: \(small) steps into 1,000 days, \(large) into 4,000 "
                  + "(×\(String(format: "%.2f", growth)))")
            XCTAssertLessThan(growth, 1.5, "with \(name) statistics, 4 times the history made the merge \(growth) times the work")
        }
    }

    /// An export streams: its first bytes come after about the same work in a history of 4,000
    /// days as in one of 1,000, whatever statistics the file holds; with the exercises' statistics
    /// and none of the days' (what `PRAGMA optimize` leaves after an import under 10,000 records
    /// that queried only the exercises), SQLite scanned and sorted every exercise row first.
    func testAnExportsFirstBytesDoNotWaitForTheWholeHistoryWhateverTheStatistics() throws {
        let names = ["Squat", "Row", "Burpee", "Plank", "Cafe\u{301}"]
        let first = try XCTUnwrap(CalendarDay("2001-01-01"))
        let history = (0..<4_000).map { index in
            let day = first.adding(days: index)!
            return ExerciseDay(date: day.start(in: utc) + 3_600, day: day, exercises: (0..<20).map { names[($0 + index) % names.count] })
        }
        let statistics = [
            "fresh": "ANALYZE",
            "the exercises' only": "ANALYZE; DELETE FROM sqlite_stat1 WHERE tbl <> 'exercises'",
            "none": "ANALYZE; DELETE FROM sqlite_stat1",
        ]
        struct FirstBytes: Error {}
        for (name, sql) in statistics.sorted(by: { $0.key < $1.key }) {
            let steps = try [history.prefix(1_000), history[...]].map { days in
                let folder = try TemporaryFolder("statistics")
                let store = try logbook(of: days, statistics: sql, in: folder)
                return try store.underlyingDatabase.withConnection { connection in
                    try connection.countingVirtualMachineSteps {
                        XCTAssertThrowsError(try store.exportHistory(format: .ndjson) { _ in throw FirstBytes() })
                    }.steps
                }
            }
            let growth = Double(steps[1]) / Double(steps[0])
            print("PlannerStatisticsTests: \(name) statistics: \(steps[0]) steps to an export's first bytes from 1,000 days, "
                  + "\(steps[1]) from 4,000 (×\(String(format: "%.2f", growth)))")
            XCTAssertLessThan(growth, 1.5, "with \(name) statistics, 4 times the history made the first bytes \(growth) times the work")
        }
    }

    /// A logbook of `history` in `folder`, its planner statistics then set by `statistics` (SQL).
    private func logbook(of history: ArraySlice<ExerciseDay>, statistics: String, in folder: TemporaryFolder) throws -> Logbook {
        let path = folder.file("logbook.sqlite").path
        do {
            let store = try Logbook(path: path, timeZone: utc)
            try store.history.save(Array(history))
        }
        try Connection(path: path).execute(statistics)
        return try Logbook(path: path, timeZone: utc)
    }

    /// The virtual-machine steps of importing `merged` into a logbook of `history` whose
    /// statistics `statistics` (SQL) set.
    private func mergingWork(_ history: ArraySlice<ExerciseDay>, _ merged: String, statistics: String) throws -> Int {
        let folder = try TemporaryFolder("statistics")
        let store = try logbook(of: history, statistics: statistics, in: folder)
        let steps = try store.underlyingDatabase.withConnection { connection in
            try connection.countingVirtualMachineSteps {
                XCTAssertGreaterThan(try store.importRecords(from: Data(merged.utf8), named: "merged.ndjson").merged, 100)
            }.steps
        }
        XCTAssertTrue(try store.check().isHealthy)
        return steps
    }
}
