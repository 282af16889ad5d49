import Foundation
import LogbookTestSupport
import XCTest
@testable import Logbook

/// Fixing mistakes: removals, renames and moves, checked against a model of the history in Swift,
/// with the tallies recounted exactly (check) after every edit, and dry runs that write nothing.
final class HistoryEditingTests: XCTestCase {
    private static let zone = TimeZone(identifier: "America/New_York")!

    func testRandomEditsAgreeWithAModelAndKeepTheTalliesExact() throws {
        let test = try TestStore(timeZone: Self.zone)
        let history = test.store.history
        let seed = PropertyTestSettings.seed("LOGBOOK_EDITING_SEED", default: 0xED17)
        var random = SplitMix64(seed: seed)
        let names = ["Squat", "Burpee", "Cafe\u{301}", "Café", "Row", "Élan"]
        var model: [CalendarDay: [String]] = [:]
        let first = CalendarDay("2026-03-01")!
        for offset in 0..<20 {
            let day = first.adding(days: offset)!
            let exercises = (0..<random.int(1...5)).map { _ in random.pick(names) }
            try history.addDoneExercises(exercises, at: Self.at(day, hour: random.int(0...23)))
            model[day] = exercises
        }
        for step in 0..<120 {
            let context = "seed \(seed), step \(step)"
            let days = model.keys.sorted()
            guard let day = days.isEmpty ? nil : random.pick(days) else { break }
            let dryRun = random.chance(0.2)
            var expected = model
            switch random.int(0...3) {
            case 0:
                let position = random.int(1...(model[day]!.count + 1))
                if position > model[day]!.count {
                    XCTAssertThrowsError(try history.removeExercises(atPositions: [position], from: day, dryRun: dryRun), context)
                    continue
                }
                expected[day]!.remove(at: position - 1)
                _ = try history.removeExercises(atPositions: [position], from: day, dryRun: dryRun)
            case 1:
                let name = random.pick(model[day]!)
                expected[day]!.removeAll { $0 == name }
                _ = try history.removeExercises(named: [name], from: day, dryRun: dryRun)
            case 2:
                let old = random.pick(names), new = random.pick(names + ["Plank"])
                let (from, to) = (random.pick(days), random.pick(days))
                let range = min(from, to)...max(from, to)
                let matches = expected.contains { range.contains($0.key) && $0.value.contains(old) }
                guard matches else {
                    XCTAssertThrowsError(try history.renameExercise(old, to: new, from: range.lowerBound, to: range.upperBound), context)
                    continue
                }
                for key in expected.keys where range.contains(key) { expected[key] = expected[key]!.map { $0 == old ? new : $0 } }
                _ = try history.renameExercise(old, to: new, from: range.lowerBound, to: range.upperBound, dryRun: dryRun)
            default:
                let target = first.adding(days: random.int(-3...25))!
                if target != day {
                    expected[target, default: []] += expected[day]!
                    expected[day] = nil
                }
                _ = try history.moveDay(day, to: target, dryRun: dryRun)
            }
            expected = expected.filter { !$0.value.isEmpty }
            if !dryRun { model = expected }
            let stored = try history.fetchAll()
            XCTAssertEqual(stored.map(\.day), model.keys.sorted(), context)
            for record in stored {
                // Names compare as Swift does; the bytes are the last writer's.
                XCTAssertEqual(record.exercises, model[record.day], context)
                XCTAssertEqual(CalendarDay(record.date, in: Self.zone), record.day, "a moved record keeps its date on its day: \(context)")
            }
            let report = try test.store.check()
            XCTAssertTrue(report.isHealthy, "\(context): \(report)")
        }
    }

    /// An edit that would change nothing writes nothing: renaming a name (seeded adversarial text,
    /// stored beside its NFC/NFD twin) to a spelling every matching row already has, byte for byte,
    /// renames 0 exercises and leaves the file and its write-ahead log byte for byte as they were
    /// (it rewrote the rows, which logged changes in the feed); to the twin, it renames exactly the
    /// rows spelled otherwise; moving a record onto its own day changes nothing either.
    func testEditsThatChangeNothingWriteNothing() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_NO_OP_EDIT_SEED", default: 0x0E_D17)
        var random = SplitMix64(seed: seed)
        let test = try TestStore()
        let history = test.store.history
        let files = [test.store.path, test.store.path + "-wal"]
        let snapshot = { files.map { FileManager.default.contents(atPath: $0) } }
        let first = CalendarDay("2026-03-01")!
        for round in 0..<PropertyTestSettings.scaled(12, by: "LOGBOOK_PROPERTY_SCALE") {
            let context = "seed \(seed), round \(round)"
            let name = AdversarialText.string(using: &random, maxPieces: 3, nonEmpty: true)
            let twin = AdversarialText.twin(of: name)
            let day = first.adding(days: round)!
            try history.addDoneExercises([name, "Row"], at: day.start(in: TimeZone(identifier: "UTC")!) + 60)
            // Every row Swift calls `name`: the one just added, and earlier rounds' names equal to it.
            let matching = try history.fetchAll().flatMap { record in record.exercises.filter { $0 == name }.map { (record.day, $0) } }
            let before = snapshot()
            let unchanged = try history.renameExercise(name, to: name)
            let respelled = matching.filter { !$0.1.utf8.elementsEqual(name.utf8) }
            XCTAssertEqual(unchanged.exercises, respelled.count, context)
            XCTAssertEqual(unchanged.days, Array(Set(respelled.map(\.0))).sorted(), context)
            if respelled.isEmpty { XCTAssertEqual(snapshot(), before, "\(context): a rename to the same bytes wrote") }
            let now = snapshot()
            XCTAssertEqual(try history.renameExercise(name, to: name).exercises, 0, context)
            XCTAssertEqual(snapshot(), now, "\(context): the second rename wrote")
            XCTAssertEqual(try history.moveDay(day, to: day), HistoryEdit(), context)
            XCTAssertEqual(snapshot(), now, "\(context): a move onto its own day wrote")
            if !twin.utf8.elementsEqual(name.utf8) {
                XCTAssertEqual(try history.renameExercise(twin, to: twin).exercises, matching.count, "\(context): to the twin")
                _ = try history.renameExercise(name, to: name)
            }
        }
        XCTAssertTrue(try test.store.check().isHealthy)
    }

    /// The day `zone` skipped whole, if it is one of ``daysZonesSkipped``'s.
    private static func daySkipped(by zone: TimeZone) -> CalendarDay? {
        daysZonesSkipped.first { $0.zone == zone.identifier }.map { CalendarDay($0.day)! }
    }

    /// A record whose date is the last `Double` before a midnight moves to the same moment before
    /// its new day's midnight: adding the offset in floating point rounded it up to 24:00:00, which
    /// the move refused as a time the zone skipped (helper-15's review), and before that filed the
    /// record a day late.
    func testTheLastMomentOfADayMovesToTheLastMomentOfTheNewDay() throws {
        for zoneName in ["UTC", "Asia/Kathmandu", "America/St_Johns"] {
            let zone = try XCTUnwrap(TimeZone(identifier: zoneName))
            let test = try TestStore(timeZone: zone)
            let day = try XCTUnwrap(CalendarDay("2026-01-05")), newDay = try XCTUnwrap(CalendarDay("2026-02-10"))
            let lastMoment = Date(timeIntervalSinceReferenceDate: day.adding(days: 1)!.start(in: zone).timeIntervalSinceReferenceDate.nextDown)
            try test.store.history.save([ExerciseDay(date: lastMoment, day: day, exercises: ["Row"])])
            _ = try test.store.history.moveDay(day, to: newDay)
            let moved = try XCTUnwrap(try test.store.history.fetch(day: newDay), zoneName)
            XCTAssertEqual(CalendarDay(moved.date, in: zone), newDay, zoneName)
            let nextMidnight = newDay.adding(days: 1)!.start(in: zone).timeIntervalSinceReferenceDate
            XCTAssertEqual(nextMidnight - moved.date.timeIntervalSinceReferenceDate,
                           day.adding(days: 1)!.start(in: zone).timeIntervalSinceReferenceDate - lastMoment.timeIntervalSinceReferenceDate,
                           accuracy: 1e-6, zoneName)
        }
    }

    /// At the calendar's ends a record written in another zone, whose date falls on 0000-12-31 or
    /// 10000-01-01 on the move's clock, moves keeping its distance from its day, as anywhere else:
    /// told as on its own day (the clamped day), each such move was refused as a time the zone
    /// "skipped", with times like -4:-56:-2 (helper-56).
    func testARecordOffItsDayAtTheCalendarsEndsMovesKeepingItsDistance() throws {
        let cases: [(zone: String, at: String, day: String, to: String)] = [
            ("Etc/GMT+12", "0001-01-01T00:00:00Z", "0001-01-01", "0001-01-02"),
            ("America/New_York", "0001-01-01T00:00:00Z", "0001-01-01", "0001-01-05"),
            ("Asia/Tokyo", "9999-12-31T20:00:00Z", "9999-12-31", "9999-12-30"),
            ("Etc/GMT-14", "9999-12-31T12:00:00Z", "9999-12-31", "9999-12-01"),
        ]
        for (zoneName, at, dayText, toText) in cases {
            let utc = try TestStore(timeZone: TimeZone(identifier: "UTC")!)
            let date = try XCTUnwrap(Date(iso8601: at))
            let day = try XCTUnwrap(CalendarDay(dayText)), newDay = try XCTUnwrap(CalendarDay(toText))
            try utc.store.history.save([ExerciseDay(date: date, day: day, exercises: ["Row"])])
            let zone = try XCTUnwrap(TimeZone(identifier: zoneName))
            let store = try Logbook(path: utc.store.path, timeZone: zone)
            _ = try store.history.moveDay(day, to: newDay)
            let moved = try XCTUnwrap(try store.history.fetch(day: newDay), zoneName)
            XCTAssertEqual(moved.date.timeIntervalSinceReferenceDate - newDay.start(in: zone).timeIntervalSinceReferenceDate,
                           date.timeIntervalSinceReferenceDate - day.start(in: zone).timeIntervalSinceReferenceDate, zoneName)
        }
    }

    /// Days on which a transition skipped the clock from before midnight to midnight or past it,
    /// with the seconds after that day's midnight the gap began and its length: a time of day in
    /// it has no instant on that day, and the time after the gap is on the next.
    private static let gapsAcrossMidnight: [(zone: String, day: String, from: Int, length: Int)] = [
        ("America/Toronto", "1919-03-30", 84_600, 3_600), ("Asia/Singapore", "1981-12-31", 84_600, 1_800),
        ("Europe/Lisbon", "1940-02-24", 82_800, 3_600),
    ]

    /// A day around one of `zone`'s next transitions after a random instant (one day either side).
    private static func dayNearATransition(in zone: TimeZone, _ random: inout SplitMix64) -> CalendarDay {
        let from = Date(timeIntervalSince1970: Double(random.int(300_000_000...1_900_000_000)))
        return CalendarDay(zone.nextDaylightSavingTimeTransition(after: from) ?? from, in: zone).adding(days: random.int(-1...1))!
    }

    /// A moved record's date falls on its new day at the same time of day (as Foundation's
    /// calendar reads the clock), in every zone: seeded moves to days near the zones' transitions,
    /// onto the days some zones skipped whole (Pacific/Apia's 2011-12-30, Pacific/Kiritimati's
    /// 1994-12-31, Pacific/Kwajalein's 1993-08-21), and at times of day a transition skipped up to
    /// midnight (Toronto 1919, Singapore 1981, Lisbon 1940), which are refused: a record moved onto
    /// one was filed under a day its date is not on (helper-13 found the gaps). A record whose date
    /// was already a day off its own moves too (refusing it broke a move of such a record).
    func testAMovedRecordsDateFallsOnItsNewDayOrTheMoveIsRefused() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_MOVE_ZONE_SEED", default: 0x4D5A)
        var random = SplitMix64(seed: seed)
        let zones = daysZonesSkipped.map(\.zone) + ["America/Sao_Paulo", "Australia/Lord_Howe", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu"]
        for round in 0..<PropertyTestSettings.scaled(60, by: "LOGBOOK_PROPERTY_SCALE") {
            let gap = random.chance(0.3) ? random.pick(Self.gapsAcrossMidnight) : nil
            let zone = TimeZone(identifier: gap?.zone ?? random.pick(zones))!
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let test = try TestStore(timeZone: zone)
            let history = test.store.history
            let near = Self.dayNearATransition(in: zone, &random)
            let skippedDay = Self.daySkipped(by: zone)
            let target = gap.map { CalendarDay($0.day)! } ?? (random.chance(0.3) ? skippedDay ?? near : near)
            let source = target.adding(days: random.int(2...40))!
            // A time of day; on a day with a gap across midnight, often in the gap or near it.
            let seconds = gap.map { ($0.from + random.int(-600...($0.length + 600))) % 86_400 } ?? random.int(0...86_399)
            let wallClock = DateComponents(hour: seconds / 3_600, minute: seconds / 60 % 60, second: seconds % 60)
            func onDay(_ day: CalendarDay) -> Date? {
                calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: wallClock.hour,
                                                   minute: wallClock.minute, second: wallClock.second))
            }
            guard let at = onDay(source), CalendarDay(at, in: zone) == source else { continue }
            // Foundation's reading of the same time of day on the new day: where a transition
            // skipped it, the time after the gap, which may be on the next day.
            let landsOffTheDay = onDay(target).map { CalendarDay($0, in: zone) != target } ?? true
            // Some records' dates are a day off their own day (another zone's import can leave
            // that): they move as well, keeping the distance.
            let isDateOffItsDay = random.chance(0.3)
            if isDateOffItsDay {
                try history.save([ExerciseDay(id: UUID(), date: at.addingTimeInterval(Double(random.pick([-1, 1]) * 86_400)),
                                              day: source, exercises: ["Squat"])])
            } else {
                try history.addDoneExercises(["Squat"], at: at)
            }
            let context = "seed \(seed), round \(round): \(zone.identifier) \(source) \(wallClock.hour!):\(wallClock.minute!):\(wallClock.second!) "
                + "-> \(target), date off its day: \(isDateOffItsDay)"
            let mustRefuse = target == skippedDay || (!isDateOffItsDay && landsOffTheDay)
            do {
                _ = try history.moveDay(source, to: target)
                let moved = try XCTUnwrap(try history.fetch(FetchDescriptor()).first, context)
                XCTAssertEqual(moved.day, target, context)
                if !isDateOffItsDay { XCTAssertEqual(CalendarDay(moved.date, in: zone), target, "\(context): the date is not on its day") }
                if !isDateOffItsDay && !landsOffTheDay {
                    XCTAssertEqual(moved.date, onDay(target), "\(context): not the same time of day")
                }
                XCTAssertFalse(mustRefuse, "\(context): a move onto a day without that time of day was taken")
            } catch LogbookError.invalidValue(let field, _, let reason) {
                XCTAssertEqual(field, "day", context)
                XCTAssertTrue(mustRefuse, "\(context): refused, \(reason)")
            }
        }
    }

    /// A hand-made record that gives a day and no date gets the day's first instant as its date:
    /// on every day near a transition of zones that skip days, move midnight or change their
    /// offset, that date falls on the day, or the import is refused naming the record and the
    /// field `day`, exactly on the days the zone skipped whole (Pacific/Apia's 2011-12-30 was
    /// filed under its day with a date on the next, `check` passing). NDJSON and CSV alike.
    func testAHandMadeDayGetsADateOnItOrIsRefusedWhenTheZoneSkippedIt() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_HANDMADE_ZONE_SEED", default: 0x5D4A)
        var random = SplitMix64(seed: seed)
        let skipped = daysZonesSkipped
        let zones = skipped.map(\.zone) + ["America/Sao_Paulo", "America/Havana", "Asia/Beirut", "Europe/Paris", "America/St_Johns"]
        for round in 0..<PropertyTestSettings.scaled(40, by: "LOGBOOK_PROPERTY_SCALE") {
            // The first rounds take each skipped day; the rest, random days near transitions.
            let zone = TimeZone(identifier: round < skipped.count ? skipped[round].zone : random.pick(zones))!
            let skippedDay = Self.daySkipped(by: zone)
            let near = Self.dayNearATransition(in: zone, &random)
            let day = round < skipped.count || random.chance(0.4) ? skippedDay ?? near : near
            let isCSV = random.chance(0.5)
            let file = isCSV ? "day,exercise\n\(day),Squat\n" : #"{"day":"\#(day)","exercises":["Squat"]}"# + "\n"
            let test = try TestStore(timeZone: zone)
            let context = "seed \(seed), round \(round): \(zone.identifier) \(day), \(isCSV ? "CSV" : "NDJSON")"
            do {
                _ = try test.store.importRecords(from: Data(file.utf8), named: isCSV ? "days.csv" : "days.ndjson",
                                                 options: ImportOptions(kind: .history))
                let stored = try XCTUnwrap(try test.store.history.fetchAll().first, context)
                XCTAssertEqual(stored.day, day, context)
                XCTAssertEqual(CalendarDay(stored.date, in: zone), day, "\(context): the date is not on its day")
                XCTAssertNotEqual(day, skippedDay, "\(context): a day the zone skipped was taken")
            } catch LogbookError.importRefused(let refusal) {
                XCTAssertEqual(refusal.field, "day", context)
                XCTAssertEqual(refusal.record, 1, context)
                XCTAssertEqual(day, skippedDay, "\(context): refused, \(refusal)")
                XCTAssertEqual(try test.store.history.count(), 0, context)
            }
        }
    }

    /// A moved record saved back as it was (an app's undo) is a record of its own again, no longer
    /// an alias of the day it was merged into: moving it again works, and a re-import of it is a no-op.
    func testARecordMergedByAMoveAndSavedBackIsItsOwnRecordAgain() throws {
        let test = try TestStore()
        let history = test.store.history
        let (first, second) = (CalendarDay("2026-03-01")!, CalendarDay("2026-03-02")!)
        let moved = try history.addDoneExercise("A", at: instant("2026-03-01T10:00:00Z"))
        _ = try history.addDoneExercise("B", at: instant("2026-03-02T10:00:00Z"))
        for round in 0..<3 {
            _ = try history.moveDay(first, to: second)
            XCTAssertEqual(try history.fetch(FetchDescriptor()).map(\.exercises), [["B", "A"] + Array(repeating: "A", count: round)])
            try history.save([moved])
            XCTAssertEqual(try history.fetch(FetchDescriptor(sortBy: [SortDescriptor(\.day)])).map(\.id).first, moved.id, "round \(round)")
        }
        let exported = try test.store.exportHistory(format: .ndjson)
        let summary = try test.store.importRecords(from: exported, named: "again.ndjson")
        XCTAssertEqual(summary.inserted + summary.merged + summary.replaced, 0, "\(summary)")
        XCTAssertTrue(try test.store.check().isHealthy)
    }

    /// `exerciseNames()` reads the years' name tallies and the waiting days' rows while the
    /// tallies are current, and every exercise row otherwise: over seeded histories of adversarial
    /// names (NFC and NFD twins, one spelling then the other), saved in bulk and a day at a time
    /// (which leaves days waiting), edited, and written by another program, it is always what a
    /// scan of every row gives. Seeded (`LOGBOOK_NAMES_SEED`).
    func testExerciseNamesAreEveryStoredNameInEveryState() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_NAMES_SEED", default: 0x4E41)
        var random = SplitMix64(seed: seed)
        let test = try TestStore()
        let history = test.store.history
        var pool: [String] = []
        for _ in 0..<12 { let name = AdversarialText.string(using: &random, maxPieces: 3, nonEmpty: true); pool += [name, AdversarialText.twin(of: name)] }
        func scanned() throws -> [String] {
            var names: [String] = []
            try test.store.query("SELECT min(name) FROM exercises GROUP BY name_key ORDER BY name_key", columns: { _ in }) { row in
                if case .text(let name) = row[0] { names.append(name) }
            }
            return names
        }
        var day = CalendarDay("2020-01-01")!
        for round in 0..<PropertyTestSettings.scaled(30, by: "LOGBOOK_PROPERTY_SCALE") {
            let context = "seed \(seed), round \(round)"
            switch random.int(0...4) {
            case 0:
                let days = (0..<random.int(1...40)).map { _ -> ExerciseDay in
                    day = day.adding(days: random.int(1...3))!
                    return ExerciseDay(date: day.start(in: test.store.timeZone) + 60, day: day,
                                       exercises: (0..<random.int(1...4)).map { _ in random.pick(pool) })
                }
                try history.save(days)
            case 1, 2:
                day = day.adding(days: 1)!
                _ = try history.addDoneExercises((0..<random.int(1...3)).map { _ in random.pick(pool) }, at: day.start(in: test.store.timeZone) + 60)
            case 3:
                if let stored = try history.fetch(FetchDescriptor()).randomElement(using: &random) {
                    _ = try history.renameExercise(random.pick(stored.exercises), to: random.pick(pool))
                }
            default:
                // Another program's row on a stored day, which no trigger marks.
                let plain = try Connection(path: test.store.path)
                let name = random.pick(pool)
                try plain.run("""
                    INSERT INTO exercises (day_pk, position, name, name_key)
                    SELECT pk, (SELECT max(position) + 1 FROM exercises WHERE day_pk = pk), ?, swift_key(?) FROM exercise_days ORDER BY random() LIMIT 1
                    """, [.text(name), .text(name)])
            }
            XCTAssertEqual(try history.exerciseNames(), try scanned(), context)
        }
    }

    func testNamesResembleByLettersAndTypingMistakes() throws {
        let test = try TestStore()
        try test.store.history.addDoneExercises(["Burpee", "Squat", "Élan"], at: instant("2026-01-01T10:00:00Z"))
        let history = test.store.history
        XCTAssertEqual(try history.knownExercise(resembling: "Bupree"), "Burpee")
        XCTAssertEqual(try history.knownExercise(resembling: "squat"), "Squat")
        XCTAssertEqual(try history.knownExercise(resembling: "elan"), "Élan")
        XCTAssertNil(try history.knownExercise(resembling: "Squat"))
        XCTAssertNil(try history.knownExercise(resembling: "E\u{301}lan"), "the same name as Swift compares")
        XCTAssertNil(try history.knownExercise(resembling: "Kettlebell Swing"))
        XCTAssertEqual(try history.exerciseNames(matching: "BURPÉE"), ["Burpee"])
        let query = try history.query(where: #"exercises icontains "elan""#)
        XCTAssertEqual(try history.fetch(query).count, 1)
        XCTAssertEqual(try history.fetch(try history.query(where: #"exercises icontains "ela""#)).count, 0, "whole names, not parts")
    }

    private static func at(_ day: CalendarDay, hour: Int) -> Date {
        day.start(in: zone) + Double(hour * 3_600 + 17)
    }
}
