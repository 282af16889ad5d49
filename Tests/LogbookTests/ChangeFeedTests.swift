import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// `Logbook.changes(since:)`: a replica that applies every feed equals the logbook after any
/// sequence of writes, by the library and by raw SQL (another program), with feeds pulled at
/// random points and the same token sometimes pulled twice.
final class ChangeFeedTests: XCTestCase {
    func testAReplicaFollowingTheFeedEqualsTheLogbookAfterAnyWrites() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_CHANGES_SEED", default: 0xC4A9)
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder("logbook-changes")
        let utc = TimeZone(identifier: "UTC")!
        let store = try Logbook(path: folder.file("feed.sqlite").path, timeZone: utc)
        let names = ["Burpee", "Squat", "Café", "Cafe\u{301}", "Row"] + (0..<4).map { _ in AdversarialText.string(using: &random, nonEmpty: true) }
        var drafts: [UUID: ReleaseDraft] = [:], days: [UUID: ExerciseDay] = [:]
        var token: ChangeToken?
        func pull() throws {
            var seen: [(kind: RecordKind, id: UUID, position: Int64)] = []
            token = try store.changes(since: token) { logged in
                // Commit order, each record at most once per pull.
                XCTAssertFalse(seen.contains { $0.kind == logged.change.kind && $0.id == logged.change.id }, "seed \(seed): twice")
                XCTAssertGreaterThanOrEqual(logged.position, seen.last?.position ?? 0, "seed \(seed): out of order")
                seen.append((logged.change.kind, logged.change.id, logged.position))
                switch logged.change {
                case .draft(let draft): drafts[draft.id] = draft
                case .day(let day): days[day.id] = day
                case .draftDeleted(let id): drafts[id] = nil
                case .dayDeleted(let id): days[id] = nil
                }
            }
        }
        func someDay() -> CalendarDay { CalendarDay(year: 2026, month: 1, day: 1)!.adding(days: random.int(0...40))! }
        let raw = store.underlyingDatabase
        for step in 0..<PropertyTestSettings.scaled(400, by: "LOGBOOK_CHANGES_SCALE") {
            let day = someDay()
            switch random.int(0...16) {
            case 0, 1:
                _ = try store.history.addDoneExercise(names[random.int(0...names.count - 1)],
                                                      at: day.start(in: utc).addingTimeInterval(Double(random.int(0...86_399))))
            case 2: _ = try? store.history.delete(day: day)
            case 3: _ = try? store.history.renameExercise(names[random.int(0...names.count - 1)], to: names[random.int(0...names.count - 1)])
            case 4: _ = try? store.history.moveDay(day, to: someDay())
            case 5: _ = try store.drafts.save(ReleaseDraft(version: "1.\(step)", checklist: [ChecklistItem(title: "A")]))
            case 6:
                if let id = try store.drafts.fetchAll().randomElement(using: &random)?.id {
                    _ = try? store.drafts.setItem(at: 1, done: random.chance(0.5), in: id)
                }
            case 7:
                if let id = try store.drafts.fetchAll().randomElement(using: &random)?.id { _ = try store.drafts.delete(id) }
            case 8:
                // Another program appends an exercise to a day, with foreign keys on and the key it documents.
                try raw.write { try $0.run("""
                    INSERT INTO exercises (day_pk, position, name, name_key)
                        SELECT pk, coalesce((SELECT max(position) + 1 FROM exercises WHERE day_pk = d.pk), 1), 'Swim', 'Swim'
                        FROM exercise_days AS d WHERE day = ?
                    """, [.text(day.description)]) }
            case 9:
                // Another program deletes a day with foreign keys off (the sqlite3 shell's default), or a checklist item.
                try Connection(path: store.path).execute("PRAGMA foreign_keys = OFF; DELETE FROM exercise_days WHERE day = '\(day)'")
            case 10:
                try raw.write { try $0.run("""
                    DELETE FROM checklist_items WHERE (draft_pk, position) IN (SELECT draft_pk, position FROM checklist_items LIMIT 1)
                    """) }
            case 11:
                // Another program stores a new day, with up to three exercises (no trigger logs it).
                try raw.write { connection in
                    try connection.run("INSERT OR IGNORE INTO exercise_days (id, day, date) VALUES (?, ?, ?)",
                                       [.text(UUID().uuidString), .text(day.description), day.start(in: utc).databaseValue])
                    for position in 0..<random.int(0...3) {
                        try connection.run("""
                            INSERT OR IGNORE INTO exercises (day_pk, position, name, name_key)
                                SELECT pk, ?, 'Swim', 'Swim' FROM exercise_days WHERE day = ?
                            """, [.integer(Int64(position + 1)), .text(day.description)])
                    }
                }
            case 12:
                // Another program deletes the newest day (foreign keys on or off) and stores one,
                // which SQLite gives the same row key.
                try Connection(path: store.path).execute("""
                    PRAGMA foreign_keys = \(random.chance(0.5) ? "ON" : "OFF");
                    DELETE FROM exercise_days WHERE pk = (SELECT max(pk) FROM exercise_days);
                    INSERT OR IGNORE INTO exercise_days (id, day, date) VALUES ('\(UUID().uuidString)', '\(day)', 0);
                    """)
            case 13:
                // Another program deletes a day's last exercise (logged; the day's totals are stale)…
                try raw.write { try $0.run("""
                    DELETE FROM exercises WHERE (day_pk, position) IN
                        (SELECT day_pk, max(position) FROM exercises WHERE day_pk = (SELECT pk FROM exercise_days WHERE day = ?))
                    """, [.text(day.description)]) }
            case 14:
                // … and adds one to a day whose totals are stale, unlogged, until Logbook's next
                // write recounts the day.
                try raw.write { try $0.run("""
                    INSERT INTO exercises (day_pk, position, name, name_key)
                        SELECT pk, coalesce((SELECT max(position) + 1 FROM exercises WHERE day_pk = d.pk), 1), 'Row', 'Row'
                        FROM exercise_days AS d ORDER BY day IN (SELECT day FROM exercise_tallies_stale) DESC, day = ? DESC LIMIT 1
                    """, [.text(day.description)]) }
            default:
                try pull()
                if random.chance(0.3) { try pull() }
            }
        }
        try pull()
        XCTAssertEqual(days, Dictionary(uniqueKeysWithValues: try store.history.fetchAll().map { ($0.id, $0) }), "seed \(seed)")
        XCTAssertEqual(drafts, Dictionary(uniqueKeysWithValues: try store.drafts.fetchAll().map { ($0.id, $0) }), "seed \(seed)")
        // A feed from the start of the log gives the same state as the snapshot without a token.
        var fromStart: [UUID: ExerciseDay] = [:]
        try store.changes(since: nil) { if case .day(let day) = $0.change { fromStart[day.id] = day } }
        XCTAssertEqual(fromStart, days, "seed \(seed)")
        XCTAssertThrowsError(try store.changes(since: ChangeToken(logbookID: "another", position: 1, dayMark: 0)) { _ in })
    }

    /// A change-log entry whose id is not text (another program's) fails the feed before it sends
    /// anything, whichever entry of its record comes last: grouped in SQL, the feed sent the record
    /// when its text entry came last and failed midway when the blob came last (helper-33).
    func testAnEntryWhoseIDIsNotTextFailsTheFeedBeforeItSendsAnything() throws {
        for blobLast in [false, true] {
            let folder = try TemporaryFolder("changes-blob")
            let store = try Logbook(path: folder.file("feed.sqlite").path, timeZone: TimeZone(identifier: "UTC")!)
            _ = try store.history.addDoneExercise("Squat", at: Date(timeIntervalSinceReferenceDate: 800_000_000))
            _ = try store.drafts.save(ReleaseDraft(version: "1.0"))
            let token = try store.changes(since: nil) { _ in }
            _ = try store.history.addDoneExercise("Row", at: Date(timeIntervalSinceReferenceDate: 800_100_000))
            let ids = ["id", "CAST(id AS BLOB)"]
            try store.underlyingDatabase.write { connection in
                for id in blobLast ? ids : ids.reversed() {
                    try connection.execute("INSERT INTO change_log (kind, pk, id) SELECT 'day', pk, \(id) FROM exercise_days WHERE pk = 1")
                }
            }
            var sent = 0
            XCTAssertThrowsError(try store.changes(since: token) { _ in sent += 1 }, "blob last: \(blobLast)") { error in
                XCTAssertTrue("\(error)".contains("expected TEXT, found BLOB"), "\(error)")
            }
            XCTAssertEqual(sent, 0, "blob last: \(blobLast)")
        }
    }

    /// A token taken from a file that is then restored from an earlier backup is refused, or else
    /// the feed since it brings a replica at the token to exactly the restored file's records,
    /// after any mix of writes to the restored file (new days, which may take the row keys the
    /// token saw other days at, appends, deletions, moves, drafts, another program's deletion).
    /// It was answered, exit 0, once anything since logged a deletion or a change at the token's
    /// day mark, and the replica kept a day the restored file never had (helper-23).
    /// `LOGBOOK_RESTORE_SEED` repeats a run.
    func testATokenFromBeforeARestoreIsRefusedOrBringsTheReplicaToTheRestoredFile() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_RESTORE_SEED", default: 0x2E57)
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder("logbook-restore")
        let utc = TimeZone(identifier: "UTC")!
        func someDay() -> CalendarDay { CalendarDay(year: 2026, month: 1, day: 1)!.adding(days: random.int(0...30))! }
        func write(_ store: Logbook) throws {
            let day = someDay()
            switch random.int(0...6) {
            case 0, 1, 2: _ = try store.history.addDoneExercise(random.pick(["Squat", "Row", "Café"]), at: day.start(in: utc) + 3_600)
            case 3: _ = try? store.history.delete(day: day)
            case 4: _ = try? store.history.moveDay(day, to: someDay())
            case 5:
                if random.chance(0.5), let id = try store.drafts.fetchAll().randomElement(using: &random)?.id {
                    _ = try store.drafts.delete(id)
                } else {
                    try store.drafts.save(ReleaseDraft(version: "2.\(random.int(0...99))", checklist: [ChecklistItem(title: "A")]))
                }
            default:
                // Another program deletes a day (the delete trigger logs it).
                try Connection(path: store.path).execute("DELETE FROM exercise_days WHERE day = '\(day)'")
            }
        }
        var (refused, answered) = (0, 0)
        for round in 0..<PropertyTestSettings.scaled(40, by: "LOGBOOK_CHANGES_SCALE") {
            let live = try Logbook(path: folder.file("live-\(round).sqlite").path, timeZone: utc)
            for _ in 0..<random.int(1...8) { try write(live) }
            let backup = folder.file("backup-\(round).sqlite").path
            _ = try live.backup(to: backup)
            for _ in 0..<random.int(0...6) { try write(live) }
            var days: [UUID: ExerciseDay] = [:], drafts: [UUID: ReleaseDraft] = [:]
            let token = try live.changes(since: nil) { logged in
                switch logged.change {
                case .day(let day): days[day.id] = day
                case .draft(let draft): drafts[draft.id] = draft
                case .dayDeleted, .draftDeleted: XCTFail("seed \(seed): a deletion in a snapshot")
                }
            }
            // The restored file: the backup, written on.
            let restored = try Logbook(path: backup, timeZone: utc)
            for step in 0..<random.int(1...8) {
                try write(restored)
                var (replicaDays, replicaDrafts) = (days, drafts)
                do {
                    try restored.changes(since: token) { logged in
                        switch logged.change {
                        case .day(let day): replicaDays[day.id] = day
                        case .draft(let draft): replicaDrafts[draft.id] = draft
                        case .dayDeleted(let id): replicaDays[id] = nil
                        case .draftDeleted(let id): replicaDrafts[id] = nil
                        }
                    }
                } catch LogbookError.changeTokenRefused {
                    refused += 1
                    continue
                }
                answered += 1
                let context = "seed \(seed), round \(round), step \(step)"
                XCTAssertEqual(replicaDays, Dictionary(uniqueKeysWithValues: try restored.history.fetchAll().map { ($0.id, $0) }), context)
                XCTAssertEqual(replicaDrafts, Dictionary(uniqueKeysWithValues: try restored.drafts.fetchAll().map { ($0.id, $0) }), context)
            }
        }
        XCTAssertGreaterThan(refused, 0, "seed \(seed)")
        XCTAssertGreaterThan(answered, 0, "seed \(seed)")
    }

    /// A history that only gains days (the common case: a `history add` of each day) sends each
    /// run only the days added since: a token that stopped at the migration's entry counted its
    /// mark of 0, so every run sent every day again. A run after a change to a stored day sends
    /// that day, and the next run (whose token stops at its entry) sends it again, as the README
    /// says, and nothing more.
    func testEachRunSendsOnlyTheDaysAddedSince() throws {
        let test = try TestStore()
        let utc = TimeZone(identifier: "UTC")!
        func add(_ day: Int) throws -> UUID {
            try test.store.history.addDoneExercise("Run", at: CalendarDay("2026-01-01")!.adding(days: day)!.start(in: utc) + 3_600).id
        }
        func pull(_ token: inout ChangeToken?) throws -> [UUID] {
            var sent: [UUID] = []
            token = try test.store.changes(since: token) { sent.append($0.change.id) }
            return sent
        }
        var token: ChangeToken?
        let first = try (0..<5).map(add)
        XCTAssertEqual(Set(try pull(&token)), Set(first))
        for round in 1...3 {
            let added = try (0..<3).map { try add(round * 10 + $0) }
            XCTAssertEqual(try pull(&token), added, "round \(round)")
        }
        XCTAssertEqual(try pull(&token), [], "nothing added")
        _ = try test.store.history.addDoneExercise("Row", at: CalendarDay("2026-01-01")!.start(in: utc) + 7_200)
        XCTAssertEqual(try pull(&token), [first[0]], "the changed day")
        XCTAssertEqual(try pull(&token), [first[0]], "the record the token stops at, once more")
        let last = try add(99)
        XCTAssertEqual(try pull(&token), [first[0], last])
    }

    /// Rows another program adds to a day whose totals are stale are unlogged until Logbook
    /// recounts the day; Logbook logs the day before the recount, so the next feed still has it.
    func testRowsAnotherProgramAddsBeforeLogbooksRecountReachTheFeed() throws {
        let folder = try TemporaryFolder("logbook-changes")
        let utc = TimeZone(identifier: "UTC")!
        let store = try Logbook(path: folder.file("feed.sqlite").path, timeZone: utc)
        let dayA = Date(timeIntervalSinceReferenceDate: 3_600), dayB = dayA.addingTimeInterval(86_400)
        _ = try store.history.addDoneExercises(["Squat", "Row"], at: dayA)
        _ = try store.history.addDoneExercises(["Run"], at: dayB)
        let raw = store.underlyingDatabase
        try raw.write { connection in
            try connection.execute("DELETE FROM exercises WHERE day_pk = 1 AND position = 2")  // logged, day A stale
            try connection.execute("UPDATE exercises SET name = 'Run' WHERE day_pk = 2")       // logged after it
        }
        let token = try store.changes(since: nil) { _ in }
        try raw.write { try $0.execute("INSERT INTO exercises (day_pk, position, name, name_key) VALUES (1, 2, 'Swim', 'Swim')") }
        _ = try store.history.addDoneExercise("Row", at: dayB)  // recounts day A
        var changed: [UUID: ExerciseDay] = [:]
        try store.changes(since: token) { if case .day(let day) = $0.change { changed[day.id] = day } }
        let stored = try store.history.fetchAll()
        XCTAssertEqual(stored.first?.exercises, ["Squat", "Swim"])
        XCTAssertEqual(changed[stored[0].id], stored[0])
        XCTAssertEqual(changed[stored[1].id], stored[1])
    }

    /// The log keeps 90 days unless told otherwise: entries 89 days old survive another store's
    /// first write, and at 91 days they are pruned by it and a token at them is refused.
    func testTheLogKeepsNinetyDaysByDefault() throws {
        let folder = try TemporaryFolder("logbook-changes")
        let path = folder.file("feed.sqlite").path
        let store = try Logbook(path: path, timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(try store.changeLogRetentionDays(), 90)
        let oldest = ChangeToken(logbookID: try store.logbookID(), position: 1, dayMark: 0)
        _ = try store.history.addDoneExercise("Squat", at: Date(timeIntervalSinceReferenceDate: 0))
        _ = try store.history.addDoneExercise("Row", at: Date(timeIntervalSinceReferenceDate: 60))  // logged
        func age(days: Double) throws {
            try store.underlyingDatabase.write { try $0.run("UPDATE change_log SET at = at - ?", [.real(days * 86_400)]) }
            _ = try store.history.addDoneExercise("Run", at: Date(timeIntervalSinceReferenceDate: 120))  // a fresh newest entry
        }
        // A store prunes after its first write that commits a change.
        func writeFromAnotherStore() throws {
            _ = try Logbook(path: path, timeZone: TimeZone(identifier: "UTC")!).history
                .addDoneExercise("Walk", at: Date(timeIntervalSinceReferenceDate: 180))
        }
        try age(days: 89)
        try writeFromAnotherStore()
        XCTAssertNoThrow(try store.changes(since: oldest) { _ in })
        try age(days: 2)
        try writeFromAnotherStore()
        XCTAssertThrowsError(try store.changes(since: oldest) { _ in }) { error in
            XCTAssertTrue("\(error)".contains("90 days"), "\(error)")
        }
    }

    /// A token written before day marks (`ID:POSITION`) is answered from the entry migration 0010
    /// left, so a feed that started before the upgrade misses no day stored after it; a token
    /// without a mark from after that entry cannot be answered and is refused.
    func testATokenWithoutADayMarkIsAnsweredUpToTheMigrationsEntry() throws {
        let folder = try TemporaryFolder("logbook-changes")
        let utc = TimeZone(identifier: "UTC")!
        let store = try Logbook(path: folder.file("feed.sqlite").path, timeZone: utc)
        let id = try store.logbookID()
        let first = try store.changes(since: nil) { _ in }
        XCTAssertNotNil(first.dayMark)
        _ = try store.history.addDoneExercise("Squat", at: Date(timeIntervalSinceReferenceDate: 0))
        _ = try store.history.addDoneExercise("Row", at: Date(timeIntervalSinceReferenceDate: 60))  // logged: the day's update
        try store.underlyingDatabase.write { try $0.run("""
            INSERT INTO exercise_days (id, day, date) VALUES ('0F0F0F0F-0000-4000-8000-000000000001', '2031-01-01', 915148800)
            """) }
        var days: [UUID] = []
        // A new logbook's log starts with the migration's entry, at position 1.
        let next = try store.changes(since: ChangeToken("\(id):1")!) { days.append($0.change.id) }
        XCTAssertEqual(Set(days), Set(try store.history.fetchAll().map(\.id)))
        XCTAssertEqual(days.count, 2)
        XCTAssertGreaterThan(next.position, 1)
        XCTAssertThrowsError(try store.changes(since: ChangeToken("\(id):\(next.position)")!) { _ in }) { error in
            XCTAssertTrue("\(error)".contains("no day mark"), "\(error)")
        }
    }

    /// A token without a stamp (`ID:POSITION:MARK`, as written before stamps) is answered as the
    /// stamped token it was cut from is, whatever days were added and deleted since; one whose day
    /// mark is above every day record's row key with no deletion since to explain it is refused
    /// (helper-18: it was answered, and the days that would take the row keys up to its mark would
    /// never have been sent). Seeded (LOGBOOK_CHANGES_SEED).
    func testATokenWithoutAStampIsCheckedWhereItCanBe() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_CHANGES_SEED", default: 0x5354_414D)
        var random = SplitMix64(seed: seed)
        let test = try TestStore()
        let utc = TimeZone(identifier: "UTC")!
        let firstDay = CalendarDay("2026-01-01")!
        var stored: Set<Int> = []
        var tokens: [ChangeToken] = [try test.store.changes(since: nil) { _ in }]
        func sent(since token: ChangeToken) throws -> [UUID] {
            var ids: [UUID] = []
            try test.store.changes(since: token) { ids.append($0.change.id) }
            return ids
        }
        for _ in 0..<60 {
            if let day = stored.sorted().randomElement(using: &random), random.chance(0.35) {
                _ = try test.store.history.delete(day: firstDay.adding(days: day)!)
                stored.remove(day)
            } else {
                let day = random.int(0...40)
                _ = try test.store.history.addDoneExercise("Run", at: firstDay.adding(days: day)!.start(in: utc) + 3_600)
                stored.insert(day)
            }
            if random.chance(0.3) { tokens.append(try test.store.changes(since: tokens.last!) { _ in }) }
        }
        for token in tokens {
            let unstamped = ChangeToken(logbookID: token.logbookID, position: token.position, dayMark: token.dayMark)
            XCTAssertEqual(try sent(since: unstamped), try sent(since: token), "seed \(seed), token \(token)")
        }
        let now = try test.store.changes(since: tokens.last!) { _ in }
        for above in [1, 2, 1_000] {
            let forged = ChangeToken(logbookID: now.logbookID, position: now.position, dayMark: now.dayMark! + Int64(above))
            XCTAssertThrowsError(try sent(since: forged), "seed \(seed)") { error in
                XCTAssertTrue("\(error)".contains("its day mark \(now.dayMark! + Int64(above)) is above every day record's row key "
                                                  + "(the highest is \(now.dayMark!)), and no change since says why"), "\(error)")
            }
        }
    }
}
