import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
@testable import Logbook

/// The month and year tallies (migrations 0004, 0011), the day totals (0005) and the week, month
/// and year totals (0011; the weeks' from their exercise rows since 0012) stay equal to a recount of the exercises table through every way history is
/// written: new days, appends, replacements that keep or move the day, deletions, and imports
/// with merges and replacements.
final class ExerciseTallyTests: XCTestCase {
    private let names = ["Squat", "Cafe\u{301}", "Caf\u{E9}", "Row", "Élan"]

    private func mismatches(_ store: Logbook) throws -> Int {
        try store.database.read { try ExerciseTallies.mismatches(in: $0).reduce(0) { $0 + $1.rows } }
    }

    /// Mostly a year's end and ISO week 53; now and then the calendar's first or last days, whose
    /// weeks SQLite's date() cannot step past.
    private func randomDay(_ random: inout SplitMix64) -> CalendarDay {
        let (first, count) = random.pick([("2020-12-01", 70), ("2020-12-01", 70), ("0001-01-01", 10), ("9999-12-20", 12)])
        return CalendarDay(first)!.adding(days: Int.random(in: 0..<count, using: &random))!
    }

    private func randomExercises(_ random: inout SplitMix64) -> [String] {
        (0...Int.random(in: 0..<4, using: &random)).map { _ in names.randomElement(using: &random)! }
    }

    func testEveryWritePathKeepsTheTalliesEqualToARecount() throws {
        let utc = TimeZone(identifier: "UTC")!
        for seed: UInt64 in 1...4 {
            var random = SplitMix64(seed: seed)
            let test = try TestStore()
            let history = test.store.history
            for step in 0..<120 {
                let day = randomDay(&random)
                let stored = try history.fetchAll()
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    try history.addDoneExercises(randomExercises(&random), at: day.start(in: utc) + 600)
                case 1 where !stored.isEmpty:
                    try history.delete(day: stored.randomElement(using: &random)!.day)
                case 2 where !stored.isEmpty:
                    // Same id, maybe another day, new exercises.
                    var record = stored.randomElement(using: &random)!
                    record.exercises = randomExercises(&random)
                    if try history.fetch(day: day) == nil { record.day = day }
                    try history.save([record])
                case 3:
                    let lines = (0..<3).map { _ -> String in
                        let day = randomDay(&random)
                        let exercises = randomExercises(&random).map { "\"\($0)\"" }.joined(separator: ",")
                        return "{\"id\":\"\(UUID().uuidString)\",\"day\":\"\(day)\",\"date\":\"\(day)T08:00:00Z\",\"exercises\":[\(exercises)]}"
                    }
                    let file = test.folder.appendingPathComponent("step\(step).ndjson")
                    try Data(lines.joined(separator: "\n").utf8).write(to: file)
                    let handle = try FileHandle(forReadingFrom: file)
                    defer { try? handle.close() }
                    _ = try test.store.importRecords(from: handle, file: file.lastPathComponent,
                                                     options: ImportOptions(format: .ndjson, onConflict: .replace))
                default:
                    if try history.fetch(day: day) == nil {
                        try history.save([ExerciseDay(date: day.start(in: utc) + 60, day: day, exercises: randomExercises(&random))])
                    }
                }
                XCTAssertEqual(try mismatches(test.store), 0, "seed \(seed), step \(step)")
            }
            // The reports read the tallies; a store built from the final records gives the same.
            let rebuilt = try TestStore()
            try rebuilt.store.history.save(try history.fetchAll())
            for period in ReportPeriod.allCases {
                for (from, to) in [("0001-01-01", "0001-01-31"), ("2020-11-20", "2021-02-20"), ("9999-12-01", "9999-12-31")] {
                    let mutated = try test.store.reports.history(by: period, from: CalendarDay(from), to: CalendarDay(to))
                    let fresh = try rebuilt.store.reports.history(by: period, from: CalendarDay(from), to: CalendarDay(to))
                    XCTAssertEqual(mutated, fresh, "seed \(seed) \(period) \(from)...\(to)")
                }
            }
        }
    }

    /// Imports large enough to write their in-memory counts more than once within one transaction
    /// (the test checks that they are), in shuffled order, so that a week, month or year gains days
    /// across those writes, on top of totals stored before, and is counted in memory on many
    /// separate visits; some records replace stored ones (by id, on the same or another day).
    func testLargeShuffledImportsOnStoredHistoryKeepTheTotalsEqualToARecount() throws {
        let names = self.names + (1...116).map { "Drill \($0)" }
        for seed: UInt64 in [7, 8] {
            print("ExerciseTallyTests: large shuffled imports, seed \(seed)")
            var random = SplitMix64(seed: seed)
            let test = try TestStore()
            let first = CalendarDay("1990-01-01")!
            var days = (0..<(30 * 365)).map { first.adding(days: $0)! }.shuffled(using: &random)
            // The ids stored by earlier batches, in order (a file holds each record once).
            var storedIDs: [UUID] = []
            var tallied = Set<String>()
            func lines(_ days: ArraySlice<CalendarDay>, random: inout SplitMix64) -> String {
                var idsOfBatch = Set<UUID>()
                defer { storedIDs += idsOfBatch }
                return days.map { day -> String in
                    // One record in ten takes the id of a stored one (a replacement, maybe moving it).
                    var id = Int.random(in: 0..<10, using: &random) == 0 ? (storedIDs.randomElement(using: &random) ?? UUID()) : UUID()
                    if !idsOfBatch.insert(id).inserted {
                        id = UUID()
                        idsOfBatch.insert(id)
                    }
                    let exercises = (1...Int.random(in: 1...10, using: &random)).map { _ in names.randomElement(using: &random)! }
                    for name in exercises {
                        for period in ReportPeriod.tallied { tallied.insert("\(period.start(of: day)) \(period) \(name.comparisonKey)") }
                    }
                    let list = exercises.map { "\"\($0)\"" }.joined(separator: ",")
                    return "{\"id\":\"\(id.uuidString)\",\"day\":\"\(day)\",\"date\":\"\(day)T08:00:00Z\",\"exercises\":[\(list)]}"
                }.joined(separator: "\n")
            }
            let storedFirst = days.prefix(2_000)
            days.removeFirst(2_000)
            for (index, batch) in [storedFirst, days[...]].enumerated() {
                tallied.removeAll()
                let text = lines(batch, random: &random)
                if index == 1 {
                    XCTAssertGreaterThan(tallied.count, ExerciseTallies.pendingLimit, "too few to write the counts more than once")
                }
                _ = try test.store.importRecords(from: Data(text.utf8), named: "batch\(index).ndjson",
                                                 options: ImportOptions(format: .ndjson, onConflict: .replace))
                XCTAssertEqual(try mismatches(test.store), 0, "seed \(seed), batch \(index)")
            }
        }
    }

    /// Migrations 0004 and 0005 count the history that was written before them.
    /// Two spellings of one name (NFC, then NFD, whose bytes sort first) that fall in one slot of
    /// the memo that interns names while counting are told apart by their bytes: each day's, the
    /// week's, the month's and the year's smallest spelling is the one written.
    func testTwinSpellingsInOneInterningSlotAreToldApart() throws {
        let twins = try XCTUnwrap((0..<10_000).lazy.map { ("Drill \($0) \u{E9}", "Drill \($0) e\u{301}") }
            .first { NewDayCounts.recentSlot(of: $0.0) == NewDayCounts.recentSlot(of: $0.1) })
        let test = try TestStore()
        let first = CalendarDay("2026-03-02")!
        let utc = TimeZone(identifier: "UTC")!
        try test.store.history.save([
            ExerciseDay(id: UUID(), date: first.start(in: utc) + 3_600, day: first, exercises: [twins.0, twins.0]),
            ExerciseDay(id: UUID(), date: first.start(in: utc) + 90_000, day: first.adding(days: 1)!, exercises: [twins.1]),
        ])
        XCTAssertEqual(try mismatches(test.store), 0, "the tallies of \(twins)")
    }

    /// An import refused by a record that comes after its new days were handed to the counting
    /// thread (``CountingThread``, dropped with the write, which stops and waits for its thread)
    /// leaves the database as it was, as a dry run of the good days does; the import of the same
    /// days without the bad record counts them all.
    func testAnImportRefusedWhileItsDaysAreCountedElsewhereLeavesNothing() throws {
        let test = try TestStore()
        let first = CalendarDay("2026-01-01")!
        var lines = (0..<(3 * CountingThread.batchSize)).map { offset in
            let exercises = [names[offset % names.count], names[offset % 3]].map { "\"\($0)\"" }.joined(separator: ",")
            return "{\"id\":\"\(UUID().uuidString)\",\"day\":\"\(first.adding(days: offset)!)\",\"exercises\":[\(exercises)]}"
        }
        let good = Data(lines.joined(separator: "\n").utf8)
        lines.insert("{\"id\":\"\(UUID().uuidString)\",\"day\":\"2026-02-30\",\"exercises\":[\"Row\"]}", at: lines.count - 5)
        XCTAssertThrowsError(try test.store.importRecords(from: Data(lines.joined(separator: "\n").utf8), named: "bad.ndjson")) { error in
            guard case LogbookError.importRefused(let refusal) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(refusal.field, "day")
        }
        XCTAssertEqual(try test.store.history.fetchCount(), 0)
        XCTAssertEqual(try test.store.database.read { try $0.scalar("SELECT count(*) FROM exercise_day_totals", as: Int.self) }, 0)
        // A dry run counts them on the thread too, and writes nothing either.
        let dryRun = try test.store.importRecords(from: good, named: "good.ndjson", options: ImportOptions(dryRun: true))
        XCTAssertEqual(dryRun.inserted, 3 * CountingThread.batchSize)
        XCTAssertEqual(try test.store.history.fetchCount(), 0)
        let summary = try test.store.importRecords(from: good, named: "good.ndjson")
        XCTAssertEqual(summary.inserted, 3 * CountingThread.batchSize)
        XCTAssertEqual(try mismatches(test.store), 0)
    }

    /// A row of `exercise_day_totals` that another program wrote for a day with no record (a
    /// derived row written behind Logbook's back, which no trigger marks) is replaced when a save
    /// brings that day: the save writes its days' totals in multi-row batches that skip a stored
    /// row, and writes a batch that skipped one again, replacing it (`ReplacingRowBatch`).
    /// Seeded: saves of 2 to 80 days (batches of every size, and saves small enough to leave
    /// their days waiting), about a third of their days with a stray row first.
    func testStrayDayTotalsAreReplacedBySavesOfTheirDays() throws {
        let seed = PropertyTestSettings.seed("STRAY_DAY_TOTALS_SEED", default: 2611)
        var random = SplitMix64(seed: seed)
        let utc = TimeZone(identifier: "UTC")!
        let test = try TestStore()
        let otherProgram = try Connection(path: test.store.path)
        var next = CalendarDay("2024-01-01")!
        for round in 0..<16 {
            let days = (0..<Int.random(in: 2...80, using: &random)).map { next.adding(days: $0)! }
            next = days.last!.adding(days: Int.random(in: 1...40, using: &random))!
            var strays = 0
            for day in days where Int.random(in: 0..<3, using: &random) == 0 {
                strays += 1
                try otherProgram.run("""
                    INSERT INTO exercise_day_totals (day, exercises, distinct_exercises, top_exercise) VALUES (?, ?, 1, 'Stray')
                    """, [day.databaseValue, .integer(Int64.random(in: 1...9, using: &random))])
            }
            try test.store.history.save(days.map { ExerciseDay(date: $0.start(in: utc) + 60, day: $0, exercises: randomExercises(&random)) })
            XCTAssertEqual(try mismatches(test.store), 0, "seed \(seed), round \(round): \(days.count) days, \(strays) stray rows")
        }
    }

    /// The month and year keys that a bulk write binds (computed in Swift, so that its multi-row
    /// inserts call no SQL function) are the keys the SQL of every other tally write computes, for
    /// days over the whole calendar (seeded; years 1 to 9999, the first and last days included).
    func testTallyKeysBoundFromSwiftEqualTheKeysTheSQLComputes() throws {
        let seed = PropertyTestSettings.seed("TALLY_KEY_SEED", default: 2613)
        var random = SplitMix64(seed: seed)
        let connection = try Connection(path: ":memory:")
        let days = [CalendarDay.first, .last] + (0..<2_000).map { _ in
            CalendarDay(dayNumber: Int.random(in: CalendarDay.first.dayNumber...CalendarDay.last.dayNumber, using: &random))!
        }
        for period in ReportPeriod.tallied {
            for day in days {
                let start = period.start(of: day)
                let computed = try connection.scalar("SELECT \(period.tallyKey(ofStart: "?"))", [start.databaseValue], as: String.self)
                XCTAssertEqual(period.tallyKey(of: start), computed, "seed \(seed): \(period) of \(day)")
            }
        }
    }

    func testMigrationsCountTheHistoryWrittenBeforeThem() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("old.sqlite").path
        let beforeTallies = try Migrator(migrations: Schema.migrationFiles.prefix(3).map {
            try Migration(fileName: $0.fileName, sql: $0.sql)
        })
        var random = SplitMix64(seed: 9)
        try Database(path: path, migrator: beforeTallies).write { connection in
            for offset in 0..<400 {
                let day = CalendarDay("2019-12-20")!.adding(days: offset)!
                let id = String(format: "00000000-0000-4000-8000-%012d", offset)
                try connection.run("INSERT INTO exercise_days (id, day, date) VALUES (?, ?, 0)", [.text(id), .text(day.description)])
                for (position, name) in randomExercises(&random).enumerated() {
                    try connection.run("INSERT INTO exercises (day_pk, position, name, name_key) VALUES (last_insert_rowid(), ?, ?, ?)",
                                       [.integer(Int64(position + 1)), .text(name), .text(name.comparisonKey)])
                }
            }
        }
        let store = try Logbook(path: path)
        XCTAssertEqual(try store.database.read { try $0.scalar("SELECT count(*) FROM exercise_day_totals", as: Int.self) }, 400)
        XCTAssertEqual(try mismatches(store), 0)
    }

    /// Exercises appended to a stored day are counted in place (`AppendedExercisesCount`): after
    /// every append the derived tables equal a recount, and the change feed names the day. Seeded:
    /// adversarial names (NFC/NFD twins, the newest marks, U+0000) appended again and again to a
    /// few days, so that keys repeat in other spellings; back-dated appends (the day row changes);
    /// and derived rows another program made wrong first (an exercise row inserted behind
    /// Logbook's back, a tally row deleted), which must send the day to a recount instead.
    func testAppendsCountedInPlaceEqualARecountAndAreInTheChangeFeed() throws {
        let seed = PropertyTestSettings.seed("APPEND_TALLY_SEED", default: 2511)
        var random = SplitMix64(seed: seed)
        let test = try TestStore()
        let history = test.store.history
        let utc = TimeZone(identifier: "UTC")!
        let days = (0..<6).map { CalendarDay("2024-12-28")!.adding(days: $0 * 2)! }
        var spellings = (0..<8).map { _ in AdversarialText.string(using: &random, maxPieces: 3, nonEmpty: true) }
        spellings += spellings.map(AdversarialText.twin(of:))
        var token = try test.store.changes(since: nil) { _ in }
        for step in 0..<PropertyTestSettings.scaled(150, by: "APPEND_TALLY_SCALE") {
            let day = random.pick(days)
            let context = "seed \(seed), step \(step), \(day)"
            let names = (0..<random.int(1...3)).map { _ in random.pick(spellings) }
            if try history.fetch(day: day) != nil {
                switch random.int(0...9) {
                case 0:
                    try test.store.database.write { connection in
                        try connection.run("""
                            INSERT INTO exercises (day_pk, position, name, name_key)
                            SELECT pk, (SELECT max(position) + 1 FROM exercises WHERE day_pk = d.pk), 'Foreign', 'Foreign'
                            FROM exercise_days AS d WHERE day = ?
                            """, [day.databaseValue])
                    }
                case 1:
                    // The month row of a name the day has and is about to get again.
                    try test.store.database.write { connection in
                        try connection.run("""
                            DELETE FROM exercise_months WHERE month = substr(?1, 1, 7) AND name_key = ?2
                               AND EXISTS (SELECT 1 FROM exercises AS e JOIN exercise_days AS d ON d.pk = e.day_pk
                                           WHERE d.day = ?1 AND e.name_key = ?2)
                            """, [day.databaseValue, .text(names[0].comparisonKey)])
                    }
                default:
                    break
                }
            }
            let minutes = random.chance(0.2) ? random.int(0...600) : 900 + step
            let stored = try history.addDoneExercises(names, at: day.start(in: utc) + Double(minutes * 60))
            XCTAssertEqual(try mismatches(test.store), 0, context)
            var logged: [UUID] = []
            token = try test.store.changes(since: token) { logged.append($0.change.id) }
            XCTAssertTrue(logged.contains(stored.id), context)
        }
    }

    /// A day whose date another program stored as text (REAL affinity keeps it text), or whose
    /// totals it overwrote with text, is appended to as before the in-place count: merged, its date
    /// made a number again, its tallies recounted.
    func testAnAppendToADayWithValuesLogbookCannotReadIsMerged() throws {
        let test = try TestStore()
        let history = test.store.history
        try history.addDoneExercises(["Squat"], at: instant("2026-01-05T08:00:00Z"))
        try history.addDoneExercises(["Row"], at: instant("2026-01-06T08:00:00Z"))
        try test.store.database.write { try $0.execute("UPDATE exercise_days SET date = '2026-01-05T08:00:00Z' WHERE day = '2026-01-05'") }
        // The next write recounts the day the update marked stale, and clears the mark.
        try history.addDoneExercises(["Row"], at: instant("2026-01-06T09:00:00Z"))
        let merged = try history.addDoneExercises(["Squat", "Row"], at: instant("2026-01-05T09:00:00Z"))
        XCTAssertEqual(merged.exercises, ["Squat", "Squat", "Row"])
        XCTAssertEqual(merged.date, instant("2026-01-05T09:00:00Z"))
        XCTAssertEqual(try mismatches(test.store), 0)
        try test.store.database.write { try $0.execute("UPDATE exercise_day_totals SET exercises = 'many' WHERE day = '2026-01-06'") }
        XCTAssertEqual(try history.addDoneExercises(["Squat"], at: instant("2026-01-06T10:00:00Z")).exercises, ["Row", "Row", "Squat"])
        XCTAssertEqual(try mismatches(test.store), 0)
    }

    /// Days of more names than a scan finds them among (``PositionIndex``: a dictionary past 16),
    /// NFC/NFD twins and repeats in random order, written through every path that counts a day's
    /// names (a bulk save, saves of a few days that wait, appends to a stored day, a replacement
    /// whose week is recounted from its rows): every total equals the SQL recount's, and the
    /// one-pass audit's count equals the SQL's.
    func testDaysOfManyNamesAreCountedAsTheSQLCountsThem() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_MANY_NAMES_SEED", default: 33)
        var random = SplitMix64(seed: seed)
        var pool: [String] = []
        for index in 0..<120 {
            let name = index % 3 == 0 ? AdversarialText.string(using: &random, maxPieces: 2, nonEmpty: true) : "Name \(index) é"
            pool += [name, AdversarialText.twin(of: name)]
        }
        let manyNames = { (random: inout SplitMix64) in (0..<random.int(17...400)).map { _ in random.pick(pool) } }
        let utc = TimeZone(identifier: "UTC")!
        let test = try TestStore()
        let first = CalendarDay("2024-12-20")!
        try test.store.history.save((0..<20).map { offset in
            let day = first.adding(days: offset * 2)!
            return ExerciseDay(date: day.start(in: utc) + 3_600, day: day, exercises: manyNames(&random))
        })
        for offset in [1, 3] {
            let day = first.adding(days: offset)!
            try test.store.history.save([ExerciseDay(date: day.start(in: utc) + 60, day: day, exercises: manyNames(&random))])
        }
        for offset in [0, 1, 6] {
            _ = try test.store.history.addDoneExercises(manyNames(&random), at: first.adding(days: offset)!.start(in: utc) + 7_200)
        }
        var replaced = try XCTUnwrap(try test.store.history.fetch(day: first.adding(days: 4)!))
        replaced.exercises = manyNames(&random)
        try test.store.history.save([replaced])
        let (audit, reference) = try test.store.database.read { connection in
            (try TallyAudit.mismatches(in: connection)?.map(\.rows), try ExerciseTallies.mismatchesBySQLRecount(in: connection).map(\.rows))
        }
        XCTAssertEqual(reference, [0, 0, 0, 0, 0], "seed \(seed)")
        XCTAssertEqual(audit, reference, "seed \(seed)")
    }

    func testRowsWrittenByAnotherProgramAreFoundAndRecounted() throws {
        let test = try TestStore()
        try test.store.history.save([ExerciseDay(date: instant("2026-01-05T08:00:00Z"), day: CalendarDay("2026-01-05")!,
                                                 exercises: ["Squat"])])
        // Saved alone, the day waits to be tallied: only its day totals count it.
        XCTAssertFalse(try test.store.database.read { try $0.scalar("SELECT count(*) FROM exercise_years", as: Int.self) ?? 0 } > 0)
        let insertRow = "INSERT INTO exercises (day_pk, position, name, name_key) SELECT pk, 2, 'Row', 'Row' FROM exercise_days"
        try test.store.database.write { try $0.execute(insertRow) }
        XCTAssertEqual(try mismatches(test.store), 1, "the day's totals differ (one row, counted once)")
        XCTAssertFalse(try test.store.database.read { try ExerciseTallies.areCurrent(in: $0) })
        try test.store.database.write { try $0.execute("DELETE FROM exercises WHERE name = 'Row'") }
        try test.store.database.write { try ExerciseTallies.recountStaleDays(in: $0) }
        XCTAssertEqual(try mismatches(test.store), 0)
        XCTAssertTrue(try test.store.database.read { try $0.scalar("SELECT count(*) FROM exercise_years", as: Int.self) ?? 0 } > 0,
                      "the recount counted the waiting day")
        // An exercise row added behind Logbook's back to a tallied day: no trigger sees inserts.
        try test.store.database.write { try $0.execute(insertRow) }
        XCTAssertEqual(try mismatches(test.store), 6,
                       "a month and a year row are missing, and the totals of the day, week, month and year differ (a row each)")
        try test.store.database.write { try ExerciseTallies.rebuild(in: $0) }
        XCTAssertEqual(try mismatches(test.store), 0)
        // Deleting behind Logbook's back is seen by the triggers and recounted by the next write.
        try test.store.database.write { try $0.execute("DELETE FROM exercises WHERE name = 'Row'") }
        try test.store.history.addDoneExercise("Squat", at: instant("2026-03-01T08:00:00Z"))
        XCTAssertEqual(try mismatches(test.store), 0)
    }
}
