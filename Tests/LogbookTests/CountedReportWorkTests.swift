import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
@testable import Logbook

/// Issue 21's "no slow corner" for the work that reads every exercise row: the history reports
/// counted from the rows (after another program's insert leaves the tallies behind), `check`'s
/// recount of the derived data, and `repair`'s. Counted instead of timed, in SQLite
/// virtual-machine steps, on histories of n and 4n days: a plan that reads one side of a join
/// whole for each row of the other (which took a weekly report over 200,000 days, and `check`
/// on them, more than a minute) makes 4n cost about 16 times n; work that grows like the rows,
/// or like a sort of them, about 4 to 5 times.
final class CountedReportWorkTests: XCTestCase {
    /// Growth allowed from n days to 4n: a sort's is 4 × log(4n) / log(n), 4.8 here; the square 16.
    private static let allowedGrowth = 5.0

    func testWorkOverEveryRowGrowsLikeTheHistory() throws {
        let small = try work(days: 1_000), large = try work(days: 4_000)
        for name in small.keys.sorted() {
            let growth = Double(large[name]!) / Double(small[name]!)
            print("CountedReportWorkTests: \(name): \(small[name]!) steps for 1,000 days, \(large[name]!) for 4,000 (×\(String(format: "%.1f", growth)))")
            XCTAssertLessThan(growth, Self.allowedGrowth, "\(name): 4 times the days cost \(String(format: "%.1f", growth)) times the work")
        }
    }

    /// The steps of each counted report, `check` and `repair` (as a dry run) on a history of
    /// `days` days of three exercises each, after another program inserted an exercise row.
    private func work(days count: Int) throws -> [String: Int] {
        let test = try TestStore()
        let utc = try XCTUnwrap(TimeZone(identifier: "UTC"))
        let names = ["Squat", "Burpee", "Cafe\u{301}", "Caf\u{E9}", "Row", "Plank"]
        let first = try XCTUnwrap(CalendarDay("2001-01-01"))
        let days = (0..<count).map { index in
            let day = first.adding(days: index)!
            return ExerciseDay(date: day.start(in: utc) + 3_600, day: day,
                               exercises: (0..<3).map { names[(index * 7 + $0 * 5) % names.count] })
        }
        try test.store.history.save(days)
        // A row no trigger sees: the reports count the rows until Logbook recounts.
        try test.store.underlyingDatabase.write { connection in
            try connection.execute("INSERT INTO exercises (day_pk, position, name, name_key) VALUES (1, 4, 'Extra', 'Extra')")
        }
        XCTAssertFalse(try test.store.reports.readsTallies())

        var work: [String: Int] = [:]
        func measure(_ name: String, _ body: () throws -> Void) throws {
            work[name] = try test.store.underlyingDatabase.withConnection { connection in
                try connection.countingVirtualMachineSteps(body).steps
            }
        }
        for period in ReportPeriod.allCases {
            try measure("history by \(period.rawValue), counted") { XCTAssertFalse(try test.store.reports.history(by: period).isEmpty) }
        }
        try measure("check") { XCTAssertFalse(try test.store.check().isHealthy) }
        try measure("repair, dry run") { _ = try test.store.repair(dryRun: true) }
        return work
    }
}
