import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
@testable import Logbook

/// `check` names every value another program stored that Logbook cannot read, and nothing else;
/// `repair` refuses to run over one. A seeded generator writes, with plain SQL, one value at a
/// time into every column records are read from (days like `2026-02-30`, random `Double` dates over
/// the whole range and beyond, text, blobs and integers where a date or a UUID belongs, lowercase
/// and malformed UUIDs, booleans 2 and -1), and compares `check` with what Swift makes of the
/// stored value and with whether the records can be fetched.
///
/// `LOGBOOK_STORED_VALUES_SEED` repeats a run; `LOGBOOK_PROPERTY_SCALE` makes it longer.
final class StoredValueAuditTests: XCTestCase {
    /// A value for a column of `kind`, readable or not, as another program might store it.
    private func randomValue(_ kind: ValueKind, _ random: inout SplitMix64) -> DatabaseValue {
        let foreign: [DatabaseValue] = [.integer(Int64(random.int(-2...20_260_101))), .real(Double(random.int(-5...5)) / 2),
                                        .blob(Data("2026-01-01".utf8)), .blob(Data(UUID().uuidString.utf8)), .text(""),
                                        .text("2026-01-01T00:00:00Z")]
        if random.chance(0.2) { return random.pick(foreign) }
        switch kind {
        case .day:
            if random.chance(0.2) {
                return .text(random.pick(["2026-1-01", " 2026-01-01", "2026-01-01 ", "+2026-01-01", "2026-01-01T00:00",
                                          "2026/01/01", "\u{FF12}026-01-01", "10000-01-01", "0000-00-00", "2026-01-01\u{0}"]))
            }
            let year = random.chance(0.1) ? random.pick([0, 1, 1582, 1900, 2000, 2100, 9999]) : random.int(0...9999)
            return .text(String(format: "%04d-%02d-%02d", year, random.int(0...13), random.int(0...32)))
        case .date:
            if random.chance(0.1) {
                return .real(random.pick([Double.infinity, -.infinity, 1e300, -1e300, Double.greatestFiniteMagnitude,
                                          Date.supportedRange.upperBound.timeIntervalSinceReferenceDate.nextUp,
                                          Date.supportedRange.lowerBound.timeIntervalSinceReferenceDate.nextDown]))
            }
            let seconds = AdversarialDates.seconds(in: -7e10...3e11, using: &random)
            return random.chance(0.2) ? .integer(Int64(seconds.rounded(.towardZero))) : .real(seconds)
        case .uuid:
            let uuid = UUID().uuidString
            switch random.int(0...5) {
            case 0: return .text(uuid.lowercased())
            case 1: return .text(String(uuid.map { random.chance(0.2) ? Character($0.lowercased()) : $0 }))
            case 2: return .text(String(uuid.dropLast()) + random.pick(["G", "g", "-", " ", "\u{0}"]))
            case 3: return .text("-" + uuid.replacingOccurrences(of: "-", with: "").prefix(35))
            default: return .text(uuid)
            }
        case .bool: return random.pick([.integer(0), .integer(1), .integer(2), .integer(-1), .text("1"), .real(1.0), .real(0.5)])
        case .integer: return .integer(Int64(random.int(-3...3)))
        case .text:
            return random.chance(0.5) ? .text(random.pick(["Squat", "", "Caf\u{E9}", "a\u{0}b"])) : .integer(7)
        }
    }

    /// Bytes another program may store as text: adversarial text, often with a sequence that is
    /// not UTF-8 put in (a stray byte, a truncated or overlong sequence, an encoded surrogate, a
    /// scalar past U+10FFFF, a Latin-1 letter).
    private static func randomTextBytes(_ random: inout SplitMix64) -> [UInt8] {
        var bytes = Array(AdversarialText.string(using: &random, nonEmpty: true).utf8)
        if random.chance(0.7) {
            let invalid: [[UInt8]] = [[0xFF], [0x80], [0xC3], [0xE2, 0x98], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xE0, 0x80, 0xAF],
                                      [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE9]]
            bytes.insert(contentsOf: random.pick(invalid), at: random.int(0...bytes.count))
        }
        return bytes
    }

    /// Whether Logbook's contract accepts `value` (as SQLite stored it) in `column`, decided in
    /// Swift: the day parses, the date is in years 0001 to 9999, the UUID is uppercase, the text is
    /// no longer than a field may be, and an exercise name is not empty.
    private func isAcceptable(_ value: DatabaseValue, _ column: StoredColumn) -> Bool {
        switch (column.kind, value) {
        case (_, .null): column.isOptional
        case (.text, .text(let text)):
            text.utf8.count <= RecordLimits.textBytes && !(text.isEmpty && column.table == "exercises" && column.column == "name")
        case (.integer, .integer): true
        case (.bool, .integer(let flag)): flag == 0 || flag == 1
        case (.date, .real(let seconds)): Date(timeIntervalSinceReferenceDate: seconds).isSupported
        case (.date, .integer(let seconds)): Date(timeIntervalSinceReferenceDate: Double(seconds)).isSupported
        case (.uuid, .text(let text)): UUID(uuidString: text) != nil && text.utf8.count == 36 && text == text.uppercased()
        case (.day, .text(let text)): CalendarDay(text) != nil
        default: false
        }
    }

    func testCheckNamesExactlyTheValuesLogbookCannotRead() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_STORED_VALUES_SEED", default: 2_026))
        let test = try TestStore()
        let store = test.store
        var draft = ReleaseDraft(version: "1.0", whatsNew: "Fixes", checklist: [ChecklistItem(title: "Screenshots")])
        draft.submittedAt = instant("2026-03-01T10:00:00Z")
        try store.drafts.save(draft)
        try store.history.addDoneExercises(["Squat"], at: instant("2026-03-02T08:00:00Z"))
        // A merged id too: a record moved onto another day's.
        try store.history.addDoneExercises(["Row"], at: instant("2026-03-03T08:00:00Z"))
        _ = try store.history.moveDay(CalendarDay("2026-03-03")!, to: CalendarDay("2026-03-02")!)
        let plain = try Connection(path: store.path)
        var refused = 0, accepted = 0

        for step in 0..<PropertyTestSettings.scaled(40, by: "LOGBOOK_PROPERTY_SCALE") {
            for column in StoredValueAudit.columns {
                let keys = column.rowColumns.joined(separator: ", ")
                let row = "(\(keys)) = (SELECT \(keys) FROM \(column.table) ORDER BY \(keys) LIMIT 1)"
                let original = try plain.scalar("SELECT \(column.column) FROM \(column.table) WHERE \(row)", as: DatabaseValue.self)!
                // Text as another program's bytes, UTF-8 or not (a DatabaseValue's text is always UTF-8).
                let textBytes = column.kind == .text && random.chance(0.3) ? Self.randomTextBytes(&random) : nil
                let value = textBytes.map { DatabaseValue.blob(Data($0)) } ?? randomValue(column.kind, &random)
                do {
                    try plain.run("UPDATE \(column.table) SET \(column.column) = \(textBytes == nil ? "?" : "CAST(? AS TEXT)") WHERE \(row)",
                                  [value])
                } catch {
                    continue  // a NOT NULL, CHECK or UNIQUE constraint kept the value out
                }
                let stored = try plain.scalar("SELECT \(column.column) FROM \(column.table) WHERE \(row)", as: DatabaseValue.self)!
                let context = "step \(step), \(column.table).\(column.column) = \(value)\(textBytes == nil ? "" : " as text") (stored as \(stored))"
                let problems = try store.check().storedValueProblems
                let readable = (try? (store.drafts.fetch(FetchDescriptor()), store.history.fetch(FetchDescriptor()))) != nil
                let isUTF8 = textBytes.map { String(validating: $0, as: UTF8.self) != nil } ?? true
                if isUTF8 && isAcceptable(stored, column) {
                    accepted += 1
                    XCTAssertEqual(problems, [], context)
                    XCTAssertTrue(readable, "\(context): the contract accepts it, so Logbook must read it")
                } else {
                    refused += 1
                    XCTAssertEqual(problems.count, 1, context)
                    XCTAssertTrue(problems.first?.hasPrefix("\(column.table).\(column.column): 1 row is not ") ?? false, "\(context): \(problems)")
                    XCTAssertThrowsError(try store.repair()) { error in
                        guard case LogbookError.repairRefused = error else { return XCTFail("\(context): \(error)") }
                    }
                }
                try plain.run("UPDATE \(column.table) SET \(column.column) = ? WHERE \(row)", [original])
            }
        }
        XCTAssertEqual(try store.check().storedValueProblems, [])
        XCTAssertGreaterThan(refused, 100, "the generator tries unreadable values")
        XCTAssertGreaterThan(accepted, 100, "and readable ones")
    }

    /// A setting in `logbook_settings` stored as a blob (which SQLite keeps as one in the text
    /// column, where a number becomes text) is named by `check` and refused by `repair`, and no
    /// other value is: a seeded generator stores blobs of valid and invalid UTF-8, numbers and
    /// texts in every setting. `tallied_through`, which Logbook stores again itself, is never named.
    func testCheckNamesSettingsStoredAsBlobs() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_STORED_VALUES_SEED", default: 2_026))
        let test = try TestStore()
        let store = test.store
        try store.history.addDoneExercises(["Squat"], at: instant("2026-03-02T08:00:00Z"))
        let plain = try Connection(path: store.path)
        try plain.run("INSERT OR IGNORE INTO logbook_settings (name, value) VALUES ('change_log_retention_days', '90')")
        let listing = try plain.prepare("SELECT name FROM logbook_settings ORDER BY name")
        var names: [String] = []
        while try listing.step() { names.append(try listing.column(0)) }
        XCTAssertTrue(Set(["comparison_keys", "change_log_start", "change_log_retention_days", "logbook_id", "tallied_through"])
            .isSubset(of: Set(names)), "\(names)")
        var named = 0
        for step in 0..<PropertyTestSettings.scaled(10, by: "LOGBOOK_PROPERTY_SCALE") {
            for name in names {
                let original = try XCTUnwrap(plain.scalar("SELECT value FROM logbook_settings WHERE name = ?", [.text(name)],
                                                          as: DatabaseValue.self))
                guard case .text(let text) = original else { return XCTFail("\(name) was stored as \(original)") }
                let value = random.pick([DatabaseValue.blob(Data(text.utf8)), .blob(Data([0x00, 0xFF])), .blob(Data()),
                                         .integer(Int64(random.int(-3...300))), .real(0.5), .text(text)])
                try plain.run("UPDATE logbook_settings SET value = ? WHERE name = ?", [value, .text(name)])
                let type = try XCTUnwrap(plain.scalar("SELECT typeof(value) FROM logbook_settings WHERE name = ?", [.text(name)],
                                                      as: String.self))
                let context = "step \(step), \(name) = \(value) (stored as \(type))"
                let problems = try store.check().storedValueProblems
                let stored = type == "text" ? try plain.scalar("SELECT value FROM logbook_settings WHERE name = ?", [.text(name)], as: String.self) : nil
                if name == "change_log_retention_days", let stored, Int(stored).map({ $0 < 1 }) ?? true {
                    // A retention of no days, or of none Logbook writes, is named as one (the next test).
                    XCTAssertEqual(problems.count, 1, context)
                } else if type == "blob" && name != "tallied_through" {
                    named += 1
                    XCTAssertEqual(problems.count, 1, context)
                    XCTAssertTrue(problems.first?.hasPrefix("logbook_settings.value: 1 row is not text (name '\(name)': X'") ?? false,
                                  "\(context): \(problems)")
                    XCTAssertThrowsError(try store.repair()) { error in
                        guard case LogbookError.repairRefused = error else { return XCTFail("\(context): \(error)") }
                    }
                } else if name == "logbook_id", let stored, UUID(text: stored)?.text != stored {
                    // A number in the text column is text: the id is then not one (the test after next).
                    XCTAssertEqual(problems.count, 1, context)
                    XCTAssertTrue(problems.first?.hasPrefix("logbook_settings.value: 1 row is not the logbook's id") ?? false, "\(context): \(problems)")
                } else {
                    XCTAssertEqual(problems, [], context)
                }
                try plain.run("UPDATE logbook_settings SET value = ? WHERE name = ?", [original, .text(name)])
            }
        }
        XCTAssertGreaterThan(named, 5, "the generator stores blobs")
    }

    /// The message names the table, the column, the row and the value.
    func testCheckNamesTheRowAndTheValue() throws {
        for (column, value) in [("day", "'2026-02-30'"), ("day", "'2026-19-39'"), ("date", "'yesterday'"), ("id", "lower(id)")] {
            let test = try TestStore()
            try test.store.history.addDoneExercises(["Squat"], at: instant("2026-03-02T08:00:00Z"))
            let id = try XCTUnwrap(test.store.history.fetch(FetchDescriptor()).first?.id)
            try Connection(path: test.store.path).execute("UPDATE exercise_days SET \(column) = \(value)")
            let message = try test.store.check().storedValueProblems.joined()
            let shown = column == "id" ? "'\(id.uuidString.lowercased())'" : value
            XCTAssertTrue(message.hasPrefix("exercise_days.\(column): 1 row is not "), message)
            XCTAssertTrue(message.hasSuffix("(pk 1: \(shown))"), message)
        }
    }

    /// A merged id (`exercise_day_aliases`) that another program made a day record's own id too
    /// is named, with the record's day (it was not; helper-18); the merged ids Logbook itself
    /// writes, by imports that merge and by moves, are not.
    func testCheckNamesAMergedIDThatIsAlsoARecordsID() throws {
        let test = try TestStore()
        let (first, second) = (UUID(), UUID())
        try test.store.history.save([ExerciseDay(id: first, date: instant("2026-03-02T08:00:00Z"), day: CalendarDay("2026-03-02")!, exercises: ["Squat"]),
                                     ExerciseDay(id: second, date: instant("2026-03-03T08:00:00Z"), day: CalendarDay("2026-03-03")!, exercises: ["Row"])])
        let file = test.folder.appendingPathComponent("same-day.ndjson")
        let merged = UUID()
        try Data(#"{"id":"\#(merged.uuidString)","day":"2026-03-02","date":"2026-03-02T09:00:00Z","exercises":["Run"]}"#.utf8 + [0x0A])
            .write(to: file)
        _ = try test.store.importRecords(from: file)
        _ = try test.store.history.moveDay(CalendarDay("2026-03-02")!, to: CalendarDay("2026-03-04")!)
        XCTAssertEqual(try Connection(path: test.store.path).scalar("SELECT count(*) FROM exercise_day_aliases", as: Int.self), 1)
        XCTAssertEqual(try test.store.check().storedValueProblems, [])
        try Connection(path: test.store.path).execute("UPDATE exercise_day_aliases SET id = '\(second.uuidString)'")
        XCTAssertEqual(try test.store.check().storedValueProblems,
                       ["exercise_day_aliases.id: 1 row is not an id no day record has (delete the merged id's row) "
                        + "(id \(second.uuidString): the record of '2026-03-03')"])
    }

    /// A change-log retention Logbook would not write (`abc`, `0`, `-3`, `007`, `1.5`, stored by
    /// another program) is named by `check`, and the log keeps the default 90 days rather than
    /// reading it as 1 day (`0` and `-3` pruned every entry older than a day; helper-18); a
    /// retention `--set-retention` writes is not named and is followed. Seeded (`LOGBOOK_RETENTION_SEED`).
    func testCheckNamesARetentionLogbookWouldNotWriteAndTheLogKeepsTheDefault() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_RETENTION_SEED", default: 0x5245_5445))
        let written = ["1", "2", "30", "89", "365", "100000"]
        let foreign = ["abc", "0", "-3", "007", "+5", " 5", "5 ", "", "1.5", "1e2", "9223372036854775808", "٣", "30\u{0}"]
        for round in 0..<PropertyTestSettings.scaled(24, by: "LOGBOOK_PROPERTY_SCALE") {
            let isWritten = random.int(0...1) == 1
            let value = random.pick(isWritten ? written : foreign)
            let test = try TestStore()
            try test.store.history.addDoneExercises(["Squat"], at: instant("2026-03-02T08:00:00Z"))
            let plain = try Connection(path: test.store.path)
            // Every entry of the log dated 60 days back, and the retention set by another program.
            try plain.run("UPDATE change_log SET at = at - 60 * 86400")
            try plain.run("INSERT OR REPLACE INTO logbook_settings (name, value) VALUES ('change_log_retention_days', ?)", [.text(value)])
            let entries = try XCTUnwrap(plain.scalar("SELECT count(*) FROM change_log", as: Int.self))
            let context = "round \(round): retention \(value.debugDescription)"
            let problems = try test.store.check().storedValueProblems
            XCTAssertEqual(problems.isEmpty, isWritten, "\(context): \(problems)")
            if !isWritten {
                XCTAssertTrue(problems.first?.hasPrefix("logbook_settings.value: 1 row is not a whole number of days, 1 or more") ?? false,
                              "\(context): \(problems)")
            }
            // A store's first write that commits a change prunes by the retention it reads.
            try Logbook(path: test.store.path).history.addDoneExercises(["Row"], at: instant("2026-03-02T09:00:00Z"))
            let left = try XCTUnwrap(plain.scalar("SELECT count(*) FROM change_log", as: Int.self))
            let keepsSixtyDays = isWritten ? Int(value)! >= 60 : true
            XCTAssertEqual(left > 1, keepsSixtyDays, "\(context): \(left) of \(entries) entries and the new one left")
        }
    }

    /// The logbook's id gone or not an uppercase UUID, and a change-log entry at the largest row
    /// key (after which new entries get random, lower keys the feed never sends), are named by
    /// `check`, and `repair` refuses to guess: `changes` failed, or lost entries, while `check`
    /// passed (helper-49). Seeded (`LOGBOOK_SETTINGS_SEED`): ids of every wrong shape.
    func testCheckNamesALogbookIDThatIsNotOneAndAChangeLogAtTheLargestKey() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_SETTINGS_SEED", default: 0x4944))
        let test = try TestStore()
        try test.store.history.addDoneExercises(["Squat"], at: instant("2026-03-02T08:00:00Z"))
        let plain = try Connection(path: test.store.path)
        let good = try XCTUnwrap(plain.scalar("SELECT value FROM logbook_settings WHERE name = 'logbook_id'", as: String.self))
        XCTAssertEqual(try test.store.check().storedValueProblems, [])
        let wrong = ["a:b", good.lowercased(), String(good.dropLast()), good + "0", good.replacingOccurrences(of: "-", with: ":"), "", " " + good]
        for value in wrong.shuffled(using: &random) {
            try plain.run("UPDATE logbook_settings SET value = ? WHERE name = 'logbook_id'", [.text(value)])
            let problems = try test.store.check().storedValueProblems
            XCTAssertEqual(problems, ["logbook_settings.value: 1 row is not the logbook's id, an uppercase UUID (the change feed and "
                                      + "'export --format postgres' name the logbook by it; a new one makes earlier change tokens refused) "
                                      + "(name 'logbook_id': '\(value)')"], value.debugDescription)
            XCTAssertThrowsError(try test.store.repair(dryRun: true), value.debugDescription)
        }
        try plain.run("DELETE FROM logbook_settings WHERE name = 'logbook_id'")
        XCTAssertEqual(try test.store.check().storedValueProblems.first?.hasSuffix("(no row named 'logbook_id')"), true)
        try plain.run("INSERT INTO logbook_settings (name, value) VALUES ('logbook_id', ?)", [.text(good)])
        XCTAssertEqual(try test.store.check().storedValueProblems, [])
        try plain.run("INSERT INTO change_log (seq, kind, pk) VALUES (9223372036854775807, 'day', 1)")
        XCTAssertEqual(try test.store.check().storedValueProblems.first?.hasPrefix("change_log.seq: 1 row is not below 9223372036854775807"), true)
    }
}
