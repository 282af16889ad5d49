import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// `logbook import OTHER.sqlite`: another device's logbook merged with the rules of every import.
final class MergeCLITests: XCTestCase {
    /// Two devices that once shared a history, each then recording on its own (often on the same
    /// calendar days): merging A into B and B into A gives the same records, byte for byte; merging
    /// again changes nothing; a dry run writes nothing; the merged file passes `check`. (A record
    /// both devices changed under the same id is a conflict `--on-conflict` settles, one way.)
    func testMergingEitherWayGivesTheSameRecordsAndMergingTwiceChangesNothing() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_MERGE_SEED", default: 0x4D45_5247)
        var random = SplitMix64(seed: seed)
        let base = try CLIHarness()
        try Self.record(into: base, days: 20, from: CalendarDay(year: 2026, month: 1, day: 1)!, random: &random)
        let (a, b) = (try CLIHarness(), try CLIHarness())
        for device in [a, b] {
            try FileManager.default.copyItem(at: base.database, to: device.database)
            // After the copy, each device records its own days (often the same calendar days as the other's).
            try Self.record(into: device, days: 30, from: CalendarDay(year: 2026, month: 1, day: 25)!, random: &random)
        }
        // Each direction on copies of the two originals.
        let (aIntoB, bIntoA) = (try CLIHarness(), try CLIHarness())
        try FileManager.default.copyItem(at: b.database, to: aIntoB.database)
        try FileManager.default.copyItem(at: a.database, to: bIntoA.database)

        let before = aIntoB.snapshot()
        let dryRun = try aIntoB.run(["import", a.database.path, "--dry-run"])
        XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
        XCTAssertEqual(aIntoB.snapshot(), before, "seed \(seed): a dry run writes nothing")

        let first = try aIntoB.run(["import", a.database.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("merged"), first.stderr)
        XCTAssertEqual(try bIntoA.run(["import", b.database.path]).status, 0)
        for kind in ["history", "drafts"] {
            let one = try aIntoB.run(["export", kind, "--format", "ndjson", "--sort", kind == "history" ? "day" : "id"])
            let other = try bIntoA.run(["export", kind, "--format", "ndjson", "--sort", kind == "history" ? "day" : "id"])
            XCTAssertEqual(one.status, 0, one.stderr)
            XCTAssertEqual(one.output, other.output, "seed \(seed): \(kind) differ between the two directions")
        }
        for merged in [aIntoB, bIntoA] {
            let check = try merged.run(["check"])
            XCTAssertEqual(check.status, 0, "seed \(seed): \(check.stdout)")
        }

        // Merging again, either file into either, changes nothing.
        let settled = aIntoB.snapshot()
        for other in [a, b, bIntoA] {
            let again = try aIntoB.run(["import", other.database.path])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertTrue(again.stderr.contains("inserted 0, skipped"), "seed \(seed): \(again.stderr)")
            XCTAssertTrue(again.stderr.contains("merged 0, replaced 0"), "seed \(seed): \(again.stderr)")
        }
        XCTAssertEqual(try aIntoB.run(["export", "history", "--format", "ndjson"]).output,
                       try Self.exported(settled, into: try CLIHarness()), "seed \(seed): nothing changed")

        // Only one kind when asked; never the logbook's own file; never from stdin.
        let historyOnly = try CLIHarness()
        XCTAssertEqual(try historyOnly.run(["import", a.database.path, "--kind", "history"]).status, 0)
        XCTAssertEqual(try historyOnly.run(["count", "drafts"]).stdout, "0\n")
        XCTAssertFailure(try a.run(["import", a.database.path]), status: 1, mentioning: "this logbook's own file")
        // By a hard link too, before it is opened (it merged as a no-op, or failed with an I/O
        // error, and left a second write-ahead log beside the link; helper-7): a logbook with two
        // names is not written at all (helper-76).
        let hardLink = a.folder.appendingPathComponent("hard.sqlite")
        XCTAssertEqual(link(a.database.path, hardLink.path), 0)
        XCTAssertFailure(try a.run(["import", hardLink.path]), status: 1, mentioning: "the file has 2 names (hard links)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hardLink.path + "-wal"))
        XCTAssertEqual(unlink(hardLink.path), 0)
        XCTAssertFailure(try a.run(["import", "-"], stdin: "SQLite format 3\u{0}"), status: 1, mentioning: "from its file")
    }

    /// Two devices kept in step by merging each into the other in turn, as a sync does: the watch
    /// merges the phone, then the phone merges the watch, and both hold the same records, with no
    /// exercise counted twice or left out. A device adds to a record they share (a day of the
    /// common history, or one that the other merged), or records a day the other recorded too; a
    /// record both changed apart is a conflict, and the generator never makes one. Merging again
    /// either way changes nothing.
    func testDevicesMergedIntoEachOtherInTurnEndTheSame() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_SYNC_SEED", default: 0x5359_4E43)
        var random = SplitMix64(seed: seed)
        let (phone, watch) = (try CLIHarness(), try CLIHarness())
        try Self.record(into: phone, days: 12, from: CalendarDay(year: 2026, month: 3, day: 1)!, random: &random)
        try FileManager.default.copyItem(at: phone.database, to: watch.database)
        let names = ["Burpee", "Squat", "Row", "Café", "Cafe\u{301}"]
        for round in 0..<4 {
            // Each day of the round: recorded by one device, by both (two records of one day), or by
            // neither; a day already shared is added to by at most one of them.
            for offset in 0..<10 {
                let day = CalendarDay(year: 2026, month: 3, day: 1)!.adding(days: offset + 6 * round)!
                let devices: [CLIHarness] = switch random.next() % 4 {
                case 0: [phone]
                case 1: [watch]
                case 2: [phone, watch]
                default: []
                }
                for device in devices {
                    let counts = try [phone, watch].map { try $0.run(["count", "history", "--where", "day == \(day)"]) }
                    XCTAssertEqual(counts.map(\.status), [0, 0], counts.map(\.stderr).joined())
                    if counts.allSatisfy({ $0.stdout == "1\n" }) && devices.count == 2 { continue }
                    let time = String(format: "%02d:%02d:%02d", 5 + Int(random.next() % 15), Int(random.next() % 60), Int(random.next() % 60))
                    let added = try device.run(["-q", "history", "add", names[Int(random.next() % UInt64(names.count))], "--at", "\(day) \(time)"])
                    XCTAssertEqual(added.status, 0, added.stderr)
                }
            }
            let (from, into) = round % 2 == 0 ? (phone, watch) : (watch, phone)
            let first = try into.run(["import", from.database.path])
            XCTAssertEqual(first.status, 0, "seed \(seed): \(first.stderr)")
            let back = try from.run(["import", into.database.path])
            XCTAssertEqual(back.status, 0, "seed \(seed): \(back.stderr)")
            for command in [["export", "history", "--format", "ndjson", "--sort", "day"], ["report", "exercises", "--format", "csv"],
                            ["report", "history", "--by", "day", "--format", "csv"]] {
                let one = try phone.run(command), other = try watch.run(command)
                XCTAssertEqual(one.status, 0, one.stderr)
                XCTAssertEqual(one.stdout, other.stdout, "seed \(seed), round \(round): \(command.joined(separator: " ")) differ")
            }
            for device in [phone, watch] {
                XCTAssertEqual(try device.run(["check"]).status, 0, "seed \(seed), round \(round)")
                let again = try device.run(["import", (device === phone ? watch : phone).database.path])
                XCTAssertTrue(again.stderr.contains("inserted 0, skipped"), "seed \(seed): \(again.stderr)")
                XCTAssertTrue(again.stderr.contains("merged 0, replaced 0"), "seed \(seed): \(again.stderr)")
            }
        }
    }

    /// The two orders of one day recorded on two devices (the watch's exercise first, then the
    /// phone's): after the watch merges the phone and the phone merges the watch, each holds the
    /// one record with both exercises once, and reports count each once.
    /// One app file imported on two devices in different time zones files a record near midnight
    /// under different days: one device merges it into the day before's record, the other keeps it
    /// on its own day. A merge between them, either way, counted its exercises twice with exit 0.
    /// Seeded (`LOGBOOK_ZONE_MERGE_SEED`): app files of records near midnight, two zones at random;
    /// each merge is refused naming the record, the logbook byte for byte as it was, or done; and
    /// in either case each logbook holds every exercise of the file exactly once.
    func testOneFileImportedInTwoTimeZonesMergesWithEachExerciseOnceOrIsRefused() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_ZONE_MERGE_SEED", default: 0x5A4D)
        var random = SplitMix64(seed: seed)
        let zones = ["UTC", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "America/Los_Angeles", "Asia/Kathmandu"]
        var refused = 0, merged = 0
        for round in 0..<PropertyTestSettings.scaled(6, by: "LOGBOOK_PROPERTY_SCALE") {
            // Records a few hours apart around midnights (seconds since 2001, as the app's JSONEncoder writes them).
            var seconds = 757_000_000 + 86_400 * random.int(0...400)
            var records: [String] = []
            var exercises = 0
            for index in 0..<random.int(2...8) {
                seconds += random.int(1...10) * 3_600
                let names = (0..<random.int(1...3)).map { _ in "\"" + random.pick(["Squat", "Row", "Plank"]) + "\"" }
                exercises += names.count
                records.append(#"{"id":"AAAAAAAA-0000-4000-8000-\#(String(format: "%012d", round * 100 + index))","date":\#(seconds),"exercises":[\#(names.joined(separator: ","))]}"#)
            }
            let (a, b) = (try CLIHarness(), try CLIHarness())
            let file = a.folder.appendingPathComponent("app.json")
            try Data(("[" + records.joined(separator: ",") + "]").utf8).write(to: file)
            let (zoneA, zoneB) = (random.pick(zones), random.pick(zones))
            XCTAssertEqual(try a.run(["-q", "--time-zone", zoneA, "import", file.path]).status, 0)
            XCTAssertEqual(try b.run(["-q", "--time-zone", zoneB, "import", file.path]).status, 0)
            let context = "seed \(seed), round \(round): \(zoneA) and \(zoneB), \(records)"
            // Refused both ways or neither: one way was refused while the other skipped the record,
            // exit 0, and the two never agreed again (helper-82).
            let outcomes = try [(a, b), (b, a)].map { into, other -> Int32 in
                let copy = into.folder.appendingPathComponent("copy.sqlite")
                try FileManager.default.copyItem(at: into.database, to: copy)
                defer { try? FileManager.default.removeItem(at: copy) }
                return try into.run(["--db", copy.path, "import", other.database.path], useDatabase: false).status
            }
            XCTAssertEqual(outcomes[0], outcomes[1], "\(context): a merge refused one way only")
            for (into, other) in [(a, b), (b, a), (a, b)] {
                let before = into.snapshot()
                let result = try into.run(["import", other.database.path])
                if result.status == 0 {
                    merged += 1
                } else {
                    refused += 1
                    XCTAssertFailure(result, status: 1, mentioning: "the two filed it under different days")
                    XCTAssertEqual(into.snapshot(), before, "\(context): a refused merge wrote")
                }
                let count = try into.run(["query", "SELECT count(*) FROM exercises", "--format", "csv"]).lines.last
                XCTAssertEqual(count, "\(exercises)\r", "\(context): not every exercise once after \(result.stderr)")
            }
        }
        print("MergeCLITests (LOGBOOK_ZONE_MERGE_SEED=\(seed)): \(merged) merges done, \(refused) refused")
    }

    /// A record one device merged into its record of a day, which the other keeps on another day
    /// where it holds another record merged into it, is refused both ways: the way in which the
    /// incoming record shares that other record with this logbook's record of its day skipped it,
    /// exit 0, and the devices stayed apart for good (a later addition on one never reached the
    /// other; helper-82). One app file imported in Tokyo and in New York, and two devices that
    /// moved records differently; `--on-conflict replace` is refused naming itself.
    func testARecordFiledApartIsRefusedBothWaysWhenItSharesAnotherRecord() throws {
        // W, X, Y at 2026-03-01T12:00Z, 03-02T02:00Z and 03-02T10:00Z (seconds since 2001).
        let app = #"[{"id":"AAAAAAAA-0000-4000-8000-000000000001","date":794059200,"exercises":["W"]},"#
            + #"{"id":"AAAAAAAA-0000-4000-8000-000000000002","date":794109600,"exercises":["X"]},"#
            + #"{"id":"AAAAAAAA-0000-4000-8000-000000000003","date":794138400,"exercises":["Y"]}]"#
        let (tokyo, newYork) = (try CLIHarness(), try CLIHarness())
        let file = tokyo.folder.appendingPathComponent("app.json")
        try Data(app.utf8).write(to: file)
        XCTAssertEqual(try tokyo.run(["-q", "--time-zone", "Asia/Tokyo", "import", file.path]).status, 0)
        XCTAssertEqual(try newYork.run(["-q", "--time-zone", "America/New_York", "import", file.path]).status, 0)

        let (a, b) = (try CLIHarness(), try CLIHarness())
        for (name, day) in [("W", "2026-03-01"), ("X", "2026-03-02"), ("Y", "2026-03-03")] {
            XCTAssertEqual(try a.run(["-q", "history", "add", name, "--at", "\(day)T10:00:00Z"]).status, 0)
        }
        XCTAssertEqual(try b.run(["-q", "import", a.database.path]).status, 0)
        // On a, X onto W's day, then Y to the 2nd, free again; on b, Y onto X's day.
        XCTAssertEqual(try a.run(["-q", "history", "move", "--day", "2026-03-02", "--to", "2026-03-01"]).status, 0)
        XCTAssertEqual(try a.run(["-q", "history", "move", "--day", "2026-03-03", "--to", "2026-03-02"]).status, 0)
        XCTAssertEqual(try b.run(["-q", "history", "move", "--day", "2026-03-03", "--to", "2026-03-02"]).status, 0)

        for (one, other) in [(tokyo, newYork), (a, b)] {
            for (into, from) in [(one, other), (other, one)] {
                for policy in ["skip", "fail", "replace"] {
                    let before = into.snapshot()
                    let result = try into.run(["import", from.database.path, "--on-conflict", policy])
                    XCTAssertFailure(result, status: 1, mentioning: "the two filed it under different days")
                    XCTAssertFalse(result.stderr.contains("--on-conflict fail") && policy != "fail", result.stderr)
                    XCTAssertEqual(into.snapshot(), before, "a refused merge wrote")
                }
            }
        }
    }

    /// A record the two devices shared, each moved onto the record of another day (one device to
    /// the 2nd, the other to the 3rd), is filed apart by both: a merge either way is refused, naming
    /// it, the logbook byte for byte as it was (both counted its exercises twice, exit 0; helper-7);
    /// moved onto the same day on both, they merge.
    func testARecordEachDeviceMovedOntoAnotherDayIsRefused() throws {
        for (toOnA, toOnB) in [("2026-03-02", "2026-03-03"), ("2026-03-02", "2026-03-02")] {
            let (a, b) = (try CLIHarness(), try CLIHarness())
            for (name, day) in [("X1", "2026-03-01"), ("Y1", "2026-03-02"), ("Z1", "2026-03-03")] {
                XCTAssertEqual(try a.run(["-q", "history", "add", name, "--at", "\(day)T10:00:00Z"]).status, 0)
            }
            XCTAssertEqual(try b.run(["-q", "import", a.database.path]).status, 0)
            XCTAssertEqual(try a.run(["-q", "history", "move", "--day", "2026-03-01", "--to", toOnA]).status, 0)
            XCTAssertEqual(try b.run(["-q", "history", "move", "--day", "2026-03-01", "--to", toOnB]).status, 0)
            for (into, other) in [(a, b), (b, a)] {
                let before = into.snapshot()
                let result = try into.run(["import", other.database.path])
                if toOnA == toOnB {
                    XCTAssertEqual(result.status, 0, result.stderr)
                } else {
                    XCTAssertFailure(result, status: 1, mentioning: "merged", "the two filed it under different days")
                    XCTAssertEqual(into.snapshot(), before, "a refused merge wrote")
                }
                let count = try into.run(["query", "SELECT count(*) FROM exercises WHERE name = 'X1'", "--format", "csv"]).lines.last
                XCTAssertEqual(count, "1\r", "\(toOnA) and \(toOnB): X1 not once")
            }
        }
    }

    func testADayRecordedOnTwoDevicesIsOneRecordOnBothAfterMergingEachWay() throws {
        for watchFirst in [true, false] {
            let (phone, watch) = (try CLIHarness(), try CLIHarness())
            XCTAssertEqual(try phone.run(["-q", "history", "add", "Squat", "--at", "2026-01-05 09:00:00"]).status, 0)
            XCTAssertEqual(try watch.run(["-q", "history", "add", "Burpee", "--at", "2026-01-05 \(watchFirst ? "08" : "10"):00:00"]).status, 0)
            XCTAssertEqual(try watch.run(["import", phone.database.path]).status, 0)
            XCTAssertEqual(try phone.run(["import", watch.database.path]).status, 0)
            let expected = watchFirst ? #""exercises":["Burpee","Squat"]"# : #""exercises":["Squat","Burpee"]"#
            for device in [phone, watch] {
                let exported = try device.run(["export", "history", "--format", "ndjson"]).stdout
                XCTAssertTrue(exported.contains(expected), "\(watchFirst): \(exported)")
                XCTAssertEqual(try device.run(["report", "exercises", "--format", "csv"]).stdout,
                               try phone.run(["report", "exercises", "--format", "csv"]).stdout)
                XCTAssertEqual(try device.run(["export", "history", "--format", "ndjson"]).stdout,
                               try phone.run(["export", "history", "--format", "ndjson"]).stdout)
            }
            XCTAssertTrue(try phone.run(["report", "exercises", "--format", "csv"]).stdout.contains("Squat,1,"), "\(watchFirst)")
        }
    }

    /// Another device's file damaged where a seeded generator says (cut at a random length, a page
    /// zeroed, bytes overwritten, bits flipped): the merge either refuses it with one error line
    /// naming that file, leaving this logbook byte for byte as it was, or merges exactly the
    /// records that file's own export shows, drafts and days. Never a part of it.
    func testADamagedLogbookIsRefusedOrMergedExactlyAsItReads() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_DAMAGED_SOURCE_SEED", default: 0x4441_4D47)
        let cases = Reliability.setting("LOGBOOK_DAMAGED_SOURCE_CASES", default: 16)
        var random = SplitMix64(seed: seed)
        let source = try CLIHarness()
        let history = source.folder.appendingPathComponent("history.ndjson")
        try Reliability.writeHistory(days: 0..<3_000, exercisesPerDay: 4, to: history)
        XCTAssertEqual(try source.run(["import", history.path]).status, 0)
        XCTAssertEqual(try source.run(["import", CLIHarness.fixture("drafts.json").path]).status, 0)
        let original = try Data(contentsOf: source.database)
        let pageSize = 4_096
        // The damage lands in the pages of the records' tables, which the merge reads row by row.
        let recordPages = try Self.pages(of: ["exercise_days", "exercises", "drafts", "checklist_items"], in: source.database)
        func recordPageStart() -> Int { (recordPages[Int(random.next() % UInt64(recordPages.count))] - 1) * pageSize }
        let destination = try CLIHarness()
        XCTAssertEqual(try destination.run(["init"]).status, 0)
        let untouched = destination.snapshot()
        let reader = try CLIHarness()

        var outcomes: [String: Int] = [:]
        for index in 0..<cases {
            var bytes = [UInt8](original)
            let damage: String
            switch random.next() % 4 {
            case 0:
                let length = Int(random.next() % UInt64(bytes.count))
                bytes.removeLast(bytes.count - length)
                damage = "cut to \(length) bytes"
            case 1:
                let start = recordPageStart()
                for offset in start..<start + pageSize { bytes[offset] = 0 }
                damage = "page \(start / pageSize + 1) zeroed"
            case 2:
                let start = recordPageStart() + Int(random.next() % UInt64(pageSize - 64))
                for offset in start..<start + 64 { bytes[offset] = UInt8(truncatingIfNeeded: random.next()) }
                damage = "64 bytes overwritten at \(start)"
            default:
                let offsets = (0..<4).map { _ in recordPageStart() + Int(random.next() % UInt64(pageSize)) }
                for offset in offsets { bytes[offset] ^= 1 << (random.next() % 8) }
                damage = "bits flipped at \(offsets)"
            }
            let context = "seed \(seed), case \(index): \(damage)"
            let damaged = destination.folder.appendingPathComponent("damaged-\(index).sqlite")
            try Data(bytes).write(to: damaged)
            // The file's own reading, from a copy (opening a file may write to it).
            try Data(bytes).write(to: reader.database)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: reader.database.path + suffix) }
            let ownExports = try ["history", "drafts"].map { try reader.run(["export", $0, "--format", "ndjson"]) }

            let merge = try destination.run(["import", damaged.path])
            if merge.status == 0 {
                for (kind, own) in zip(["history", "drafts"], ownExports) {
                    XCTAssertEqual(own.status, 0, "\(context): merged, but its own export of \(kind) fails: \(own.stderr)")
                    let merged = try destination.run(["export", kind, "--format", "ndjson"])
                    XCTAssertEqual(merged.output, own.output, "\(context): the \(kind) merged differ from the file's own export")
                }
                let check = try destination.run(["check"])
                XCTAssertEqual(check.status, 0, "\(context): \(check.stdout)")
                try Reliability.restore(destination, to: try XCTUnwrap(untouched[0]))
                outcomes["merged", default: 0] += 1
            } else {
                XCTAssertFailure(merge, status: 1, mentioning: damaged.lastPathComponent)
                XCTAssertEqual(destination.snapshot(), untouched, "\(context): a refused merge changed this logbook")
                outcomes["refused", default: 0] += 1
            }
        }
        print("MergeCLITests (LOGBOOK_DAMAGED_SOURCE_SEED=\(seed)): \(cases) damaged files: \(outcomes)")
    }

    /// The page numbers (from 1) of `tables`' b-trees in the database at `url`.
    private static func pages(of tables: [String], in url: URL) throws -> [Int] {
        let connection = try Connection(path: url.path)
        let list = tables.map { "'\($0)'" }.joined(separator: ", ")
        let statement = try connection.prepare("SELECT pageno FROM dbstat WHERE name IN (\(list)) ORDER BY pageno")
        var pages: [Int] = []
        while try statement.step() { pages.append(try statement.column(0)) }
        return pages
    }

    /// Days from `from` on, about half recorded, one to three exercises each at random times, and
    /// a draft now and then; through the CLI, as a person on one device would.
    private static func record(into cli: CLIHarness, days: Int, from: CalendarDay, random: inout SplitMix64) throws {
        let names = ["Burpee", "Squat", "Row", "Café", "Cafe\u{301}", "Plank"]
        for offset in 0..<days where random.next() % 2 == 0 {
            let day = from.adding(days: offset)!
            for _ in 0...(random.next() % 3) {
                let time = String(format: "%02d:%02d:%02d", 5 + Int(random.next() % 15), Int(random.next() % 60), Int(random.next() % 60))
                let result = try cli.run(["-q", "history", "add", names[Int(random.next() % UInt64(names.count))], "--at", "\(day) \(time)"])
                XCTAssertEqual(result.status, 0, result.stderr)
            }
            if random.next() % 5 == 0 {
                XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "1.\(random.next() % 100)", "--item", "Tag"]).status, 0)
            }
        }
    }

    /// The history export of a database whose file bytes were `snapshot`.
    private static func exported(_ snapshot: [Data?], into cli: CLIHarness) throws -> Data {
        try snapshot[0]!.write(to: cli.database)
        if let wal = snapshot[1] { try wal.write(to: URL(fileURLWithPath: cli.database.path + "-wal")) }
        return try cli.run(["export", "history", "--format", "ndjson"]).output
    }
}
