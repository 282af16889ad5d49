import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
@testable import Logbook

/// `check` and `repair` compare the derived tables with a recount of the exercise rows in one pass
/// (``TallyAudit``); its counts, table by table, must be the reference recount's in SQL
/// (``ExerciseTallies/mismatchesBySQLRecount(in:)``, which `repair` writes) on any file: seeded
/// adversarial histories (NFC/NFD twins and every class of scalar in the names, days over the
/// whole calendar, days waiting to be tallied), then every kind of damage another program can do
/// to the derived rows and the exercise rows, and the values the pass leaves to the SQL.
final class TallyAuditTests: XCTestCase {
    private func counts(_ store: Logbook) throws -> (audit: [Int]?, reference: [Int]) {
        try store.database.read { connection in
            (try TallyAudit.mismatches(in: connection)?.map(\.rows), try ExerciseTallies.mismatchesBySQLRecount(in: connection).map(\.rows))
        }
    }

    /// Days clustered where periods meet (a year's end, ISO week 53, a leap day), and the
    /// calendar's first and last days.
    private func randomDay(_ random: inout SplitMix64) -> CalendarDay {
        let (first, count) = random.pick([("2020-12-20", 80), ("2024-02-20", 20), ("0001-01-01", 12), ("9999-12-15", 17), ("1900-02-25", 8)])
        return CalendarDay(first)!.adding(days: random.int(0...(count - 1)))!
    }

    func testTheOnePassCountsWhatTheSQLRecountCountsWhateverTheDamage() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_TALLY_AUDIT_SEED", default: 21)
        var random = SplitMix64(seed: seed)
        let rounds = PropertyTestSettings.scaled(12, by: "LOGBOOK_PROPERTY_SCALE")
        var differing = 0
        for round in 0..<rounds {
            let test = try TestStore()
            var names = ["Row", "Row ", "Rowing", "Café", "Cafe\u{301}"]
            for _ in 0..<4 {
                let name = AdversarialText.string(using: &random, maxPieces: 3, nonEmpty: true)
                names += [name, AdversarialText.twin(of: name)]
            }
            let utc = TimeZone(identifier: "UTC")!
            var days: [CalendarDay: ExerciseDay] = [:]
            for _ in 0..<random.int(20...120) {
                let day = randomDay(&random)
                days[day] = ExerciseDay(date: day.start(in: utc) + Double(random.int(0...86_399)), day: day,
                                        exercises: (0..<random.int(1...6)).map { _ in random.pick(names) })
            }
            try test.store.history.save(Array(days.values))
            // A few days saved alone wait to be tallied: only their day totals count them.
            for _ in 0..<random.int(0...3) {
                let day = randomDay(&random)
                if try test.store.history.fetch(day: day) == nil {
                    try test.store.history.save([ExerciseDay(date: day.start(in: utc), day: day, exercises: [random.pick(names)])])
                }
            }
            var context = "seed \(seed), round \(round)"
            XCTAssertEqual(try counts(test.store).audit, [0, 0, 0, 0, 0], context)
            for step in 0..<random.int(1...8) {
                let (damage, name) = random.chance(0.2) ? (Self.twinSpelling, "") : (randomDamage(&random), random.pick(names))
                let column = random.chance(0.5) ? ("exercises", "name_key") : random.pick(Self.storedTexts)
                let clearsMarks = random.chance(0.4)
                try test.store.database.write { connection in
                    if damage == Self.twinSpelling {
                        try Self.respell(column, in: connection)
                    } else {
                        let statement = try connection.prepare(damage)
                        if damage.contains("?1") { try statement.bind(name, at: 1) }
                        try statement.execute()
                    }
                    // Now and then the marks the triggers left go too, so that a changed day's
                    // periods are compared rather than left to the next recount.
                    if clearsMarks { try connection.execute("DELETE FROM exercise_tallies_stale") }
                }
                context = "seed \(seed), round \(round), step \(step): \(damage == Self.twinSpelling ? "\(damage) in \(column)" : damage) "
                    + "(?1 = \(name.debugDescription))\(clearsMarks ? ", the marks deleted" : "")"
                let (audit, reference) = try counts(test.store)
                XCTAssertEqual(audit, reference, context)
                if reference.contains(where: { $0 > 0 }) { differing += 1 }
            }
            XCTAssertEqual(try test.store.database.read { try ExerciseTallies.mismatches(in: $0).map(\.rows) },
                           try counts(test.store).reference, context)
        }
        XCTAssertGreaterThan(differing, rounds, "the damage made the derived data differ in most steps")
    }

    private static let twinSpelling = "a stored text respelled as its NFC or NFD twin"
    /// The text columns of the derived tables that hold a spelling.
    private static let storedTexts = [("exercise_months", "name"), ("exercise_years", "name"), ("exercise_day_totals", "top_exercise"),
                                      ("exercise_period_totals", "top_exercise")]

    /// Respells a stored text of `column` that has a character NFC and NFD spell apart as its
    /// twin: canonically equivalent, other bytes, so a recount compared as Swift compares strings
    /// would take it for the same.
    private static func respell(_ column: (table: String, column: String), in connection: Connection) throws {
        let texts = try connection.prepare("SELECT DISTINCT \(column.column) FROM \(column.table) WHERE typeof(\(column.column)) = 'text'")
        var spellings: [String] = []
        while try texts.step() { spellings.append(try texts.column(0)) }
        guard let spelling = spellings.first(where: { !AdversarialText.twin(of: $0).utf8.elementsEqual($0.utf8) }) else { return }
        // An exercise row's key respelled alone: the two spellings of one key then stand side by side.
        let rows = column.table == "exercises"
            ? "(day_pk, position) IN (SELECT day_pk, position FROM exercises WHERE name_key = ?2 ORDER BY random() LIMIT 1)"
            : "\(column.column) = ?2"
        try connection.run("UPDATE OR IGNORE \(column.table) SET \(column.column) = ?1 WHERE \(rows)",
                           [.text(AdversarialText.twin(of: spelling)), .text(spelling)])
    }

    /// One statement of damage another program might do: to a derived row (a value changed, a row
    /// deleted or added, a key or value of another storage class), to the exercise rows (which
    /// the triggers see, or not), or to the marks that say what waits for a recount.
    private func randomDamage(_ random: inout SplitMix64) -> String {
        let name = "?1"  // bound to a name picked at random (a literal would end at U+0000)
        let table = random.pick(["exercise_months", "exercise_years", "exercise_day_totals", "exercise_period_totals", "exercise_month_days"])
        let offset = "(abs(random()) % max(1, (SELECT count(*) FROM \(table))))"
        let key: String = switch table {
        case "exercise_months": "(month, name_key)"
        case "exercise_years": "(year, name_key)"
        case "exercise_day_totals": "(day)"
        case "exercise_period_totals": "(period, start)"
        default: "(start)"
        }
        let pickOne = "\(key) IN (SELECT \(key.dropFirst().dropLast()) FROM \(table) LIMIT 1 OFFSET \(offset))"
        let value: String = random.pick(["1", "2.5", "3.0", "'7'", "X'37'", "'x'", name, "CAST(\(name) AS BLOB)"])
        switch random.int(0...12) {
        case 0:
            let column: String = switch table {
            case "exercise_months", "exercise_years": random.pick(["name", "exercises", "days", "first_day", "last_day"])
            case "exercise_day_totals": random.pick(["exercises", "distinct_exercises", "top_exercise"])
            case "exercise_period_totals": random.pick(["active_days", "exercises", "distinct_exercises", "top_exercise"])
            default: "days"
            }
            return "UPDATE OR IGNORE \(table) SET \(column) = \(value) WHERE \(pickOne)"
        case 1:
            return "DELETE FROM \(table) WHERE \(pickOne)"
        case 2:
            // A key of another storage class, or a key no recount makes.
            let keyColumn = String(key.dropFirst().dropLast().split(separator: ",").last!.trimmingCharacters(in: .whitespaces))
            return "UPDATE OR IGNORE \(table) SET \(keyColumn) = \(random.chance(0.5) ? "CAST(\(keyColumn) AS BLOB)" : "\(keyColumn) || '0'") WHERE \(pickOne)"
        case 3:
            return "INSERT OR IGNORE INTO exercise_months VALUES ('2021-01', \(name), \(name), 1, 1, '2021-01-04', '2021-01-04')"
        case 4:
            return "INSERT OR IGNORE INTO exercise_period_totals VALUES ('week', '2020-12-28', 1, 1, 1, \(name))"
        case 5:
            return "INSERT OR IGNORE INTO exercise_day_totals VALUES ('2020-12-31', 1, 1, \(name))"
        case 6:
            return "INSERT OR IGNORE INTO exercise_month_days VALUES (\(random.pick(["'2020-12-01'", "'2021-02-01'", "X'32'"])), \(random.int(1...7)))"
        case 7:
            // An exercise row no trigger sees, on a day that may be tallied or waiting.
            return """
                INSERT INTO exercises (day_pk, position, name, name_key)
                SELECT pk, (SELECT coalesce(max(position), 0) + 1 FROM exercises WHERE day_pk = d.pk), \(name), \(name)
                FROM exercise_days AS d ORDER BY random() LIMIT 1
                """
        case 8:
            // Seen by the triggers: the day is marked, and its periods wait for a recount.
            return "DELETE FROM exercises WHERE (day_pk, position) IN (SELECT day_pk, position FROM exercises ORDER BY random() LIMIT 1)"
        case 9:
            return "UPDATE exercises SET name = \(name) WHERE (day_pk, position) IN (SELECT day_pk, position FROM exercises ORDER BY random() LIMIT 1)"
        case 11:
            // A name key that is not the key of its name (maybe the other spelling of a stored key:
            // the same text to Swift's `==`, other bytes to SQLite, which groups them apart).
            return "UPDATE exercises SET name_key = \(name) WHERE (day_pk, position) IN (SELECT day_pk, position FROM exercises ORDER BY random() LIMIT 1)"
        case 10:
            // A mark that moves which days count as waiting; one that is no row key.
            return "INSERT OR REPLACE INTO logbook_settings (name, value) VALUES ('tallied_through', \(random.pick(["'3'", "'0'", "'x'", "''", "'100000'"])))"
        default:
            return "DELETE FROM exercise_tallies_stale"
        }
    }

    func testValuesThePassDoesNotReadAreLeftToTheSQL() throws {
        let utc = TimeZone(identifier: "UTC")!
        let history = (0..<300).map { offset in
            let day = CalendarDay("2025-01-01")!.adding(days: offset)!
            return ExerciseDay(date: day.start(in: utc) + 60, day: day, exercises: ["Row", "Squat", "Row \(offset % 7)"])
        }
        for damage in [
            // A day the calendar does not have (the table's check allows it), with an exercise.
            """
            INSERT INTO exercise_days (id, day, date) VALUES ('00000000-0000-0000-0000-000000000001', '2026-02-30', 0);
            INSERT INTO exercises (day_pk, position, name, name_key) SELECT max(pk), 1, 'Dip', 'Dip' FROM exercise_days;
            """,
            // Days that sort after every calendar day.
            """
            INSERT INTO exercise_days (id, day, date) VALUES ('00000000-0000-0000-0000-000000000002', '9999-12-32', 0);
            INSERT INTO exercises (day_pk, position, name, name_key) SELECT max(pk), 1, 'Dip', 'Dip' FROM exercise_days;
            """,
            """
            PRAGMA ignore_check_constraints = ON;
            INSERT INTO exercise_days (id, day, date) VALUES ('00000000-0000-0000-0000-000000000003', CAST('2026-03-01' AS BLOB), 0);
            PRAGMA ignore_check_constraints = OFF;
            INSERT INTO exercises (day_pk, position, name, name_key) SELECT max(pk), 1, 'Dip', 'Dip' FROM exercise_days;
            """,
            // Names that are not UTF-8 text.
            "UPDATE exercises SET name = X'526F77' WHERE name = 'Row'",
            "UPDATE exercises SET name_key = CAST(X'FF' AS TEXT) WHERE name = 'Squat'",
        ] {
            let test = try TestStore()
            try test.store.history.save(history)
            XCTAssertEqual(try counts(test.store).audit, [0, 0, 0, 0, 0])
            try test.store.database.write { try $0.execute(damage) }
            let (audit, reference) = try counts(test.store)
            XCTAssertNil(audit, damage)
            if damage.contains("9999-12-32") || damage.contains("BLOB") {
                // Told by the day index's last day, before the pass reads a row (helper-35: a whole pass, then the SQL).
                let steps = try test.store.database.read { connection in
                    try connection.countingVirtualMachineSteps { try TallyAudit.mismatches(in: connection) }.steps
                }
                XCTAssertLessThan(steps, 2_000, damage)
            }
            XCTAssertEqual(try test.store.database.read { try ExerciseTallies.mismatches(in: $0).map(\.rows) }, reference, damage)
        }
    }
}
