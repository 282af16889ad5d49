import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// What leaves the file as it was, with every change-log entry long expired: opening it, a dry
/// run, a write that fails and an edit that changes nothing. The store prunes the expired entries
/// after its first write that commits a change, in a transaction of its own. (It pruned them in
/// a transaction of its own when it opened the file to write, so `--dry-run` and failing commands
/// changed the file and made older change tokens unusable; helper-10.) Fixed cases, then a seeded
/// mix of operations (`LOGBOOK_PRUNE_SEED`, `LOGBOOK_PRUNE_SCALE`).
final class WritesThatChangeNothingTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!
    private let then = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// The change log's entries and its first position, read by a connection of its own.
    private func changeLog(at path: String) throws -> [String] {
        let connection = try Connection(path: path)
        let entries = try connection.prepare("SELECT seq || ' ' || kind || ' ' || quote(at) FROM change_log ORDER BY seq")
        var rows: [String] = []
        while try entries.step() { rows.append(try entries.column(0)) }
        let start = try connection.scalar("SELECT value FROM logbook_settings WHERE name = 'change_log_start'", as: String.self)
        return rows + ["start: \(start ?? "none")"]
    }

    func testOnlyAWriteThatChangesTheFilePrunesTheChangeLog() throws {
        let folder = try TemporaryFolder("prune")
        let path = folder.file("logbook.sqlite").path
        let firstDay = CalendarDay(then, in: utc)
        do {
            let store = try Logbook(path: path, timeZone: utc, now: { [then] in then })
            try store.history.save([ExerciseDay(date: then, day: firstDay, exercises: ["Squat"])])
            try store.drafts.save(ReleaseDraft(version: "1.0"))
        }
        let logged = try changeLog(at: path)
        XCTAssertGreaterThan(logged.count, 2)

        let later = then + 400 * 86_400
        let store = try Logbook(path: path, timeZone: utc, now: { later })
        XCTAssertEqual(try changeLog(at: path), logged, "opening the file")

        let newDay = #"{"day":"2030-01-01","exercises":["Row"]}"# + "\n"
        _ = try store.importRecords(from: Data(newDay.utf8), named: "new.ndjson", options: ImportOptions(dryRun: true))
        _ = try store.history.renameExercise("Squat", to: "Squats", dryRun: true)
        XCTAssertEqual(try changeLog(at: path), logged, "dry runs")

        XCTAssertThrowsError(try store.drafts.delete("no such draft"))
        XCTAssertThrowsError(try store.history.moveDay(firstDay.adding(days: 9)!, to: firstDay.adding(days: 10)!))
        XCTAssertEqual(try changeLog(at: path), logged, "writes that failed")

        XCTAssertEqual(try store.history.renameExercise("Squat", to: "Squat").exercises, 0)
        XCTAssertEqual(try changeLog(at: path), logged, "an edit that changes nothing")

        _ = try store.importRecords(from: Data(newDay.utf8), named: "new.ndjson")
        let pruned = try changeLog(at: path)
        XCTAssertFalse(pruned.contains(logged[0]), "the first write that commits a change prunes the expired entries after it")
        XCTAssertNotEqual(pruned.last, logged.last, "and moves the log's start")
        XCTAssertTrue(try store.check().isHealthy)
    }

    /// A logbook in `folder` whose change log holds an entry for each of `count` drafts, and
    /// those entries' positions.
    private func logOfDrafts(_ count: Int, in folder: TemporaryFolder) throws -> (path: String, seqs: [Int64]) {
        let path = folder.file("logbook.sqlite").path
        let store = try Logbook(path: path, timeZone: utc)
        for index in 0..<count { try store.drafts.save(ReleaseDraft(version: "1.\(index)")) }
        let seqs = try logState(at: path).entries.map(\.seq)
        XCTAssertGreaterThanOrEqual(seqs.count, count)
        return (path, seqs)
    }

    /// Stamps each entry at `seqs` with the time beside it, as another connection.
    private func stamp(_ seqs: [Int64], _ stamps: [Double], at path: String) throws {
        let other = try Connection(path: path)
        for (seq, at) in zip(seqs, stamps) {
            try other.run("UPDATE change_log SET at = ? WHERE seq = ?", [.real(at), .integer(seq)])
        }
    }

    /// One entry stamped far ahead (a clock set to 2099 for one edit) held every later entry
    /// back: pruning kept the log from the first entry not expired on, so with one day kept,
    /// entries 70 days old stayed, and `setChangeLogRetention` said one day while keeping them
    /// (helper-77). The log is now kept from its first entry stamped within the retention and
    /// not ahead of the clock on, by the store's first write and by the setting.
    func testAnEntryStampedAheadHoldsNoExpiredEntryBack() throws {
        let folder = try TemporaryFolder("prune-ahead")
        let (path, seqs) = try logOfDrafts(6, in: folder)
        let now = Date()
        // The oldest entry stamped in 2099; the others 70 to 65 days ago, the newest an hour ago.
        let stamps = [Date(timeIntervalSince1970: 4_070_908_800).timeIntervalSinceReferenceDate]
            + seqs.dropFirst().dropLast().indices.map { now.timeIntervalSinceReferenceDate - Double(70 - $0) * 86_400 }
            + [now.timeIntervalSinceReferenceDate - 3_600]
        try stamp(seqs, stamps, at: path)
        let other = try Connection(path: path)
        let newest = seqs.last!
        let store = try Logbook(path: path, timeZone: utc)
        try store.setChangeLogRetention(days: 1)
        XCTAssertEqual(try logState(at: path), LogState(entries: [(newest, stamps.last!)], start: String(newest)),
                       "setting the retention prunes all but the newest entry")

        // Again by a store's first write that commits a change, with the oldest entry ahead.
        try store.drafts.save(ReleaseDraft(version: "2.0"))
        try other.run("UPDATE change_log SET at = ? WHERE seq = ?", [.real(stamps[0]), .integer(newest)])
        try other.run("UPDATE change_log SET at = ? WHERE seq > ?", [.real(now.timeIntervalSinceReferenceDate - 30 * 86_400), .integer(newest)])
        let last = try logState(at: path).entries.last!.seq
        XCTAssertGreaterThan(last, newest)
        try Logbook(path: path, timeZone: utc).drafts.save(ReleaseDraft(version: "3.0"))
        let pruned = try logState(at: path)
        XCTAssertEqual(pruned.start, String(last + 1), "every entry up to the last one stamped 30 days ago is gone: \(pruned)")
        XCTAssertEqual(pruned.entries.map(\.seq), [last + 1])
        XCTAssertTrue(try store.check().isHealthy)
    }

    /// An entry stamped by a clock set back (to 2000) cut every entry before it, those still
    /// kept included, so a 30-day-old token was refused with 90 days kept (helper-78): the log
    /// is kept from its first entry stamped within the retention, and not ahead, on.
    func testAnEntryStampedBehindCutsNoEntryStillKept() throws {
        let folder = try TemporaryFolder("prune-behind")
        let (path, seqs) = try logOfDrafts(9, in: folder)
        let now = Date().timeIntervalSinceReferenceDate
        // 120 days old, then 30, then two stamped in 2000, then an hour old.
        let year2000 = Date(timeIntervalSince1970: 946_684_800).timeIntervalSinceReferenceDate
        let stamps = seqs.indices.map { index in
            index < 3 ? now - 120 * 86_400 : index < 6 ? now - 30 * 86_400 : index < seqs.count - 1 ? year2000 : now - 3_600
        }
        try stamp(seqs, stamps, at: path)
        try Logbook(path: path, timeZone: utc).drafts.save(ReleaseDraft(version: "2.0"))
        let pruned = try logState(at: path)
        XCTAssertEqual(pruned.start, String(seqs[3]), "the entries 30 days old are kept: \(pruned)")
        XCTAssertEqual(pruned.entries.first?.seq, seqs[3])
    }

    // MARK: - A seeded mix

    /// The change log as another connection reads it: each entry's position and time, and the
    /// first position still answered.
    private struct LogState: Equatable {
        var entries: [(seq: Int64, at: Double)]
        var start: String?

        static func == (lhs: LogState, rhs: LogState) -> Bool {
            lhs.start == rhs.start && lhs.entries.elementsEqual(rhs.entries) { $0.seq == $1.seq && $0.at == $1.at }
        }

        /// The log after the prune at `cutoff`, `added` being the entries the write logged: from
        /// the first entry, old or added, stamped within the retention and not after `clock` on
        /// (the newest at the latest), the start moved there; nothing changes while the oldest
        /// is current and not stamped after `clock`.
        func pruned(before cutoff: Double, clock: Double, added: [(seq: Int64, at: Double)]) -> LogState {
            let all = entries + added
            guard let oldest = all.first, oldest.at < cutoff || oldest.at > clock, let newest = all.last else { return self }
            let firstKept = all.first { $0.at >= cutoff && $0.at <= clock }?.seq ?? newest.seq
            return LogState(entries: entries.filter { $0.seq >= firstKept }, start: String(firstKept))
        }
    }

    private func logState(at path: String) throws -> LogState {
        let connection = try Connection(path: path)
        let rows = try connection.prepare("SELECT seq, at FROM change_log ORDER BY seq")
        var entries: [(seq: Int64, at: Double)] = []
        while try rows.step() { entries.append((try rows.column(0), try rows.column(1))) }
        let start = try connection.scalar("SELECT value FROM logbook_settings WHERE name = 'change_log_start'", as: String.self)
        return LogState(entries: entries, start: start)
    }

    /// What an operation may do to the log: nothing; commit a change (the prune when it is the
    /// store's first, and new entries unless the newest already names the record); or either (an
    /// import that adds nothing fills a temporary table, so it may prune; saving a record as it
    /// is may write it again).
    private enum Effect { case nothing, change, either }

    /// Whether a store has run its prune: not yet; perhaps (a write that changed only a temporary
    /// table ran it when nothing had expired but the newest entry, which it keeps); or yes.
    private enum Housekeeping { case pending, perhapsDone, done }

    /// The rule under a seeded mix (`LOGBOOK_PRUNE_SEED`): in each round another program dates the
    /// log's entries over the last 500 days (in one round in three, one of them up to a century
    /// ahead, as a clock set ahead stamps it, and in another, one up to a decade behind, as a
    /// clock set back does) and sets a retention of 1 to 400 days, and a new
    /// store, its clock up to a week behind or ahead, runs random operations: dry runs, writes
    /// that fail (some after writing rows), reads, a rename to the same name, re-imports, saves of
    /// records as they are, and real writes. After each, the log read by another connection must
    /// be as before, unless the operation committed a change: then, at the store's first such
    /// write, exactly the expired entries are gone (the log kept contiguous up to its newest
    /// entry, its start moved), and at every later one none are.
    func testASeededMixPrunesExactlyAtEachStoresFirstWriteThatCommitsAChange() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_PRUNE_SEED", default: 0x5052_554E)
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder("prune-mix")
        let path = folder.file("logbook.sqlite").path
        do {
            let store = try Logbook(path: path, timeZone: utc)
            for index in 0..<6 {
                try store.drafts.save(ReleaseDraft(version: "1.\(index)", checklist: [ChecklistItem(title: "Notes"), ChecklistItem(title: "Build")]))
            }
            for index in 0..<8 {
                _ = try store.history.addDoneExercises(["Squat", "Row"], at: then + Double(index) * 86_400)
            }
        }
        var operations = 0, prunes = 0
        for round in 0..<PropertyTestSettings.scaled(30, by: "LOGBOOK_PRUNE_SCALE") {
            let realNow = Date().timeIntervalSinceReferenceDate
            let retention = [1, 7, 90, 400][Int(random.next() % 4)]
            do {
                let other = try Connection(path: path)
                let count = try other.scalar("SELECT count(*) FROM change_log", as: Int.self) ?? 0
                var ages = (0..<count).map { _ in Double(random.next() % (500 * 86_400)) + 3_600 }
                ages.sort(by: >)
                if count > 0 && random.next() % 3 == 0 {
                    ages[Int(random.next() % UInt64(count))] = -Double(random.next() % (100 * 365 * 86_400)) - 8 * 86_400
                }
                if count > 0 && random.next() % 3 == 0 {
                    ages[Int(random.next() % UInt64(count))] = Double(random.next() % (10 * 365 * 86_400)) + 500 * 86_400
                }
                try other.transaction(.immediate) {
                    let seqs = try other.prepare("SELECT seq FROM change_log ORDER BY seq")
                    var keys: [Int64] = []
                    while try seqs.step() { keys.append(try seqs.column(0)) }
                    for (key, age) in zip(keys, ages) {
                        try other.run("UPDATE change_log SET at = ? WHERE seq = ?", [.real(realNow - age), .integer(key)])
                    }
                    try other.run("INSERT OR REPLACE INTO logbook_settings (name, value) VALUES ('change_log_retention_days', ?)",
                                  [.text(String(retention))])
                }
            }
            // Within a week of the real clock, so the entries this round writes never expire in it.
            let storeNow = Date(timeIntervalSinceReferenceDate: realNow + Double(Int(random.next() % 14) - 7) * 86_400)
            let cutoff = storeNow.timeIntervalSinceReferenceDate - Double(retention) * 86_400
            let beforeOpening = try logState(at: path)
            let store = try Logbook(path: path, timeZone: utc, now: { storeNow })
            XCTAssertEqual(try logState(at: path), beforeOpening, "seed \(seed), round \(round): opening the store changed the log")
            var housekeeping = Housekeeping.pending
            for step in 0..<(4 + Int(random.next() % 8)) {
                let before = try logState(at: path)
                let (name, effect) = try operate(on: store, &random)
                let after = try logState(at: path)
                operations += 1
                let context = "seed \(seed), round \(round) (retention \(retention) days), step \(step): \(name)"
                let newest = before.entries.last?.seq ?? 0
                let added = after.entries.filter { $0.seq > newest }
                let kept = LogState(entries: after.entries.filter { $0.seq <= newest }, start: after.start)
                switch effect {
                case .nothing:
                    XCTAssertEqual(after, before, "\(context): the log changed")
                case .change, .either:
                    // (SQLite's clock, which stamps the entries, tells one stamped ahead.)
                    let prune = before.pruned(before: cutoff, clock: Date().timeIntervalSinceReferenceDate + 1, added: added)
                    if effect == .either && added.isEmpty && after == before {
                        // Nothing written, or a prune with nothing to prune (the newest entry stays).
                        if housekeeping == .pending && prune == before { housekeeping = .perhapsDone }
                        continue
                    }
                    // (A change to the record of the newest entry logs no entry of its own.)
                    let allowed = switch housekeeping {
                    case .pending: [prune]
                    case .perhapsDone: [prune, before]
                    case .done: [before]
                    }
                    XCTAssertTrue(allowed.contains(kept), "\(context): \(housekeeping == .done ? "pruned again" : "not exactly the expired entries pruned"): "
                                  + "\(kept) against \(allowed)")
                    if kept != before { prunes += 1 }
                    housekeeping = .done
                }
            }
        }
        XCTAssertTrue(try Logbook(path: path, timeZone: utc).check().isHealthy)
        print("WritesThatChangeNothingTests (LOGBOOK_PRUNE_SEED=\(seed)): \(operations) operations, \(prunes) prunes")
    }

    /// One random operation on `store`, named, with what it may do to the change log.
    private func operate(on store: Logbook, _ random: inout SplitMix64) throws -> (String, Effect) {
        let drafts = try store.drafts.fetchAll(), days = try store.history.fetchAll()
        let freeDay = CalendarDay(year: 2031, month: 1 + Int(random.next() % 12), day: 1 + Int(random.next() % 28))!
        let newDay = Data(#"{"day":"\#(freeDay)","exercises":["Lunge"]}"#.utf8 + [10])
        switch random.next() % 16 {
        case 0:
            _ = try store.importRecords(from: newDay, named: "new.ndjson", options: ImportOptions(dryRun: true))
            return ("import --dry-run", .nothing)
        case 1 where !days.isEmpty:
            _ = try store.history.renameExercise(days[0].exercises[0], to: "Press", dryRun: true)
            _ = try store.history.moveDay(days[0].day, to: freeDay, dryRun: true)
            return ("rename and move --dry-run", .nothing)
        case 2:
            XCTAssertThrowsError(try store.drafts.delete("no such draft"))
            XCTAssertThrowsError(try store.history.moveDay(CalendarDay(year: 1999, month: 1, day: 1)!, to: freeDay))
            return ("deleting and moving what is not there", .nothing)
        case 3:
            // Three good records, then one that is not: the rows written first are rolled back.
            let lines = (1...3).map { #"{"day":"2032-01-0\#($0)","exercises":["Jump"]}"# } + [#"{"day":"2032-02-30","exercises":["Jump"]}"#]
            XCTAssertThrowsError(try store.importRecords(from: Data(lines.joined(separator: "\n").utf8), named: "bad.ndjson"))
            return ("an import failing at its fourth record", .nothing)
        case 4 where !days.isEmpty:
            let name = days[0].exercises[0]
            XCTAssertEqual(try store.history.renameExercise(name, to: name).exercises, 0)
            return ("a rename to the same name", .nothing)
        case 5:
            _ = try store.drafts.count()
            _ = try store.history.fetchAll()
            _ = try store.check()
            try store.exportHistory(format: .ndjson) { _ in }
            _ = try store.changes(since: nil) { _ in }
            return ("reads, check, export and the change feed", .nothing)
        case 6:
            var exported = Data()
            try store.exportHistory(format: .ndjson) { exported.append($0) }
            _ = try store.importRecords(from: exported, named: "again.ndjson")
            return ("re-importing the history's own export", .either)
        case 7 where !drafts.isEmpty:
            try store.drafts.save(drafts[Int(random.next() % UInt64(drafts.count))])
            return ("saving a draft as it is", .either)
        case 8 where !days.isEmpty:
            try store.history.save([days[Int(random.next() % UInt64(days.count))]])
            return ("saving a day as it is", .either)
        case 9, 10:
            try store.drafts.save(ReleaseDraft(version: "2.\(random.next() % 1_000)"))
            return ("saving a new draft", .change)
        case 11, 12:
            _ = try store.history.addDoneExercise("Plank", at: then + Double(random.next() % 400) * 86_400)
            return ("adding an exercise", .change)
        case 13 where drafts.count > 1:
            _ = try store.drafts.edit(drafts[0].id, whatsNew: "Edited \(random.next())")
            return ("editing a draft", .change)
        case 14 where drafts.count > 2:
            _ = try store.drafts.delete(drafts[Int(random.next() % UInt64(drafts.count))].id)
            return ("deleting a draft", .change)
        default:
            _ = try store.importRecords(from: newDay, named: "new.ndjson")
            return ("importing a day", .either)
        }
    }
}
