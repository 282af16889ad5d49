import Foundation
import SQLiteQuery
import XCTest
@testable import Logbook

/// The documented queries use indexes on a database of realistic size: checked with
/// `EXPLAIN QUERY PLAN` on the SQL the query layer really generates.
final class QueryPlanTests: XCTestCase {
    nonisolated(unsafe) private static var shared: TestStore?

    /// 20,000 days (about 55 years) of 5 exercises and 3,000 drafts, built once for the class.
    private func store() throws -> TestStore {
        if let store = Self.shared { return store }
        let test = try TestStore()
        let names = ["Squat", "Burpee", "Step Up", "Sun Salute", "Plank", "Lunge", "Row", "Élan"]
        var days: [ExerciseDay] = []
        let first = CalendarDay("1980-01-01")!
        for offset in 0..<20_000 {
            let day = first.adding(days: offset)!
            days.append(ExerciseDay(date: day.start(in: test.store.timeZone) + 3600, day: day,
                                    exercises: (0..<5).map { names[(offset * 7 + $0 * 3) % names.count] }))
        }
        try test.store.history.save(days)
        try test.store.database.write { connection in
            for index in 0..<3_000 {
                let draft = ReleaseDraft(version: "\(index / 10).\(index % 10)", whatsNew: "Notes \(index)",
                                         checklist: [ChecklistItem(title: "Step", isDone: index % 2 == 0)],
                                         submittedAt: index % 3 == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(index) * 86_400))
                try Tables.drafts.insert(draft, in: connection)
            }
        }
        Self.shared = test
        return test
    }

    /// The plan's detail lines for the parent statement of `filter` (and `sort`, if given).
    private func plan<Record>(_ filter: String, sort: String? = nil, schema: QuerySchema<Record>,
                              table: TableDescription<Record>) throws -> String {
        let test = try store()
        return try test.store.database.read { connection in
            var query = RecordQuery(condition: try schema.condition(for: try parseFilter(filter), timeZone: test.store.timeZone))
            if let sort { query.ordering = [try schema.ordering(forFieldNamed: sort, descending: false)] }
            let page = try table.page(query, schema: schema, in: connection)
            let (sql, arguments) = page.parentStatement(columns: "\(table.name).pk")
            return try Self.planLines(sql, arguments, in: connection).joined(separator: "\n")
        }
    }

    /// The detail lines of `EXPLAIN QUERY PLAN` for `sql` with `arguments` bound.
    private static func planLines(_ sql: String, _ arguments: [DatabaseValue], in connection: Connection) throws -> [String] {
        let statement = try connection.prepare("EXPLAIN QUERY PLAN " + sql)
        try statement.bind(arguments)
        var lines: [String] = []
        while try statement.step() { lines.append(try statement.column(3)) }
        return lines
    }

    /// A tiny parser for the filters used here: `FIELD OP VALUE (&& FIELD OP VALUE)*`.
    private func parseFilter(_ text: String) throws -> FilterExpression {
        let none = 0..<0
        let terms = text.components(separatedBy: " && ").map { term -> FilterExpression in
            let parts = term.split(separator: " ", maxSplits: 2).map(String.init)
            let op = FilterOperator(rawValue: parts[1])!
            let value: FilterLiteral
            if let day = CalendarDay(parts[2]) {
                value = .day(year: day.year, month: day.month, day: day.day)
            } else {
                value = .string(String(parts[2].dropFirst().dropLast()))
            }
            return .binary(op, .field(parts[0], at: none), .literal(value, at: none), at: none)
        }
        return terms.dropFirst().reduce(terms[0]) { .and($0, $1) }
    }

    func testDayRangeUsesTheDayIndex() throws {
        let detail = try plan("day >= 2020-01-01 && day <= 2020-01-31", sort: "day",
                              schema: Tables.exerciseDays.querySchema, table: Tables.exerciseDays)
        XCTAssertTrue(detail.contains("USING INDEX sqlite_autoindex_exercise_days_2 (day>? AND day<?)"), detail)
    }

    func testDateRangeUsesTheDateIndex() throws {
        let detail = try plan("date >= 2020-01-01 && date <= 2020-01-31", schema: Tables.exerciseDays.querySchema,
                              table: Tables.exerciseDays)
        XCTAssertTrue(detail.contains("USING INDEX exercise_days_by_date (date>? AND date<?)"), detail)
    }

    func testVersionLookupUsesTheVersionIndex() throws {
        let detail = try plan("version == \"12.3\"", schema: Tables.drafts.querySchema, table: Tables.drafts)
        XCTAssertTrue(detail.contains("USING INDEX drafts_by_version (version_key=?)"), detail)
    }

    func testSubmissionDateRangeUsesItsIndex() throws {
        let detail = try plan("submittedAt >= 2001-02-01 && submittedAt <= 2001-02-10", schema: Tables.drafts.querySchema,
                              table: Tables.drafts)
        XCTAssertTrue(detail.contains("USING INDEX drafts_by_submitted_at (submitted_at>? AND submitted_at<?)"), detail)
    }

    func testExerciseNameFilterUsesTheNameIndex() throws {
        let windowed = try plan("day >= 2020-01-01 && day <= 2020-12-31 && exercises contains \"Élan\"",
                                schema: Tables.exerciseDays.querySchema, table: Tables.exerciseDays)
        XCTAssertTrue(windowed.contains("USING COVERING INDEX exercises_by_name (name_key=? AND day_pk=?)"), windowed)
        let detail = try plan("exercises contains \"Élan\"", schema: Tables.exerciseDays.querySchema, table: Tables.exerciseDays)
        XCTAssertTrue(detail.contains("USING COVERING INDEX exercises_by_name (name_key=? AND day_pk=?)"), detail)
    }

    /// The exercise report over whole years streams the year tallies name by name through their
    /// index by name (migration 0015): no temporary B-tree to group them, only the ones that group
    /// the months, the days and the days waiting to be tallied (the days' two with their count of
    /// distinct days), the one that adds up the parts' few rows per name and the one that orders
    /// the result. The days are read through the day index, also in a store without statistics,
    /// not every exercise row through the name index.
    func testExerciseTotalsStreamTheYearTalliesByName() throws {
        let test = try store()
        let detail = try test.store.database.read { connection in
            try Self.planLines(ReportSQL.exercises(tallied: true),
                               [.null, .null, .null, .null, .null, .null, .null, .null, .text("1980-01-01"), .text("2034-12-31")],
                               in: connection)
        }
        XCTAssertTrue(detail.contains { $0.contains("exercise_years USING COVERING INDEX exercise_years_by_name") }, "\(detail)")
        XCTAssertEqual(detail.filter { $0.contains("TEMP B-TREE") }.count, 7,
                       "grouping the months, the days and the waiting days, the parts' rows by name, and the order: \(detail)")
        XCTAssertFalse(detail.contains { $0.hasPrefix("SCAN e ") }, "\(detail)")
    }

    /// The check that the tallies are current counts the exercise rows in the table itself, whose
    /// pages the file holds in about the order they are read, not in the name index, whose pages
    /// each name's run spreads over the whole file (``ExerciseTallies/currentCheck``).
    func testTheTalliesCheckCountsTheExerciseTableNotTheNameIndex() throws {
        let test = try store()
        let detail = try test.store.database.read { try Self.planLines(ExerciseTallies.currentCheck, [], in: $0) }
        XCTAssertTrue(detail.contains("SCAN exercises"), "\(detail)")
        XCTAssertFalse(detail.contains { $0.contains("exercises_by_name") }, "\(detail)")
        XCTAssertTrue(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) })
    }

    /// The days waiting to be tallied are found by row key above the mark, not by the day index
    /// over the report's range (which read every day of it when none waits).
    func testWaitingDaysAreFoundByRowKey() throws {
        let test = try store()
        try test.store.database.read { connection in
            let waiting = try Self.planLines(ReportSQL.waitingDays, [.text("0001-01-01"), .text("9999-12-31")], in: connection)
            XCTAssertTrue(waiting.contains { $0.contains("SEARCH exercise_days USING INTEGER PRIMARY KEY (rowid>?)") }, "\(waiting)")
            let exercises = try Self.planLines(ReportSQL.exercises(tallied: true), Array(repeating: .text("2000-01-01"), count: 10),
                                               in: connection)
            XCTAssertTrue(exercises.contains { $0.contains("SEARCH d USING INTEGER PRIMARY KEY (rowid>?)") }, "\(exercises)")
        }
    }
}
