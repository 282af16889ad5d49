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
            switch random.int(0...11) {
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
                        SELECT pk, (SELECT max(position) + 1 FROM exercises WHERE day_pk = d.pk), 'Swim', 'Swim'
                        FROM exercise_days AS d WHERE day = ?
                    """, [.text(day.description)]) }
            case 9:
                // Another program deletes a day with foreign keys off (the sqlite3 shell's default), or a checklist item.
                try Connection(path: store.path).execute("PRAGMA foreign_keys = OFF; DELETE FROM exercise_days WHERE day = '\(day)'")
            case 10:
                try raw.write { try $0.run("""
                    DELETE FROM checklist_items WHERE (draft_pk, position) IN (SELECT draft_pk, position FROM checklist_items LIMIT 1)
                    """) }
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
        XCTAssertThrowsError(try store.changes(since: ChangeToken(logbookID: "another", position: 1)) { _ in })
    }
}
