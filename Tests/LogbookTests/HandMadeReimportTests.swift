import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Records without ids take ids from their content, "so importing the same file again changes
/// nothing" (ImportAndExport.md), whatever the time zone the store is opened in the second time.
/// Seeded (`LOGBOOK_REIMPORT_SEED`): hand-made NDJSON files of days without ids, given by `day`, by
/// `date` (seconds since 2001 as a JSON number: any `Double` of the supported range, sub-microsecond
/// parts and ties included, or ISO-8601 text) and with `exercise` or `exercises`; names from the
/// adversarial text pools with their NFC/NFD twins; days repeated in the file (the same-day rule
/// appends them) and whole records repeated (each copy its own content). The file is imported, then
/// again in the same zone and in another: the later imports insert, merge and replace nothing, and
/// the export stays byte for byte.
final class HandMadeReimportTests: XCTestCase {
    private let zones = ["UTC", "Pacific/Apia", "Asia/Kathmandu", "America/St_Johns", "Pacific/Kiritimati", "America/Los_Angeles"]

    func testAHandMadeFileImportedAgainChangesNothingInAnyTimeZone() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_REIMPORT_SEED", default: 0x2E1)
        var random = SplitMix64(seed: seed)
        for round in 0..<PropertyTestSettings.scaled(16, by: "LOGBOOK_PROPERTY_SCALE") {
            let first = try XCTUnwrap(TimeZone(identifier: zones[round % zones.count]))
            let second = try XCTUnwrap(TimeZone(identifier: random.pick(zones.filter { $0 != first.identifier })))
            let file = Data(handMadeDays(&random).utf8)
            let folder = try TemporaryFolder("reimport")
            let path = folder.file("logbook.sqlite").path
            let context = "seed \(seed), round \(round), \(first.identifier) then \(second.identifier)"

            let store = try Logbook(path: path, timeZone: first)
            let imported = try store.importRecords(from: file, named: "days.ndjson")
            XCTAssertGreaterThan(imported.inserted, 0, context)
            let exported = try export(store)
            for zone in [first, second] {
                let again = try Logbook(path: path, timeZone: zone).importRecords(from: file, named: "days.ndjson")
                XCTAssertEqual([again.inserted, again.merged, again.replaced], [0, 0, 0], "\(context): again in \(zone.identifier)")
                XCTAssertEqual(try export(store), exported, "\(context): the history changed on importing it again in \(zone.identifier)")
            }
        }
    }

    /// The ids of identical records without ids (the first copy its content's id, each later copy
    /// that id with its number, kept as an alias of the day's record the copy merges into) do not
    /// depend on where the counting is kept: an import counts the first 100,000 contents in memory
    /// and later ones in a temporary table. Records copied on both sides of that move, and first
    /// met after it, get the ids a small file gives them, and the large file imported again
    /// changes nothing.
    func testRepeatedRecordsGetTheSameIDsHoweverManyContentsCameBefore() throws {
        let (squat, row) = (#"{"day":"2026-01-05","exercises":["Squat"]}"#, #"{"day":"2026-02-01","date":"2026-02-01T07:30:00Z","exercise":"Row"}"#)
        // 100,000 other days, one each, from the year 53 on: the counts move to the table.
        let others = (0..<100_000).map { #"{"day":"\#(CalendarDay(dayNumber: -700_000 + $0)!)","exercise":"Run"}"# }
        let large = Data(([squat] + others + [row, squat, row, squat]).joined(separator: "\n").utf8)
        let small = Data([squat, row, squat, row, squat].joined(separator: "\n").utf8)
        var results: [(days: [String], aliases: [String])] = []
        for file in [large, small] {
            let folder = try TemporaryFolder("repeated")
            let path = folder.file("logbook.sqlite").path
            let store = try Logbook(path: path, timeZone: TimeZone(identifier: "UTC")!)
            let imported = try store.importRecords(from: file, named: "days.ndjson")
            XCTAssertEqual([imported.inserted, imported.merged], [file == large ? 100_002 : 2, 3])
            let again = try store.importRecords(from: file, named: "days.ndjson")
            XCTAssertEqual([again.inserted, again.merged, again.replaced], [0, 0, 0], "the file imported again")
            let lines = String(decoding: try export(store), as: UTF8.self).split(separator: "\n").map(String.init)
            let statement = try Connection(path: path).prepare("SELECT id FROM exercise_day_aliases ORDER BY id")
            var aliases: [String] = []
            while try statement.step() { aliases.append(try statement.column(0, as: String.self)) }
            results.append((lines.filter { $0.contains(#""day":"2026-"#) }, aliases))
        }
        XCTAssertEqual(results[0].days.count, 2, "one record a day: \(results[0].days)")
        XCTAssertEqual(results[0].days, results[1].days)
        XCTAssertEqual(Set(results[0].aliases).count, 3, "each later copy its own id: \(results[0].aliases)")
        XCTAssertEqual(results[0].aliases, results[1].aliases)
    }

    private func export(_ store: Logbook) throws -> Data {
        var data = Data()
        try store.exportHistory(format: .ndjson) { data.append($0) }
        return data
    }

    /// 40 records without ids over 12 days of 1900 to 2100 (a day a zone skipped is not among them:
    /// a record of only a day there is refused, which another test covers).
    private func handMadeDays(_ random: inout SplitMix64) -> String {
        let days = (0..<12).map { _ in CalendarDay(dayNumber: random.int(-25_567...47_482))! }
        var names: [String] = []
        var lines: [String] = []
        for _ in 0..<40 {
            if lines.count > 2, random.chance(0.15) {
                // A copy of an earlier record, apart from it (consecutive records of a day are one).
                lines.append(random.pick(lines.dropLast()))
                continue
            }
            let count = random.int(1...3)
            let exercises: [String] = (0..<count).map { _ in
                if let earlier = names.last, random.chance(0.3) { return random.chance(0.5) ? earlier : AdversarialText.twin(of: earlier) }
                let name = AdversarialText.string(using: &random, maxPieces: 3, nonEmpty: true)
                names.append(name)
                return name
            }
            var fields: [String] = []
            let day = random.pick(days)
            if random.chance(0.5) {
                fields.append(#""day":"\#(day)""#)
            } else {
                // An instant on the day in UTC; in another zone it may fall on the day before or after.
                let seconds = day.start(in: TimeZone(identifier: "UTC")!).timeIntervalSinceReferenceDate
                    + AdversarialDates.seconds(in: 0...86_399.999, using: &random)
                let date = Date(timeIntervalSinceReferenceDate: seconds)
                fields.append(random.chance(0.5) ? #""date":\#(seconds)"# : #""date":"\#(date.iso8601Microseconds)""#)
            }
            var quoted = exercises.map { name -> String in
                var text = ""
                JSONText.appendQuoted(name, to: &text)
                return text
            }
            if quoted.count == 1 && random.chance(0.5) {
                fields.append(#""exercise":\#(quoted[0])"#)
            } else {
                quoted = ["[" + quoted.joined(separator: ",") + "]"]
                fields.append(#""exercises":\#(quoted[0])"#)
            }
            lines.append("{" + fields.joined(separator: ",") + "}")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
