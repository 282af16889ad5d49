import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
@testable import Logbook

/// Days saved by a small write wait to be counted in their week's, month's and year's tallies
/// (migration 0016, ``TalliedThrough``): every report still counts them, every later write keeps
/// the tallies equal to a recount of the days below the mark, and none waits past the limit.
///
/// `LOGBOOK_WAITING_SEED` repeats a run.
final class WaitingDaysTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!
    private let names = ["Squat", "Caf\u{E9}", "Cafe\u{301}", "Row", "row", "\u{C9}lan"]

    private func mismatches(_ store: Logbook) throws -> Int {
        try store.database.read { try ExerciseTallies.mismatches(in: $0).reduce(0) { $0 + $1.rows } }
    }

    /// The days waiting, and the mark.
    private func waiting(_ store: Logbook) throws -> (days: Int, mark: Int64) {
        try store.database.read { connection in
            let mark = try connection.scalar("SELECT \(TalliedThrough.sql)", as: Int64.self) ?? 0
            return (try connection.scalar("SELECT count(*) FROM exercise_days WHERE pk > ?", [.integer(mark)], as: Int.self) ?? 0, mark)
        }
    }

    private func ndjson(_ days: [ExerciseDay]) -> Data {
        Data(days.map { day in
            let exercises = day.exercises.map { "\"\($0)\"" }.joined(separator: ",")
            return "{\"id\":\"\(day.id.uuidString)\",\"day\":\"\(day.day)\",\"date\":\"\(day.day)T08:00:00Z\",\"exercises\":[\(exercises)]}"
        }.joined(separator: "\n").utf8)
    }

    /// Saves 5 to 8 January 2026 one call each, so that they wait, and returns them.
    private func saveFourWaitingDays(_ history: HistoryRepository) throws -> [ExerciseDay] {
        let days = (5...8).map { ExerciseDay(date: instant("2026-01-0\($0)T08:00:00Z"), day: CalendarDay("2026-01-0\($0)")!, exercises: ["Squat", "Row"]) }
        for day in days { try history.save([day]) }
        return days
    }

    /// Saves more new days (after `start`, by default in March 2026) than a small save leaves
    /// waiting: a write that counts the waiting days. Returns them.
    @discardableResult
    private func saveMoreThanASmallSave(_ history: HistoryRepository, after start: String = "2026-03-01") throws -> [ExerciseDay] {
        let days = (1...(ExerciseTallies.smallSaveLimit + 1)).map { offset in
            let day = CalendarDay(start)!.adding(days: offset)!
            return ExerciseDay(date: day.start(in: utc) + 60, day: day, exercises: ["Row"])
        }
        try history.save(days)
        return days
    }

    /// A random mix of every history write, most of them saves of one day, and now and then
    /// another program's damage to the mark; after each step, the tallies equal a recount of the
    /// tallied days, the reports equal the oracle over the main window, the calendar's first and
    /// last months and a random range (whose ends cut periods), and at most 256 days wait. The
    /// run must have left days waiting, counted them later, waited on more than one save, and
    /// damaged the mark in each way while days waited.
    func testReportsCountTheWaitingDaysThroughEveryWrite() throws {
        let seed = ProcessInfo.processInfo.environment["LOGBOOK_WAITING_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...1_000_000)
        print("WaitingDaysTests: LOGBOOK_WAITING_SEED=\(seed)")
        var random = SplitMix64(seed: seed)
        let test = try TestStore()
        let history = test.store.history
        // Three years around New Year, with the calendar's first and last weeks now and then.
        func randomDay() -> CalendarDay {
            let (first, count) = random.pick([("2024-11-01", 500), ("2024-11-01", 500), ("0001-01-01", 20), ("9999-12-10", 22)])
            return CalendarDay(first)!.adding(days: random.int(0...(count - 1)))!
        }
        // The reports are compared over this window and the calendar's edges, not from 0001 to 9999.
        let mainWindow = CalendarDay("2024-11-01")!...CalendarDay("2026-03-15")!
        func randomNames() -> [String] { (0..<random.int(1...4)).map { _ in random.pick(names) } }
        func newDay() throws -> ExerciseDay? {
            let day = randomDay()
            return try history.fetch(day: day) == nil ? ExerciseDay(date: day.start(in: utc) + 60, day: day, exercises: randomNames()) : nil
        }
        var (sawWaiting, sawManyWaiting, sawCounted) = (false, false, false)
        var damagesWhileDaysWaited: Set<String> = []
        var lastSaved: ExerciseDay?
        for step in 0..<300 {
            var before = try waiting(test.store)
            let stored = try history.fetchAll()
            var action = ""
            // Now and then, and once of each kind among the saves of one day below, another program
            // damages the mark first thing in the step (removes it, stores a value that is no row
            // key, lowers it, or raises it over waiting days or above every row key): the reports
            // stay exact, and the step's write, or a deletion when that wrote nothing or left the
            // damage, counts each day once.
            let damageKind: Int? = switch step {
            case 140: 0
            case 150: 1
            case 159: 2
            case 100..<160: nil  // (the saves of one day below, so that more days wait than one save leaves)
            default: random.chance(0.05) ? random.int(0...2) : nil
            }
            let lastDay = try test.store.database.read { try $0.scalar("SELECT coalesce(max(pk), 0) FROM exercise_days", as: Int64.self) } ?? 0
            let markDamage = damageKind.map { randomMarkDamage($0, mark: before.mark, lastDay: lastDay, using: &random) }
            var damagedMark: String?
            if let markDamage {
                action = "the mark \(markDamage.kind) (\(markDamage.sql)), then "
                if before.days > 0 { damagesWhileDaysWaited.insert(markDamage.kind) }
                try Connection(path: test.store.path).execute(markDamage.sql)
                try assertReportsAreExact(test.store, stored, in: mainWindow, step: "seed \(seed), step \(step) (\(action)nothing)")
                damagedMark = try storedMark(test.store)
                before = try waiting(test.store)
            }
            // Saves of one day only for a while, so that more wait than one save may leave; after a
            // damage, often exercises appended to the day saved last (which likely waits).
            let appendsToLastSaved = markDamage != nil && random.chance(0.5)
            switch (100..<160).contains(step) ? 0 : random.int(0...19) {
            case _ where appendsToLastSaved:
                action += "append exercises to the day saved last"
                guard let day = lastSaved, try history.fetch(id: day.id) != nil else { break }
                _ = try history.addDoneExercises(randomNames(), at: day.date + 60)
            case 0...8:
                action += "save one day"
                // A day not stored yet, tried a few times (the calendar's edges fill up), so that the
                // saves of one day in a row leave more days waiting than one save may.
                for _ in 0..<8 {
                    guard let day = try newDay() else { continue }
                    try history.save([day])
                    lastSaved = day
                    break
                }
            case 9...10:
                action += "add exercises on a day, new or stored"
                let day = random.chance(0.5) ? (stored.randomElement(using: &random)?.day ?? randomDay()) : randomDay()
                try history.addDoneExercises(randomNames(), at: day.start(in: utc) + 7_200)
            case 11:
                let count = random.pick([3, 16, 17, 40])
                action += "save \(count) days"
                var days: [ExerciseDay] = []
                for _ in 0..<count {
                    if let day = try newDay(), !days.contains(where: { $0.day == day.day }) { days.append(day) }
                }
                try history.save(days)
            case 12 where !stored.isEmpty:
                action += "delete a day"
                try history.delete(day: stored.randomElement(using: &random)!.day)
            case 13 where !stored.isEmpty:
                action += "save a stored record again, maybe on another day"
                var record = stored.randomElement(using: &random)!
                record.exercises = randomNames()
                let day = randomDay()
                if try history.fetch(day: day) == nil {
                    record.day = day
                    record.date = day.start(in: utc) + 60
                }
                try history.save([record])
            case 14 where !stored.isEmpty:
                action += "move a day"
                let day = randomDay()
                if try history.fetch(day: day) == nil { _ = try history.moveDay(stored.randomElement(using: &random)!.day, to: day) }
            case 15:
                // The last day saved (the last row, maybe waiting) replaced by an import, maybe on
                // another day: the new row may take the deleted one's key.
                action += "import replacing the last day saved"
                guard var record = lastSaved, try history.fetch(id: record.id) != nil else { break }
                if let day = try newDay() { (record.day, record.date) = (day.day, day.date) }
                record.exercises = randomNames()
                _ = try test.store.importRecords(from: ndjson([record] + (try newDay().map { [$0] } ?? [])), named: "step\(step).ndjson",
                                                 options: ImportOptions(format: .ndjson, onConflict: .replace))
            case 16:
                action += "rename an exercise"
                guard let name = try history.exerciseNames().randomElement(using: &random) else { break }
                _ = try history.renameExercise(name, to: random.pick(names + ["Lunge"]))
            default:
                action += "save one day"
                if let day = try newDay() { try history.addDoneExercises(day.exercises, at: day.date) }
            }
            if markDamage != nil, try storedMark(test.store) == damagedMark, let day = try history.fetchAll().randomElement(using: &random) {
                action += ", which left the damage: a deletion"
                try history.delete(day: day.day)
            }
            let after = try waiting(test.store)
            let context = "seed \(seed), step \(step) (\(action))"
            sawWaiting = sawWaiting || after.days > 0
            sawManyWaiting = sawManyWaiting || after.days > ExerciseTallies.smallSaveLimit
            sawCounted = sawCounted || (before.days > 0 && after.mark > before.mark)
            XCTAssertLessThanOrEqual(after.days, Int(TalliedThrough.waitingRowKeyLimit), context)
            XCTAssertEqual(try mismatches(test.store), 0, context)
            XCTAssertTrue(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) }, context)
            // Over the main window, the calendar's edges, and a random range (whose ends cut periods).
            let records = try history.fetchAll()
            var ranges = [mainWindow] + [("0001-01-01", "0001-01-31"), ("9999-12-01", "9999-12-31")].map { CalendarDay($0)!...CalendarDay($1)! }
            let ends = [CalendarDay("2024-11-01")!.adding(days: random.int(0...499))!, CalendarDay("2024-11-01")!.adding(days: random.int(0...499))!]
            ranges.append(ends.min()!...ends.max()!)
            for range in ranges { try assertReportsAreExact(test.store, records, in: range, step: context + " in \(range)") }
        }
        XCTAssertTrue(sawWaiting && sawManyWaiting && sawCounted && damagesWhileDaysWaited.count == 3,
                      "seed \(seed): waiting \(sawWaiting), more than one save's \(sawManyWaiting), counted later \(sawCounted), "
                      + "the mark damaged while days waited: \(damagesWhileDaysWaited.sorted())")
    }

    /// The stored mark's value as SQL's `quote` shows it; nil without the row.
    private func storedMark(_ store: Logbook) throws -> String? {
        try store.database.read { try $0.scalar("SELECT quote(value) FROM logbook_settings WHERE name = 'tallied_through'", as: String.self) }
    }

    /// A damage of kind `kind` another program may do to the mark `mark` (the last day row's key
    /// `lastDay`): 0 removes it or stores a value that is no row key, 1 lowers it (raises it when
    /// it is 0), 2 raises it, to a day that waits (when one does) or above every row key.
    private func randomMarkDamage(_ kind: Int, mark: Int64, lastDay: Int64, using random: inout SplitMix64) -> (kind: String, sql: String) {
        let set = { (value: String) in "UPDATE logbook_settings SET value = \(value) WHERE name = 'tallied_through'" }
        switch kind {
        case 0:
            return ("lost", random.pick(["DELETE FROM logbook_settings WHERE name = 'tallied_through'", set("'many'"),
                                         set("'-9223372036854775808'"), set("x'31'"), set("3.5"), set("''")]))
        case 1 where mark > 0:
            return ("lowered", set("'\(random.int(0...Int(mark) - 1))'"))
        case 2 where mark < lastDay && random.chance(0.5):
            return ("raised", set("'\(random.int(Int(mark) + 1...Int(lastDay)))'"))
        default:
            return ("raised", set(random.pick(["'99999999999999999999'", "'\(1_000_000 + random.int(0...1_000))'"])))
        }
    }

    /// Saves of one day each wait until 256 do; the next is counted with them all.
    func testNoMoreThanTheLimitWait() throws {
        let test = try TestStore()
        let first = CalendarDay("2020-01-01")!
        for offset in 0..<(Int(TalliedThrough.waitingRowKeyLimit) + 10) {
            let day = first.adding(days: offset)!
            try test.store.history.save([ExerciseDay(date: day.start(in: utc) + 60, day: day, exercises: ["Squat", "Row"])])
            let waiting = try waiting(test.store).days
            // The save that would leave 257 waiting counts them all, itself included.
            XCTAssertEqual(waiting, offset < Int(TalliedThrough.waitingRowKeyLimit) ? offset + 1 : offset - Int(TalliedThrough.waitingRowKeyLimit),
                           "after \(offset + 1) saves")
        }
        XCTAssertEqual(try mismatches(test.store), 0)
        try assertReportsAreExact(test.store, try test.store.history.fetchAll(), step: "266 saves")
    }

    /// A day saved alone waits; an import that replaces it (the last row) with a record of
    /// another month deletes its row and inserts one that may take its key: counted once.
    func testAnImportReplacingTheLastWaitingDayCountsItOnce() throws {
        let test = try TestStore()
        let history = test.store.history
        try history.save([ExerciseDay(date: instant("2026-01-05T08:00:00Z"), day: CalendarDay("2026-01-05")!, exercises: ["Squat"])])
        let record = ExerciseDay(date: instant("2026-03-05T08:00:00Z"), day: CalendarDay("2026-03-05")!, exercises: ["Row", "Row"])
        try history.save([record])
        XCTAssertEqual(try waiting(test.store).days, 2)
        var replaced = record
        replaced.day = CalendarDay("2026-05-05")!
        _ = try test.store.importRecords(from: ndjson([replaced]), named: "replace.ndjson",
                                         options: ImportOptions(format: .ndjson, onConflict: .replace))
        XCTAssertEqual(try waiting(test.store).days, 0)
        XCTAssertEqual(try mismatches(test.store), 0)
        try assertReportsAreExact(test.store, try history.fetchAll(), step: "replaced")
    }

    /// A bulk import counts its new days on a thread of its own (``CountingThread``) once it has a
    /// full batch of them; a replacement that comes after that counts the waiting days on the
    /// import's thread, into the counts the other thread was counting: each waiting day counted
    /// once, every new day once, the replaced day's old exercises gone. (The day replaced is of
    /// another year than the waiting days, whose periods no recount of it then puts right.)
    func testAReplacementAfterTheCountingThreadStartedCountsTheWaitingDaysOnce() throws {
        let test = try TestStore()
        let history = test.store.history
        let tallied = try saveMoreThanASmallSave(history, after: "2020-06-01")
        _ = try saveFourWaitingDays(history)
        XCTAssertEqual(try waiting(test.store).days, 4)
        let first = CalendarDay("2027-01-01")!
        var records = (0..<(2 * CountingThread.batchSize + ExerciseTallies.smallSaveLimit)).map { offset in
            let day = first.adding(days: offset)!
            return ExerciseDay(date: day.start(in: utc) + 60, day: day, exercises: [names[offset % names.count], "Row"])
        }
        var replaced = tallied[3]
        replaced.exercises = ["Plank", "\u{C9}lan"]
        records.insert(replaced, at: records.count - 10)
        let summary = try test.store.importRecords(from: ndjson(records), named: "bulk.ndjson",
                                                   options: ImportOptions(format: .ndjson, onConflict: .replace))
        XCTAssertEqual(summary.inserted, records.count - 1)
        XCTAssertEqual(summary.replaced, 1)
        XCTAssertEqual(try waiting(test.store).days, 0)
        XCTAssertEqual(try mismatches(test.store), 0)
        try assertReportsAreExact(test.store, try history.fetchAll(), step: "bulk import with a replacement")
    }

    /// Another program deletes the mark, or stores a value that is no row key: no day is left
    /// waiting then (nothing says which days the tallies count), the next write (a save of a new
    /// day, or exercises appended to a stored one) recounts every tally from the rows, as `repair`
    /// does, and stores the mark again; the reports stay exact
    /// throughout. (A mark above every row key, which deleting the last day rows also leaves, is
    /// stored again at the last row once the next write counts the days it hid:
    /// testAMarkAnotherProgramMovedCountsEveryDayOnce.)
    func testALostMarkLeavesNoDayWaitingAndIsStoredAgain() throws {
        for damage in ["DELETE FROM logbook_settings WHERE name = 'tallied_through'",
                       "UPDATE logbook_settings SET value = 'many' WHERE name = 'tallied_through'",
                       "UPDATE logbook_settings SET value = '-9223372036854775808' WHERE name = 'tallied_through'",
                       "UPDATE logbook_settings SET value = '99999999999999999999' WHERE name = 'tallied_through'",
                       "UPDATE logbook_settings SET value = x'31' WHERE name = 'tallied_through'"] {
            // The next write saves a new day, or appends exercises to the waiting one.
            for appends in [false, true] {
                let test = try TestStore()
                let history = test.store.history
                func save(_ day: String) throws {
                    try history.save([ExerciseDay(date: CalendarDay(day)!.start(in: utc) + 60, day: CalendarDay(day)!, exercises: ["Squat", "Row"])])
                }
                let step = damage + (appends ? ", then an append" : ", then a save")
                try save("2026-01-05")
                XCTAssertEqual(try waiting(test.store).days, 1, damage)
                try Connection(path: test.store.path).execute(damage)
                try assertReportsAreExact(test.store, try history.fetchAll(), step: damage)
                if appends {
                    _ = try history.addDoneExercises(["Lunge"], at: instant("2026-01-05T10:00:00Z"))
                } else {
                    try save("2026-01-06")
                }
                let stored = try test.store.database.read {
                    try $0.scalar("SELECT value FROM logbook_settings WHERE name = 'tallied_through'", as: String.self)
                }
                XCTAssertEqual(stored, appends ? "1" : "2", "\(step): stored again, at the last day row")
                XCTAssertEqual(try mismatches(test.store), 0, "\(step): the write counted what the lost mark hid")
                XCTAssertTrue(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) }, step)
                try assertReportsAreExact(test.store, try history.fetchAll(), step: step)
                _ = try test.store.repair()
                XCTAssertEqual(try mismatches(test.store), 0, damage)
                XCTAssertTrue(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) }, damage)
                try save("2026-01-07")
                XCTAssertEqual(try waiting(test.store).days, 1, "\(step): days wait again")
                try assertReportsAreExact(test.store, try history.fetchAll(), step: step + ", repaired")
            }
        }
    }

    /// Another program lowers the mark below days the tallies count, or raises it over days that
    /// wait (to one of them, to the last row, or above every row key, as deleting the last day
    /// rows leaves it legitimately): the reports stay exact, exercises appended to a day that
    /// waited are not counted as if it had not, and the next write that counts the waiting days
    /// counts each day once, by the month days' bits, which only tallied days have: a waiting day
    /// with its bit is recounted from the rows, not counted again, and a day below a mark the
    /// bits do not bear out, without its bit, is counted.
    func testAMarkAnotherProgramMovedCountsEveryDayOnce() throws {
        for damage in ["'0'", "'10'", "'22'", "'25'", "'100'", "'99999999999999999999999'"] {
            let test = try TestStore()
            let history = test.store.history
            func record(_ day: CalendarDay, _ exercises: [String]) -> ExerciseDay {
                ExerciseDay(date: day.start(in: utc) + 60, day: day, exercises: exercises)
            }
            // 20 days counted at once (more than a small save leaves waiting), then 5 that wait.
            try history.save((0..<20).map { record(CalendarDay("2026-01-01")!.adding(days: $0)!, ["Squat", "Row"]) })
            for offset in 0..<5 { try history.save([record(CalendarDay("2026-02-01")!.adding(days: offset)!, ["Burpee", "Squat"])]) }
            XCTAssertEqual(try waiting(test.store).days, 5, damage)
            try Connection(path: test.store.path).execute("UPDATE logbook_settings SET value = \(damage) WHERE name = 'tallied_through'")
            try assertReportsAreExact(test.store, try history.fetchAll(), step: "\(damage): the mark moved")
            _ = try history.addDoneExercises(["Lunge"], at: CalendarDay("2026-02-02")!.start(in: utc) + 7_200)
            try assertReportsAreExact(test.store, try history.fetchAll(), step: "\(damage): then an append to a day that waited")
            try history.save([record(CalendarDay("2026-06-01")!, ["Row"])])
            try assertReportsAreExact(test.store, try history.fetchAll(), step: "\(damage): then a save of one day")
            _ = try history.removeExercises(atPositions: [1], from: CalendarDay("2026-01-03")!)
            XCTAssertEqual(try mismatches(test.store), 0, "\(damage): then an edit")
            XCTAssertTrue(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) }, damage)
            try assertReportsAreExact(test.store, try history.fetchAll(), step: "\(damage): then an edit")
            let (days, mark) = try waiting(test.store)
            XCTAssertEqual([days, Int(mark)], [0, 26], "\(damage): no day waits, the mark at the last day row")
        }
    }

    /// Another program lowers the mark and, in the same write, inserts as many exercise rows into a
    /// tallied day as the days the lowered mark shows waiting count: the rows then equal the years'
    /// totals plus the waiting days', as when the tallies are current. The tallied days above the
    /// mark have their bits in the month days, which no waiting day has, so the reports see the
    /// tallies behind and count from the rows (helper-60).
    func testALoweredMarkThatBalancesInsertedRowsIsSeen() throws {
        for lowered in 0...2 {
            let test = try TestStore()
            let history = test.store.history
            for (day, exercises) in [("2024-12-01", ["Squat"]), ("2025-02-01", ["Run"]), ("2025-03-01", ["Row", "Plank"])] {
                try history.save([ExerciseDay(date: CalendarDay(day)!.start(in: utc) + 60, day: CalendarDay(day)!, exercises: exercises)])
            }
            _ = try history.renameExercise("Run", to: "Running")  // a recount: every day tallied
            XCTAssertEqual(try waiting(test.store).days, 0)
            let connection = try Connection(path: test.store.path)
            let balance = try XCTUnwrap(connection.scalar(
                "SELECT count(*) FROM exercises WHERE day_pk > \(lowered)", as: Int.self))
            try connection.execute("""
                UPDATE logbook_settings SET value = '\(lowered)' WHERE name = 'tallied_through';
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(balance))
                INSERT INTO exercises (day_pk, position, name, name_key) SELECT 1, 10 + i, 'Lunge', 'Lunge' FROM n;
                """)
            XCTAssertFalse(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) }, "mark lowered to \(lowered)")
            try assertReportsAreExact(test.store, try history.fetchAll(), step: "mark lowered to \(lowered), \(balance) rows inserted")
        }
    }

    /// A day another program stored under a text that is no calendar day, above the mark, does
    /// not stop the write that counts the waiting days: it is left out, as a recount leaves it,
    /// and `check` names it.
    func testAWaitingDayThatIsNoCalendarDayStopsNoWrite() throws {
        let test = try TestStore()
        let history = test.store.history
        // In another year: a recount of the text's own year is another matter (it reads its days by
        // their text, and refuses one that is no calendar day, as before days could wait).
        try history.save([ExerciseDay(date: instant("2025-06-05T08:00:00Z"), day: CalendarDay("2025-06-05")!, exercises: ["Squat"])])
        try Connection(path: test.store.path).execute("""
            INSERT INTO exercise_days (id, day, date) VALUES ('7D3A2F10-0000-4000-8000-000000000001', '2026-02-30', 794000000);
            INSERT INTO exercises (day_pk, position, name, name_key) SELECT pk, 1, 'Row', 'Row' FROM exercise_days WHERE day = '2026-02-30';
            """)
        XCTAssertEqual(try waiting(test.store).days, 2)
        try history.delete(day: CalendarDay("2025-06-05")!)
        XCTAssertEqual(try waiting(test.store).days, 0)
        XCTAssertFalse(try test.store.check().storedValueProblems.isEmpty)
    }
    /// Exercise rows among the waiting days that are no waiting day's, as another program leaves
    /// them, stop no write, and the days around them are counted from their own rows: the write
    /// that counts the waiting days reads the days and the exercise rows side by side in key order
    /// and passes over a row whose key is no day read. The cases: a row under a key that is no
    /// whole number (a fraction between two days' keys, or text: the column's affinity keeps both),
    /// which no day row's key equals; a day row given another key, its rows left under the old one
    /// (foreign keys off); a day between two waiting days that an update marked stale, recounted apart. The
    /// untouched days are counted, not recounted: the change feed names none of them.
    func testExerciseRowsOfNoWaitingDayAmongTheWaitingDaysStopNoWrite() throws {
        let cases: [(damage: String, sql: String, leavesAProblem: Bool)] = [
            ("a fractional key", "INSERT INTO exercises (day_pk, position, name, name_key) SELECT pk + 0.5, 1, 'Lunge', 'Lunge' FROM exercise_days WHERE day = '2026-01-06'", true),
            ("a text key", "INSERT INTO exercises (day_pk, position, name, name_key) SELECT 'x' || pk, 1, 'Lunge', 'Lunge' FROM exercise_days WHERE day = '2026-01-06'", true),
            ("rows left under a day's old key", "UPDATE exercise_days SET pk = pk + 100 WHERE day = '2026-01-06'", true),
            ("a stale day between", "UPDATE exercises SET name = 'Lunge', name_key = 'Lunge' WHERE position = 1 AND day_pk = (SELECT pk FROM exercise_days WHERE day = '2026-01-06')", false),
        ]
        for (damage, sql, leavesAProblem) in cases {
            let test = try TestStore()
            let history = test.store.history
            let days = try saveFourWaitingDays(history)
            let token = try test.store.changes(since: nil) { _ in }
            try Connection(path: test.store.path).execute("PRAGMA foreign_keys = OFF; " + sql)
            XCTAssertGreaterThanOrEqual(try waiting(test.store).days, 3, damage)
            try saveMoreThanASmallSave(history)
            XCTAssertEqual(try waiting(test.store).days, 0, damage)
            XCTAssertEqual(try mismatches(test.store), 0, damage)
            try assertReportsAreExact(test.store, try history.fetchAll(), step: damage)
            // A row of no day leaves the tallies one exercise short of the table, which `check` names.
            XCTAssertEqual(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) }, !leavesAProblem, damage)
            XCTAssertEqual(try test.store.check().isHealthy, !leavesAProblem, damage)
            var named = Set<UUID>()
            try test.store.changes(since: token) { named.insert($0.change.id) }
            let untouched = days.filter { $0.day.description != "2026-01-06" }.map(\.id)
            XCTAssertTrue(named.isDisjoint(with: untouched), "\(damage): \(named.intersection(untouched))")
        }
    }

    /// A waiting day that another program changed behind Logbook's back is recounted, not counted
    /// as its rows say, by the write that counts the waiting days, and the change feed names it:
    /// an exercise row added (no trigger sees it), the totals' count replaced by text or by a
    /// fraction, a day row with no exercise but a totals row (none of those counts is the day's
    /// whole number of rows). One damage a run, so that no other day's recount covers it; the
    /// untouched waiting days are counted and not named.
    func testAWaitingDayAnotherProgramChangedIsRecountedAndNamedByTheFeed() throws {
        let damages = [
            ("a row added", "2026-01-05",
             "INSERT INTO exercises (day_pk, position, name, name_key) SELECT pk, 3, 'Lunge', 'Lunge' FROM exercise_days WHERE day = '2026-01-05'"),
            ("a count in text", "2026-01-06", "UPDATE exercise_day_totals SET exercises = 'two' WHERE day = '2026-01-06'"),
            ("a fraction", "2026-01-07", "UPDATE exercise_day_totals SET exercises = 2.5 WHERE day = '2026-01-07'"),
            ("a day with no exercise", nil, """
                INSERT INTO exercise_days (id, day, date) VALUES ('7D3A2F10-0000-4000-8000-000000000009', '2026-01-09', 789638400);
                INSERT INTO exercise_day_totals (day, exercises, distinct_exercises, top_exercise) VALUES ('2026-01-09', 'none', 1, 'Row');
                """),
        ]
        for (damage, changedDay, sql) in damages {
            let test = try TestStore()
            let history = test.store.history
            let days = try saveFourWaitingDays(history)
            let token = try test.store.changes(since: nil) { _ in }
            try Connection(path: test.store.path).execute(sql)
            XCTAssertGreaterThanOrEqual(try waiting(test.store).days, 4, damage)
            try saveMoreThanASmallSave(history)
            XCTAssertEqual(try waiting(test.store).days, 0, damage)
            XCTAssertEqual(try mismatches(test.store), 0, damage)
            XCTAssertTrue(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) }, damage)
            try assertReportsAreExact(test.store, try history.fetchAll(), step: damage)
            var named = Set<UUID>()
            try test.store.changes(since: token) { named.insert($0.change.id) }
            XCTAssertEqual(named.intersection(days.map(\.id)), Set(days.filter { $0.day.description == changedDay }.map(\.id)), damage)
        }
    }
}
