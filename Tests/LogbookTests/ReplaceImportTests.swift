import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// `--on-conflict replace` takes the file's record wherever it differs from the stored one by a
/// byte or a bit, and writes nothing for a record stored exactly as the file gives it: importing a
/// file again with `replace` deleted and inserted every record (200,000 days took 24 s against 3 s
/// the first time), logged each to the change feed and recounted each day. Seeded
/// (`LOGBOOK_REPLACE_SEED`): days and drafts with adversarial text and dates (sub-microsecond
/// parts, the whole range of years), imported, then imported again with `replace` unchanged, then
/// with some records changed by the least that tells them apart: a name or a title as its NFC/NFD
/// twin (equal to Swift's `==`), a date one unit in the last place away, two exercises swapped.
final class ReplaceImportTests: XCTestCase {
    private struct Day { var id: UUID, seconds: Double, exercises: [String] }
    private struct Draft { var id: UUID, version: String, whatsNew: String, created: Double, titles: [String] }

    func testReplacingWithTheStoredRecordsWritesNothingAndWithAnyDifferenceTakesIt() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_REPLACE_SEED", default: 0x5E9)
        var random = SplitMix64(seed: seed)
        let utc = TimeZone(identifier: "UTC")!
        let firstDay = -730_000  // days since 2001: from the year 2 on
        var days = (0..<300).map { index in
            let start = Double(firstDay + index * 12_000) * 86_400
            return Day(id: UUID(), seconds: start + AdversarialDates.seconds(in: 0...86_399.9, using: &random),
                       exercises: (0..<random.int(1...4)).map { _ in AdversarialText.string(using: &random, nonEmpty: true) })
        }
        var drafts = (0..<40).map { _ in
            Draft(id: UUID(), version: AdversarialText.string(using: &random), whatsNew: AdversarialText.string(using: &random),
                  created: AdversarialDates.seconds(in: -60_000_000_000...250_000_000_000, using: &random),
                  titles: (0..<random.int(0...3)).map { _ in AdversarialText.string(using: &random, nonEmpty: true) })
        }
        let folder = try TemporaryFolder("replace")
        let store = try Logbook(path: folder.file("logbook.sqlite").path, timeZone: utc)
        XCTAssertEqual(try importRecords(days, drafts, into: store, &random).inserted, 340, "seed \(seed)")
        let replace = ImportOptions(onConflict: .replace)

        // Again, as stored: nothing written, nothing logged (the change log is among the rows),
        // every row where it was.
        let rows = try storedRows(store)
        let again = try importRecords(days, drafts, into: store, options: replace, &random)
        XCTAssertEqual([again.read, again.inserted, again.replaced], [340, 0, 340], "seed \(seed)")
        XCTAssertEqual(try storedRows(store), rows, "seed \(seed): a replacement by the stored record itself wrote")
        // What the feed sends when nothing changed: the record its token stopped at, again.
        var repeated: Set<UUID> = []
        let token = try store.changes(since: nil) { _ in }
        try store.changes(since: token) { repeated.insert($0.change.id) }

        // Changed by the least that tells two records apart: each one replaced, exactly as given.
        var changed: Set<UUID> = []
        for index in days.indices where random.chance(0.3) {
            var day = days[index]
            switch random.int(0...2) {
            case 0: day.seconds = random.chance(0.5) ? day.seconds.nextUp : day.seconds.nextDown
            case 1: day.exercises = day.exercises.map(AdversarialText.twin(of:))
            default: day.exercises = day.exercises.count > 1 ? Array(day.exercises.reversed()) : day.exercises + ["Row"]
            }
            guard day.exercises.map({ Array($0.utf8) }) != days[index].exercises.map({ Array($0.utf8) }) || day.seconds != days[index].seconds,
                  try CalendarDay.storable(Date(timeIntervalSinceReferenceDate: day.seconds), in: utc)
                    == CalendarDay.storable(Date(timeIntervalSinceReferenceDate: days[index].seconds), in: utc) else { continue }
            days[index] = day
            changed.insert(day.id)
        }
        for index in drafts.indices where random.chance(0.3) {
            let before = drafts[index]
            drafts[index].whatsNew = AdversarialText.twin(of: drafts[index].whatsNew)
            drafts[index].titles = drafts[index].titles.map(AdversarialText.twin(of:))
            if random.chance(0.5) { drafts[index].created = drafts[index].created.nextUp }
            if Array(drafts[index].whatsNew.utf8) != Array(before.whatsNew.utf8) || drafts[index].created != before.created
                || drafts[index].titles.map({ Array($0.utf8) }) != before.titles.map({ Array($0.utf8) }) {
                changed.insert(drafts[index].id)
            }
        }
        let third = try importRecords(days, drafts, into: store, options: replace, &random)
        XCTAssertEqual([third.inserted, third.replaced], [0, 340], "seed \(seed)")
        var relogged: Set<UUID> = []
        try store.changes(since: token) { relogged.insert($0.change.id) }
        XCTAssertEqual(relogged.subtracting(repeated), changed.subtracting(repeated), "seed \(seed): the records logged are the ones changed")
        let storedDays = Dictionary(uniqueKeysWithValues: try store.history.fetchAll().map { ($0.id, $0) })
        for day in days {
            let stored = try XCTUnwrap(storedDays[day.id], "seed \(seed)")
            XCTAssertEqual(stored.date.timeIntervalSinceReferenceDate, day.seconds, "seed \(seed), day \(day.id)")  // exact; -0.0 is 0
            XCTAssertEqual(stored.exercises.map { Array($0.utf8) }, day.exercises.map { Array($0.utf8) }, "seed \(seed), day \(day.id)")
        }
        for draft in drafts {
            let stored = try XCTUnwrap(try store.drafts.fetch(id: draft.id), "seed \(seed)")
            XCTAssertEqual(Array(stored.whatsNew.utf8), Array(draft.whatsNew.utf8), "seed \(seed), draft \(draft.id)")
            XCTAssertEqual(stored.createdAt.timeIntervalSinceReferenceDate, draft.created, "seed \(seed), draft \(draft.id)")
            XCTAssertEqual(stored.checklist.map { Array($0.title.utf8) }, draft.titles.map { Array($0.utf8) }, "seed \(seed)")
        }
        XCTAssertTrue(try store.check().isHealthy, "seed \(seed)")
    }

    /// A file whose records were merged into records of their days imports again with `replace`
    /// without adding their exercises again, however often, after an import with `skip` or
    /// `replace`: a merged record (an alias) still there as the file gives it is left as it is, no
    /// row written and nothing logged; re-merged, its exercises were appended once more by each
    /// import (helper-45). Where the file also holds the record it was merged into, that record is
    /// replaced, dropping what was merged into it, and the merged one goes in again, so the content
    /// is the same (rows are rewritten). Seeded (`LOGBOOK_REPLACE_SEED`): records with adversarial
    /// names merged into stored days, earlier and later in the day than the stored record, and
    /// 1 to 4 records of one day.
    func testAFileOfMergedRecordsImportedAgainWithReplaceAddsNothing() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_REPLACE_SEED", default: 0x5E9)
        var random = SplitMix64(seed: seed)
        let utc = TimeZone(identifier: "UTC")!
        let noon = 9_000 * 86_400.0 + 43_200  // noon of a day in 2025
        func record(onDay index: Int) -> Day {
            Day(id: UUID(), seconds: noon + Double(index) * 86_400 + AdversarialDates.seconds(in: -43_000...43_000, using: &random),
                exercises: (0..<random.int(1...3)).map { _ in AdversarialText.string(using: &random, nonEmpty: true) })
        }
        for (firstPolicy, recordsPerDay) in [(ConflictPolicy.skip, 1...1), (.replace, 1...1), (.skip, 1...4), (.replace, 1...4)] {
            let context = "seed \(seed), first \(firstPolicy), \(recordsPerDay) records a day"
            let folder = try TemporaryFolder("replace-merged")
            let store = try Logbook(path: folder.file("logbook.sqlite").path, timeZone: utc)
            // Stored first: a record at noon on each of 10 days; the file: records on those and 10 more.
            for index in 0..<10 {
                let date = Date(timeIntervalSinceReferenceDate: noon + Double(index) * 86_400)
                try store.history.save([ExerciseDay(date: date, day: try CalendarDay.storable(date, in: utc),
                                                    exercises: [AdversarialText.string(using: &random, nonEmpty: true)])])
            }
            var days: [Day] = []
            for index in 0..<20 { for _ in 0..<random.int(recordsPerDay) { days.append(record(onDay: index)) } }
            days.shuffle(using: &random)
            XCTAssertEqual(try importRecords(days, [], into: store, options: ImportOptions(onConflict: firstPolicy), &random).read, days.count)
            let rows = try storedRows(store)
            let records = try store.history.fetchAll().map { [$0.id.uuidString, "\($0.date.timeIntervalSinceReferenceDate)"] + $0.exercises }
            XCTAssertEqual(records.map { $0.count - 2 }.reduce(0, +), 10 + days.map(\.exercises.count).reduce(0, +), "\(context): lost or doubled")
            for round in 1...3 {
                let again = try importRecords(days, [], into: store, options: ImportOptions(onConflict: .replace), &random)
                XCTAssertEqual([again.inserted, again.replaced], [0, days.count], "\(context), round \(round)")
                let after = try store.history.fetchAll().map { [$0.id.uuidString, "\($0.date.timeIntervalSinceReferenceDate)"] + $0.exercises }
                XCTAssertTrue(after.map { $0.map { Array($0.utf8) } } == records.map { $0.map { Array($0.utf8) } },
                              "\(context), round \(round): the records changed")
                if recordsPerDay == 1...1 {
                    XCTAssertTrue(try storedRows(store) == rows, "\(context), round \(round): the import wrote")
                }
            }
            XCTAssertTrue(try store.check().isHealthy, context)
        }
        // A record merged into one the file also holds, whose exercises that one's own hold in a
        // run: the replacement of the first drops them, so the merged one goes in again.
        let store = try Logbook(path: try TemporaryFolder("replace-merged-run").file("logbook.sqlite").path, timeZone: utc)
        let pair = [Day(id: UUID(), seconds: noon, exercises: ["Squat", "Row"]), Day(id: UUID(), seconds: noon + 60, exercises: ["Row"])]
        for policy in [ConflictPolicy.skip, .replace, .replace] {
            _ = try importRecords(pair, [], into: store, options: ImportOptions(onConflict: policy), &random)
            XCTAssertEqual(try store.history.fetchAll().map(\.exercises), [["Squat", "Row", "Row"]], "after \(policy)")
        }
    }

    /// A stored record holding a value Logbook cannot read (another program's: a lowercase item
    /// id, a name that is not UTF-8) is replaced by the file's, which puts it right; the check of
    /// whether it was stored as given failed the import instead (helper-33).
    func testAStoredRecordWithAnUnreadableValueIsReplaced() throws {
        let folder = try TemporaryFolder("replace-unreadable")
        let store = try Logbook(path: folder.file("logbook.sqlite").path, timeZone: TimeZone(identifier: "UTC")!)
        let day = Data(#"{"id":"51111111-1111-4111-8111-111111111111","day":"2024-03-01","date":"2024-03-01T07:00:00Z","exercises":["Squat"]}"#.utf8)
        let draft = Data(#"""
            {"id":"11111111-1111-4111-8111-111111111111","version":"1.0","whatsNew":"","createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z","checklist":[{"id":"21111111-1111-4111-8111-11111111111A","title":"A","isDone":false}]}
            """#.utf8)
        XCTAssertEqual(try store.importRecords(from: day, named: "day.ndjson").inserted, 1)
        XCTAssertEqual(try store.importRecords(from: draft, named: "draft.ndjson").inserted, 1)
        try store.underlyingDatabase.write { connection in
            try connection.execute("""
                UPDATE exercises SET name = CAST(X'5371FF' AS TEXT), name_key = CAST(X'5371FF' AS TEXT);
                UPDATE checklist_items SET id = lower(id)
                """)
        }
        XCTAssertThrowsError(try store.history.fetchAll())
        XCTAssertThrowsError(try store.drafts.fetchAll())
        let replace = ImportOptions(onConflict: .replace)
        XCTAssertEqual(try store.importRecords(from: day, named: "day.ndjson", options: replace).replaced, 1)
        XCTAssertEqual(try store.importRecords(from: draft, named: "draft.ndjson", options: replace).replaced, 1)
        XCTAssertEqual(try store.history.fetchAll().map(\.exercises), [["Squat"]])
        XCTAssertEqual(try store.drafts.fetchAll().first?.checklist.first?.id.uuidString, "21111111-1111-4111-8111-11111111111A")
        XCTAssertTrue(try store.check().isHealthy)
    }

    /// `days` and `drafts` imported from NDJSON files, one of each kind, with `options`: the two
    /// summaries' counts of records read, inserted and replaced. Dates are JSON numbers (seconds since 2001, written to the last
    /// bit); text has random escapes.
    private func importRecords(_ days: [Day], _ drafts: [Draft], into store: Logbook, options: ImportOptions = ImportOptions(),
                               _ random: inout SplitMix64) throws -> (read: Int, inserted: Int, replaced: Int) {
        func text(_ value: String) -> String { AdversarialText.jsonLiteral(value, escaping: 0.2, using: &random) }
        let dayLines = days.map { day in
            #"{"id":"\#(day.id)","date":\#(day.seconds),"exercises":[\#(day.exercises.map(text).joined(separator: ","))]}"#
        }
        let draftLines = drafts.map { draft in
            let checklist = draft.titles.enumerated().map { index, title in
                #"{"id":"00000000-0000-0000-0000-\#(String(format: "%012d", index))","title":\#(text(title)),"isDone":false}"#
            }
            return #"{"id":"\#(draft.id)","version":\#(text(draft.version)),"whatsNew":\#(text(draft.whatsNew)),"#
                + #""createdAt":\#(draft.created),"updatedAt":\#(draft.created),"checklist":[\#(checklist.joined(separator: ","))]}"#
        }
        let summaries = try [(dayLines, "days.ndjson"), (draftLines, "drafts.ndjson")].map { lines, name in
            try store.importRecords(from: Data((lines.joined(separator: "\n") + "\n").utf8), named: name, options: options)
        }
        return (summaries.map(\.read).reduce(0, +), summaries.map(\.inserted).reduce(0, +), summaries.map(\.replaced).reduce(0, +))
    }

    /// Every row of the records' tables (row keys included), and the change log's.
    private func storedRows(_ store: Logbook) throws -> [[DatabaseValue]] {
        try store.underlyingDatabase.read { connection in
            var rows: [[DatabaseValue]] = []
            for table in ["drafts", "checklist_items", "exercise_days", "exercises", "exercise_day_totals", "change_log"] {
                let statement = try connection.prepare("SELECT '\(table)', * FROM \(table)")
                while try statement.step() {
                    rows.append(try (0..<statement.columnCount).map { try statement.column($0, as: DatabaseValue.self) })
                }
            }
            return rows
        }
    }
}
