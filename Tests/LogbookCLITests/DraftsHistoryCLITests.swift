import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// `drafts …` and `history add|delete`, run on the real binary.
final class DraftsHistoryCLITests: XCTestCase {
    private func rowCounts(_ cli: CLIHarness) throws -> [String: Int] {
        let connection = try Connection(path: cli.database.path)
        var counts: [String: Int] = [:]
        for table in ["drafts", "checklist_items", "exercise_days", "exercises"] {
            counts[table] = try connection.scalar("SELECT count(*) FROM \(table)", as: Int.self)
        }
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM pragma_foreign_key_check", as: Int.self), 0)
        return counts
    }

    func testDraftLifecycle() throws {
        let cli = try CLIHarness()
        try cli.run(["history", "add", "Squat"])
        let countsBefore = try rowCounts(cli)

        let added = try cli.run(["drafts", "add", "--version", "2.5.0", "--item", "Screenshots", "--item", "Release notes",
                                 "--item", "Tag"])
        XCTAssertEqual(added.status, 0, added.stderr)
        let id = added.stdout.trimmingCharacters(in: .newlines)
        XCTAssertNotNil(UUID(uuidString: id), added.stdout)

        XCTAssertEqual(try cli.run(["drafts", "item", "check", "2.5.0", "2"]).status, 0)
        let shown = try cli.run(["drafts", "show", String(id.prefix(8))])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("checklist:  1 of 3 done"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("  2. [x] Release notes"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("  1. [ ] Screenshots"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("submitted:  not submitted"), shown.stdout)

        XCTAssertEqual(try cli.run(["drafts", "submit", "2.5.0", "--at", "2026-01-31T08:30:00.25+02:00"]).status, 0)
        let json = try cli.run(["drafts", "show", id, "--format", "json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["submittedAt"] as? String, "2026-01-31T06:30:00.250000Z")
        XCTAssertEqual(object["version"] as? String, "2.5.0")
        XCTAssertEqual((object["checklist"] as? [[String: Any]])?.map { $0["isDone"] as? Bool }, [false, true, false])
        // Every data format, as a listing of that one draft writes it (helper-44: ndjson and csv were refused).
        for format in ["ndjson", "csv"] {
            let one = try cli.run(["drafts", "show", "2.5.0", "--format", format])
            XCTAssertEqual(one.status, 0, one.stderr)
            XCTAssertEqual(one.stdout, try cli.run(["drafts", "list", "--where", "version == \"2.5.0\"", "--format", format]).stdout, format)
        }
        XCTAssertEqual(try cli.run(["drafts", "show", "2.5.0", "--format", "ndjson"]).stdout, json.stdout, "ndjson is the json object on its line")

        // An empty-version draft cannot be submitted, and trying changes nothing.
        let empty = try cli.run(["drafts", "add", "--version", ""]).stdout.trimmingCharacters(in: .newlines)
        let before = cli.snapshot()
        XCTAssertFailure(try cli.run(["drafts", "submit", empty]), status: 1,
                         mentioning: "Refusing to submit: no version set", empty)
        XCTAssertEqual(cli.snapshot(), before)

        XCTAssertEqual(try cli.run(["drafts", "delete", id]).status, 0)
        XCTAssertEqual(try cli.run(["drafts", "delete", empty]).status, 0)
        XCTAssertEqual(try rowCounts(cli), countsBefore)
    }

    func testChecklistEditing() throws {
        let cli = try CLIHarness()
        try cli.run(["drafts", "add", "--version", "1.0", "--item", "A", "--item", "B"])
        XCTAssertEqual(try cli.run(["drafts", "item", "add", "1.0", "C", "D"]).status, 0)
        try cli.run(["drafts", "item", "check", "1.0", "4"])
        try cli.run(["drafts", "item", "move", "1.0", "4", "1"])
        try cli.run(["drafts", "item", "remove", "1.0", "3"])
        try cli.run(["drafts", "item", "check", "1.0", "2"])
        try cli.run(["drafts", "item", "uncheck", "1.0", "1"])
        let shown = try cli.run(["drafts", "show", "1.0"]).stdout
        XCTAssertTrue(shown.contains("  1. [ ] D\n  2. [x] A\n  3. [ ] C\nchecklist:") || shown.hasSuffix("  1. [ ] D\n  2. [x] A\n  3. [ ] C\n"), shown)
        XCTAssertTrue(shown.contains("checklist:  1 of 3 done"), shown)
    }

    func testBadReferencesAndPositionsChangeNothing() throws {
        let cli = try CLIHarness()
        let first = try cli.run(["drafts", "add", "--version", "3.0", "--item", "Only"]).stdout.trimmingCharacters(in: .newlines)
        let second = try cli.run(["drafts", "add", "--version", "3.0"]).stdout.trimmingCharacters(in: .newlines)
        let before = cli.snapshot()

        XCTAssertFailure(try cli.run(["drafts", "show", "9.9"]), status: 1, mentioning: "no draft", "9.9")
        XCTAssertFailure(try cli.run(["drafts", "delete", "3.0"]), status: 1, mentioning: "matches 2 drafts", first, second)
        XCTAssertFailure(try cli.run(["drafts", "item", "check", first, "2"]), status: 1, mentioning: "item 2 does not exist")
        XCTAssertFailure(try cli.run(["drafts", "item", "remove", second, "1"]), status: 1, mentioning: "no checklist items")
        XCTAssertFailure(try cli.run(["drafts", "item", "check", first, "zero"]), status: 2, mentioning: "invalid position 'zero'")
        XCTAssertFailure(try cli.run(["drafts", "submit", first, "--at", "31/01/2026"]), status: 2,
                         mentioning: "invalid date '31/01/2026'")
        XCTAssertFailure(try cli.run(["drafts", "edit", first]), status: 2, mentioning: "nothing to change")
        XCTAssertFailure(try cli.run(["drafts", "add"]), status: 2, mentioning: "missing '--version <v>'")
        // An option a command cannot run without is named so by its usage line, without brackets
        // (they showed it optional: helper-64), and missing is a usage error before it runs.
        for (command, usage, missing) in [(["drafts", "add"], "logbook drafts add --version <v> [", ["drafts", "add", "--item", "x"]),
                                          (["history", "delete"], "logbook history delete --day <day>", ["history", "delete"]),
                                          (["history", "remove"], "logbook history remove --day <day> [", ["history", "remove", "1"]),
                                          (["history", "move"], "logbook history move --day <day> --to <day> [", ["history", "move", "--day", "2026-02-03"])] {
            let help = try cli.run(command + ["--help"])
            XCTAssertTrue(help.stdout.contains("USAGE: " + usage), help.stdout)
            XCTAssertFailure(try cli.run(missing), status: 2, mentioning: "missing '--")
        }
        XCTAssertTrue(try cli.run(["help", "--man"]).stdout.contains("logbook history move \\-\\-day"), "the manual page's usage line too")
        XCTAssertFailure(try cli.run(["--time-zone", "Mars/Olympus", "history", "add", "Squat"]), status: 2,
                         mentioning: "unknown time zone 'Mars/Olympus'")
        XCTAssertFailure(try cli.run(["history", "delete", "--day", "2026-02-30"]), status: 2, mentioning: "invalid date '2026-02-30' for '--day <day>'")
        // A record that is not there is named with the file it is not in.
        XCTAssertFailure(try cli.run(["history", "delete", "--day", "2026-02-03"]), status: 1,
                         mentioning: "logbook: error: \(cli.database.path): no exercises recorded on 2026-02-03")
        XCTAssertFailure(try cli.run(["drafts", "show", "9.9"]), status: 1,
                         mentioning: "logbook: error: \(cli.database.path): no draft with id or version '9.9'")
        XCTAssertFailure(try cli.run(["history", "add", ""]), status: 2, mentioning: "invalid exercise '': an exercise name cannot be empty")
        XCTAssertFailure(try cli.run(["history", "add", "Squat", " \t "]), status: 2, mentioning: "invalid exercise ' \\t '", "empty or blank")
        XCTAssertFailure(try cli.run(["history", "rename", "Squat", "  "]), status: 2, mentioning: "invalid new name '  '", "empty or blank")
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// A POSIX rule in $TZ that no zone file is named like (`UTC0`, `JST-9`, `<+0530>-5:30`,
    /// `GMT+14`, which POSIX and `date` read as 14 hours *behind* UTC and Foundation as ahead) is
    /// read as `date` reads it (such rules were refused). Seeded: random abbreviations and offsets
    /// (hours, minutes, seconds, either sign), each at a random instant, file `history add` under
    /// the day `TZ=rule date` shows; an offset Foundation has no zone for (past 18 hours), a rule
    /// with daylight saving time, and a Foundation-style offset after a colon or in four digits are
    /// refused, the file unchanged.
    func testAPOSIXRuleInTZFilesTheDayDateShows() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_POSIX_TZ_SEED", default: 0x505A)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        for sample in 0..<PropertyTestSettings.scaled(24, by: "LOGBOOK_PROPERTY_SCALE") {
            let letters = (0..<Int.random(in: 3...5, using: &random)).map { _ in random.pick(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz")) }
            let abbreviation = Bool.random(using: &random) ? String(letters)
                : "<" + String((0..<Int.random(in: 3...6, using: &random)).map { _ in random.pick(Array("+-0123456789ABZ")) }) + ">"
            let hours = Int.random(in: 0...24, using: &random), minutes = random.pick([0, 0, 30, 45, Int.random(in: 0...59, using: &random)])
            let secondsPart = random.pick([0, 0, 0, Int.random(in: 0...59, using: &random)])
            var offset = random.pick(["", "+", "-"]) + (Bool.random(using: &random) ? String(format: "%02d", hours) : String(hours))
            if minutes != 0 || secondsPart != 0 { offset += String(format: ":%02d", minutes) }
            if secondsPart != 0 { offset += String(format: ":%02d", secondsPart) }
            let rule = abbreviation + offset
            let seconds = Int.random(in: -2_140_000_000...2_140_000_000, using: &random)
            let instant = try ExternalProgram.run("/usr/bin/env", ["date", "-u", "-d", "@\(seconds)", "+%Y-%m-%dT%H:%M:%SZ"]).output
                .trimmingCharacters(in: .newlines)
            let database = cli.folder.appendingPathComponent("posix-\(sample).sqlite").path
            let added = try cli.run(["--db", database, "-q", "history", "add", "Squat", "--at", instant],
                                    environment: ["TZ": rule], useDatabase: false)
            guard (hours * 3600 + minutes * 60 + secondsPart) <= 18 * 3600 else {
                XCTAssertEqual(added.status, 1, "seed \(seed): \(rule)")
                XCTAssertTrue(added.stderr.contains("$TZ '\(rule)' is an offset of more than 18 hours from UTC"), "seed \(seed): \(added.stderr)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: database), "seed \(seed): \(rule)")
                continue
            }
            XCTAssertEqual(added.status, 0, "seed \(seed): \(rule): \(added.stderr)")
            let expected = try ExternalProgram.run("/usr/bin/env", ["TZ=\(rule)", "date", "-d", "@\(seconds)", "+%F"]).output
                .trimmingCharacters(in: .newlines)
            let listed = try cli.run(["--db", database, "history", "list", "--format", "csv"], useDatabase: false)
            XCTAssertEqual(listed.lines.last?.split(separator: ",")[1], Substring(expected),
                           "seed \(seed): TZ=\(rule) at \(instant): logbook and date disagree")
            // The table names the offset whole: seconds past the minute too (Foundation's name
            // rounds it to the nearest minute, and is "GMT" within 30 seconds of UTC).
            let east = (offset.hasPrefix("-") ? 1 : -1) * (hours * 3600 + minutes * 60 + secondsPart)
            let size = abs(east), sign = east < 0 ? "-" : "+"
            let label = east == 0 ? "UTC" : size % 60 == 0 ? String(format: "GMT\(sign)%02d%02d", size / 3600, size / 60 % 60)
                : String(format: "GMT\(sign)%02d:%02d:%02d", size / 3600, size / 60 % 60, size % 60)
            let table = try cli.run(["--db", database, "history", "list"], environment: ["TZ": rule], useDatabase: false)
            XCTAssertTrue(table.stdout.contains("FIRST AT (\(label))"), "seed \(seed): TZ=\(rule): \(table.stdout)")
        }

        XCTAssertEqual(try cli.run(["init"]).status, 0)
        let before = cli.snapshot()
        for rule in ["EST5EDT,M3.2.0,M11.1.0", "CET-1CEST", "<+03>-3<+04>"] {
            XCTAssertFailure(try cli.run(["history", "add", "Squat"], environment: ["TZ": rule]), status: 1,
                             mentioning: "$TZ '\(rule)' is a POSIX rule with daylight saving time")
        }
        // A zone file of the rule's name in $TZDIR is what `date` reads instead (helper-71): refused.
        let tzdir = cli.folder.appendingPathComponent("tzdir", isDirectory: true)
        try FileManager.default.createDirectory(at: tzdir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/America/New_York", toPath: tzdir.appendingPathComponent("JST-9").path)
        XCTAssertFailure(try cli.run(["history", "add", "Squat"], environment: ["TZ": "JST-9", "TZDIR": tzdir.path]), status: 1,
                         mentioning: "$TZ 'JST-9' names a zone file in $TZDIR (\(tzdir.path))")
        XCTAssertEqual(try cli.run(["-q", "history", "list"], environment: ["TZ": "UTC0", "TZDIR": tzdir.path]).status, 0)
        // After a colon the C library reads a file's name only; in four digits, no POSIX offset.
        for (posix, etc) in [(":UTC+3", "'Etc/GMT+3'"), ("GMT+0530", nil)] {
            XCTAssertFailure(try cli.run(["history", "add", "Squat"], environment: ["TZ": posix]), status: 1,
                             mentioning: "$TZ '\(posix)' is an offset", etc ?? "use an IANA name")
        }
        XCTAssertEqual(cli.snapshot(), before)
        for zero in ["GMT", "UTC", "GMT+0", "UTC0"] {
            XCTAssertEqual(try cli.run(["-q", "history", "list"], environment: ["TZ": zero]).status, 0, zero)
        }
        // Etc/GMT+12 is 12 hours behind UTC: 20:00Z on 3 February is 08:00 that day.
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-02-03T20:00:00Z"], environment: ["TZ": "Etc/GMT+12"]).status, 0)
        XCTAssertEqual(try cli.run(["history", "list", "--format", "csv"]).lines.last?.split(separator: ",")[1], "2026-02-03")
    }

    /// A command that uses no calendar day (`init`, `migrate`, `check`, `repair`, `query`,
    /// `backup`, `changes`) runs under a `$TZ` Logbook cannot read, printing what it prints under
    /// any zone (it was refused, exit 1, found in the fortieth session); a command that files or
    /// shows days is still refused, and so is a `--time-zone` that names no zone.
    func testCommandsThatUseNoCalendarDayRunUnderATZLogbookCannotRead() throws {
        let cli = try CLIHarness()
        let unreadable = ["TZ": "EST5EDT,M3.2.0,M11.1.0"]
        XCTAssertEqual(try cli.run(["-q", "init"], environment: unreadable).status, 0)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-02-03T23:30:00Z"],
                                   environment: ["TZ": "Asia/Tokyo"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "1.0"]).status, 0)
        let commands = [["migrate"], ["migrate", "--status"], ["check"], ["repair", "--dry-run"],
                        ["query", "SELECT day, date FROM exercise_days"], ["changes"], ["changes", "--format", "postgres"]]
        for command in commands {
            let shown = try cli.run(command, environment: unreadable)
            XCTAssertEqual(shown.status, 0, "\(command): \(shown.stderr)")
            // A PostgreSQL script holds the time it was made, by the logbook's clock, as a quoted literal.
            let withoutReadTime = { (text: String) in text.replacing(/'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z'/, with: "'…'") }
            for zone in ["Pacific/Kiritimati", "Etc/GMT+12"] {
                let other = try cli.run(command, environment: ["TZ": zone])
                XCTAssertEqual(withoutReadTime(other.stdout), withoutReadTime(shown.stdout), "\(command) under \(zone)")
                XCTAssertEqual(other.stderr, shown.stderr, "\(command) under \(zone)")
            }
        }
        let copy = cli.folder.appendingPathComponent("copy.sqlite").path
        XCTAssertEqual(try cli.run(["backup", copy], environment: unreadable).status, 0)
        let before = cli.snapshot()
        for command in [["history", "add", "Squat"], ["history", "list"], ["report", "history"]] {
            XCTAssertFailure(try cli.run(command, environment: unreadable), status: 1, mentioning: "is a POSIX rule with daylight saving time")
        }
        XCTAssertFailure(try cli.run(["--time-zone", "Bogus", "query", "SELECT 1"], environment: unreadable), status: 2,
                         mentioning: "unknown time zone 'Bogus' for '--time-zone <tz>'")
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// Time-zone names are the zones of the tz database, which `date` reads for `$TZ` as Logbook
    /// does. Seeded: zones picked from the database folder, each given an instant at random, must
    /// file `history add` under the day `TZ=zone date` shows, in `$TZ` (as the name, as the path of
    /// the zone's file and as `:` and a link to it, the way `:/etc/localtime` names the system's
    /// zone, which was refused, and in the `posix/` folder, which was refused too) and in
    /// `--time-zone`; every
    /// abbreviation Foundation knows and the database has no zone for (`BST`, which Foundation
    /// reads as Asia/Dhaka) is refused in both.
    func testTimeZoneNamesAreTheZonesDateReadsAndFileTheSameDay() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_TIME_ZONE_NAME_SEED", default: 0x545A)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        let folder = "/usr/share/zoneinfo"
        let zones = (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix("right/") && !name.hasPrefix("posix/")
                && FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
                && TimeZone(identifier: name) != nil
        }.sorted()
        try XCTSkipIf(zones.isEmpty, "no tz database in \(folder)")
        for sample in 0..<PropertyTestSettings.scaled(12, by: "LOGBOOK_PROPERTY_SCALE") {
            let zone = random.pick(zones)
            // 1902 to 2037, where `date` and the database's transitions agree on every platform.
            let seconds = Int.random(in: -2_140_000_000...2_140_000_000, using: &random)
            let date = try ExternalProgram.run("/usr/bin/env", ["date", "-u", "-d", "@\(seconds)", "+%Y-%m-%dT%H:%M:%SZ"]).output
                .trimmingCharacters(in: .newlines)
            let expected = try ExternalProgram.run("/usr/bin/env", ["TZ=\(zone)", "date", "-d", "@\(seconds)", "+%F"]).output
                .trimmingCharacters(in: .newlines)
            // A path in $TZ, as `:/etc/localtime` is: the zone's file, or a link to it.
            let link = cli.folder.appendingPathComponent("localtime-\(sample)").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder + "/" + zone)
            var ways = [("$TZ", [String](), ["TZ": zone]), ("--time-zone", ["--time-zone", zone], [:]),
                        ("$TZ as a path", [], ["TZ": folder + "/" + zone]), ("$TZ as :link", [], ["TZ": ":" + link])]
            // `posix/` holds the same zones again, which `date` reads `TZ=posix/Asia/Tokyo` from.
            if FileManager.default.fileExists(atPath: folder + "/posix/" + zone) {
                ways += [("$TZ in posix/", [], ["TZ": "posix/" + zone]), ("--time-zone in posix/", ["--time-zone", "posix/" + zone], [:])]
            }
            for (number, (way, arguments, environment)) in ways.enumerated() {
                let database = cli.folder.appendingPathComponent("zone-\(sample)-\(number).sqlite").path
                let added = try cli.run(["--db", database, "-q"] + arguments + ["history", "add", "Squat", "--at", date],
                                        environment: environment, useDatabase: false)
                XCTAssertEqual(added.status, 0, "seed \(seed): \(way) \(zone): \(added.stderr)")
                let listed = try cli.run(["--db", database, "history", "list", "--format", "csv"], useDatabase: false)
                XCTAssertEqual(listed.lines.last?.split(separator: ",")[1], Substring(expected),
                               "seed \(seed): \(way) \(zone) at \(date): logbook and date disagree")
            }
        }
        let abbreviations = TimeZone.abbreviationDictionary.keys.filter {
            TimeZone(identifier: $0) != nil && !FileManager.default.fileExists(atPath: folder + "/" + $0)
        }.sorted()
        XCTAssertTrue(abbreviations.contains("BST"), "\(abbreviations)")
        let before = cli.snapshot()
        for abbreviation in abbreviations {
            XCTAssertFailure(try cli.run(["history", "add", "Squat"], environment: ["TZ": abbreviation]), status: 1,
                             mentioning: "unknown time zone '\(abbreviation)' in $TZ: no zone of that name in the tz database")
            XCTAssertFailure(try cli.run(["--time-zone", abbreviation, "history", "add", "Squat"]), status: 2,
                             mentioning: "unknown time zone '\(abbreviation)' for '--time-zone <tz>'")
        }
        // A path to a file outside the database (a copy of a zone's file), or to none, names no zone Foundation can read.
        let copy = cli.folder.appendingPathComponent("copied-zone").path
        try FileManager.default.copyItem(atPath: folder + "/Asia/Tokyo", toPath: copy)
        for path in [":" + copy, copy, ":/nonexistent/zone", ":" + folder] {
            XCTAssertFailure(try cli.run(["history", "add", "Squat"], environment: ["TZ": path]), status: 1,
                             mentioning: "$TZ '\(path)' names no zone file in the tz database (\(folder))")
        }
        XCTAssertEqual(cli.snapshot(), before)
        // $TZDIR that defines a zone otherwise than the database Logbook reads: refused, as `date` would read it apart.
        let europe = cli.folder.appendingPathComponent("zoneinfo/Europe", isDirectory: true)
        try FileManager.default.createDirectory(at: europe, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/Asia/Tokyo", toPath: europe.appendingPathComponent("Paris").path)
        let tzdir = europe.deletingLastPathComponent().path
        XCTAssertFailure(try cli.run(["history", "add", "Squat"], environment: ["TZ": "Europe/Paris", "TZDIR": tzdir]), status: 1,
                         mentioning: "is defined otherwise in $TZDIR")
        try FileManager.default.removeItem(at: europe.appendingPathComponent("Paris"))
        try FileManager.default.copyItem(atPath: folder + "/Europe/Paris", toPath: europe.appendingPathComponent("Paris").path)
        let sample = cli.folder.appendingPathComponent("zone-0-3.sqlite").path
        let listed = try cli.run(["--db", sample, "history", "list"], environment: ["TZ": "Europe/Paris", "TZDIR": tzdir], useDatabase: false)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(cli.snapshot(), before)
    }

    func testWhatsNewFromStdinKeepsTextExactly() throws {
        let cli = try CLIHarness()
        let text = "Cafe\u{301} ☀︎ line one\r\nline two\twith tab\n\n日本語 \"quoted\" \\ back\n"
        let id = try cli.run(["drafts", "add", "--version", "4.0", "--whats-new", "-"], stdin: text)
            .stdout.trimmingCharacters(in: .newlines)
        let json = try cli.run(["drafts", "show", id, "--format", "json"]).stdout
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual((object["whatsNew"] as? String).map { Array($0.utf8) }, Array(text.utf8))
        // For people, a CRLF ends a line as LF does (it was shown as one line with "\r\n" escaped; helper-66);
        // a backslash is doubled, so it passes for no escape.
        let shown = try cli.run(["drafts", "show", id]).stdout
        XCTAssertTrue(shown.contains("what's new:\n  Cafe\u{301} ☀︎ line one\n  line two\\twith tab\n  \n  日本語 \"quoted\" \\\\ back\n  \nchecklist:"),
                      shown)

        // A CR that no LF follows is no line break: shown escaped, not dropped (helper-67).
        try cli.run(["drafts", "edit", id, "--whats-new", "-"], stdin: "one\rtwo\r")
        XCTAssertTrue(try cli.run(["drafts", "show", id]).stdout.contains("what's new:\n  one\\rtwo\\r\nchecklist:"))
        try cli.run(["drafts", "edit", id, "--whats-new", "-", "--version", "4.0.1"], stdin: "short")
        let edited = try cli.run(["drafts", "show", "4.0.1"]).stdout
        XCTAssertTrue(edited.contains("what's new:\n  short\n"), edited)
    }

    /// `--whats-new -` keeps stdin byte for byte, at any size: seeded adversarial text (every
    /// plane, NFC and NFD, U+0000, line ends of every kind, marks) repeated past the reader's
    /// 64 KiB and 1 MiB chunks, compared byte for byte with the text the file then holds (read
    /// with SQLite: Foundation's `JSONSerialization` on Linux misreads some of these texts).
    func testWhatsNewFromStdinKeepsSeededTextExactlyAtAnySize() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_WHATS_NEW_SEED", default: 0x574E)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        for round in 0..<PropertyTestSettings.scaled(5, by: "LOGBOOK_PROPERTY_SCALE") {
            let size = [random.int(1...100), random.int(60_000...70_000), random.int(1_040_000...1_100_000)][round % 3]
            var text = ""
            while text.utf8.count < size { text += AdversarialText.string(using: &random, nonEmpty: true) }
            let version = "seeded-\(round)"
            let added = try cli.run(["drafts", "add", "--version", version, "--whats-new", "-"], stdin: text)
            XCTAssertEqual(added.status, 0, "seed \(seed): \(added.stderr)")
            let stored = try Connection(path: cli.database.path).scalar("SELECT whats_new FROM drafts WHERE version = ?",
                                                                          [.text(version)], as: String.self)
            XCTAssertEqual(stored.map { Array($0.utf8) }, Array(text.utf8), "seed \(seed): round \(round), \(text.utf8.count) bytes")
        }
    }

    /// `--whats-new -` typed at a terminal ends at the first Ctrl-D, as `cat` does: text typed
    /// after it is not read (it was taken, the input read on past the end to fill a buffer;
    /// helper-86). `script` gives the command a terminal and types the keys; the terminal keeps
    /// each Ctrl-D at the start of a line as an end of input however fast the keys come.
    func testWhatsNewTypedAtATerminalEndsAtTheFirstControlD() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("util-linux's script gives the command a terminal")
        }
        let cli = try CLIHarness()
        let command = [CLIHarness.executable.path, "--db", cli.database.path, "drafts", "add", "--version", "5.0", "--whats-new", "-"]
            .map { "'\($0)'" }.joined(separator: " ")
        let typing = Process()
        typing.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        typing.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        typing.environment = ["TZ": "UTC", "HOME": cli.folder.path, "PATH": "/usr/bin:/bin"]
        let keys = Pipe()
        typing.standardInput = keys
        typing.standardOutput = FileHandle.nullDevice
        typing.standardError = FileHandle.nullDevice
        try typing.run()
        keys.fileHandleForWriting.write(Data("first line\n\u{4}after the end\n\u{4}\u{4}".utf8))
        let deadline = Date(timeIntervalSinceNow: 30)
        while typing.isRunning, Date() < deadline { usleep(20_000) }
        if typing.isRunning { typing.terminate() }
        typing.waitUntilExit()
        try keys.fileHandleForWriting.close()
        XCTAssertEqual(typing.terminationStatus, 0)
        let shown = try cli.run(["drafts", "show", "5.0", "--format", "json"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: shown.output) as? [String: Any])
        XCTAssertEqual(object["whatsNew"] as? String, "first line\n")
    }

    /// `drafts edit` of a draft that is not there names it before it reads What's New from stdin:
    /// it waited for the writer of stdin to finish first (the forty-second session's list). The
    /// pipe here is never closed.
    func testAnEditOfAMissingDraftIsRefusedBeforeStdinIsRead() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["drafts", "add", "--version", "1.0"]).status, 0)
        let before = cli.snapshot()
        let editing = Process()
        editing.executableURL = CLIHarness.executable
        editing.arguments = ["--db", cli.database.path, "drafts", "edit", "NOPE", "--whats-new", "-"]
        editing.environment = ["TZ": "UTC", "HOME": cli.folder.path]
        let input = Pipe(), errors = Pipe()
        editing.standardInput = input
        editing.standardError = errors
        try editing.run()
        input.fileHandleForWriting.write(Data("text that never ends".utf8))
        let deadline = Date(timeIntervalSinceNow: 30)
        while editing.isRunning, Date() < deadline { usleep(20_000) }
        XCTAssertFalse(editing.isRunning, "drafts edit of a missing draft waited for stdin to end")
        if editing.isRunning { editing.terminate() }
        editing.waitUntilExit()
        try input.fileHandleForWriting.close()
        XCTAssertEqual(editing.terminationStatus, 1)
        XCTAssertTrue(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("NOPE"))
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// An edit that sets the text a draft already has writes nothing and says so (it said
    /// "updated draft"; the forty-first session's list). A text that differs only in its
    /// normalization (NFC against NFD) is a change: the bytes are kept as given.
    func testAnEditThatChangesNothingSaysSoAndWritesNothing() throws {
        let cli = try CLIHarness()
        let id = try cli.run(["drafts", "add", "--version", "5.0", "--whats-new", "Caf\u{E9}"]).stdout
            .trimmingCharacters(in: .newlines)
        let before = try Data(contentsOf: cli.database)
        let same = try cli.run(["drafts", "edit", id, "--version", "5.0", "--whats-new", "Caf\u{E9}"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(same.stderr, "logbook: draft \(id) unchanged: it already has that text\n")
        XCTAssertEqual(try Data(contentsOf: cli.database), before)

        let twin = try cli.run(["drafts", "edit", id, "--whats-new", "Cafe\u{301}"])
        XCTAssertEqual(twin.stderr, "logbook: updated draft \(id)\n")
        XCTAssertNotEqual(try Data(contentsOf: cli.database), before)
    }

    func testVersionsMatchAsSwiftComparesStrings() throws {
        let cli = try CLIHarness()
        let id = try cli.run(["drafts", "add", "--version", "Caf\u{E9}"]).stdout.trimmingCharacters(in: .newlines)
        let shown = try cli.run(["drafts", "show", "Cafe\u{301}", "--format", "json"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains(id))
    }

    func testHistoryAddFollowsTheSameDayRuleInTheGivenTimeZone() throws {
        let cli = try CLIHarness()
        let newYork = ["--time-zone", "America/New_York"]
        // 23:47 in New York on the 31st is 04:47Z on February 1st: still January 31st's record.
        try cli.run(newYork + ["history", "add", "Squat", "--at", "2026-01-31T23:47:00-05:00"])
        try cli.run(newYork + ["history", "add", "Burpee", "Squat", "--at", "2026-02-01T04:50:00Z"])
        try cli.run(newYork + ["history", "add", "Step Up", "--at", "2026-02-01T05:00:00Z"])
        let connection = try Connection(path: cli.database.path)
        let rows = try connection.prepare("""
            SELECT d.day, (SELECT group_concat(name, ',') FROM
                           (SELECT name FROM exercises WHERE day_pk = d.pk ORDER BY position))
            FROM exercise_days d ORDER BY d.day
            """)
        var days: [String] = []
        while try rows.step() { days.append("\(try rows.column(0, as: String.self)): \(try rows.column(1, as: String.self))") }
        XCTAssertEqual(days, ["2026-01-31: Squat,Burpee,Squat", "2026-02-01: Step Up"])

        XCTAssertEqual(try cli.run(["history", "delete", "--day", "2026-01-31"]).status, 0)
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM exercises", as: Int.self), 1)
    }

    func testDatesAsPeopleSayThemAndLocalTimesInTables() throws {
        let cli = try CLIHarness()
        let paris = ["--time-zone", "Europe/Paris"]
        // A wall-clock time without a zone is read in --time-zone; tables show it the same way.
        try cli.run(paris + ["history", "add", "Squat", "--at", "2024-11-19 07:30"])
        try cli.run(paris + ["history", "add", "Row", "--at", "2024-11-02T06:00:00Z"])
        try cli.run(paris + ["history", "add", "Plank", "--at", "2023-12-31 23:59"])
        try cli.run(paris + ["history", "add", "Lunge", "--at", "today"])
        let table = try cli.run(paris + ["history", "list", "--on", "2024-W47"])
        XCTAssertEqual(table.lines, ["DAY         FIRST AT (Europe/Paris)  COUNT  EXERCISES",
                                     "2024-11-19  2024-11-19 07:30:00      1      Squat"], table.stderr)
        let json = try cli.run(paris + ["history", "list", "--on", "2024-11-19", "--format", "ndjson"])
        XCTAssertTrue(json.stdout.contains(#""date":"2024-11-19T06:30:00.000000Z""#), "data formats stay UTC: \(json.stdout)")
        let days = { (arguments: [String]) in try cli.run(paris + ["history", "list", "--format", "csv"] + arguments).lines
            .dropFirst().map { String($0.split(separator: ",")[1]) } }
        XCTAssertEqual(try days(["--on", "2024-11"]), ["2024-11-02", "2024-11-19"])
        XCTAssertEqual(try days(["--from", "2024", "--to", "2024-11"]), ["2024-11-02", "2024-11-19"])
        XCTAssertEqual(try days(["--on", "2023"]), ["2023-12-31"])
        XCTAssertEqual(try days(["--on", "today"]).count, 1)
        XCTAssertEqual(try days(["--since", "1d"]).count, 1, "today only")
        XCTAssertEqual(try days(["--where", "day == 2024-11 || day < 2024"]), ["2023-12-31", "2024-11-02", "2024-11-19"])
        XCTAssertEqual(try cli.run(paris + ["count", "history", "--where", "day >= yesterday"]).stdout, "1\n")
        XCTAssertFailure(try cli.run(paris + ["history", "list", "--on", "2026-11", "--from", "2026-11-03"]), status: 2,
                         mentioning: "--on gives both ends")
        XCTAssertFailure(try cli.run(paris + ["history", "list", "--since", "fortnight"]), status: 2,
                         mentioning: "invalid date 'fortnight' for '--since <when>'", "2026-W47")
        // A date of a known form says what is wrong with it, as typed, once (it said "invalid date
        // '108000m' for '--from <when>': invalid date '108000m': …" for 9000y; helper-55).
        for (typed, reason) in [("9000y", "outside years 0001 to 9999"), ("0000-01-01", "outside years 0001 to 9999"),
                                ("10000-01-01", "outside years 0001 to 9999"), ("2026-02-29", "2026-02-29 is no day of the calendar")] {
            let result = try cli.run(paris + ["history", "list", "--from", typed])
            XCTAssertFailure(result, status: 2, mentioning: "invalid date '\(typed)' for '--from <when>': \(reason) (see")
        }
        let badMonth = try cli.run(paris + ["history", "list", "--where", "day >= 2026-13"])
        XCTAssertEqual(badMonth.status, 2)
        XCTAssertTrue(badMonth.stderr.contains("invalid --where: invalid date '2026-13'"), badMonth.stderr)
        // A draft's dates, for people, on the wall clock of the zone with its offset.
        let id = try cli.run(["drafts", "add", "--version", "1.0"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try cli.run(paris + ["drafts", "submit", id, "--at", "2026-07-14 12:00"])
        XCTAssertTrue(try cli.run(paris + ["drafts", "show", id]).stdout.contains("submitted:  2026-07-14 12:00:00 +02:00"))
        XCTAssertTrue(try cli.run(paris + ["drafts", "list"]).lines.first?.contains("SUBMITTED (Europe/Paris)") == true)
    }

    /// `--exercise` finds a name as typed, else trimmed as `history add` trims the names it stores
    /// (" Burpee " found nothing; helper-53), so a name an import kept with spaces around it is
    /// found too (helper-57); an empty one is refused.
    func testExerciseFindsANameAsTypedElseTrimmed() throws {
        let cli = try CLIHarness()
        let spaced = cli.folder.appendingPathComponent("spaced.json")
        try Data(#"[{"day":"2026-03-20","exercises":[" Plank "]},{"day":"2026-03-21","exercises":["Plank"]},{"day":"2026-03-22","exercises":["Row"]}]"#.utf8)
            .write(to: spaced)
        XCTAssertEqual(try cli.run(["import", spaced.path]).status, 0)
        let days = { (name: String) in try cli.run(["history", "list", "--exercise", name, "--format", "csv"]).lines.dropFirst().map { String($0.split(separator: ",")[1]) } }
        XCTAssertEqual(try days(" Plank "), ["2026-03-20"], "the name as the import kept it")
        XCTAssertEqual(try days("Plank"), ["2026-03-21"])
        XCTAssertEqual(try days(" row\t"), ["2026-03-22"], "trimmed when no name is so typed")
        XCTAssertFailure(try cli.run(["export", "history", "--exercise", ""]), status: 2,
                         mentioning: "invalid --exercise", "an exercise name cannot be empty")
    }

    func testFixingMistakesOneCommandEach() throws {
        let cli = try CLIHarness()
        try cli.run(["history", "add", "Burpee", "Squat", "Burpee", "--at", "2026-03-14 08:00"])
        let typo = try cli.run(["history", "add", "Bupree", " Squat", "squat", "--at", "2026-03-15 08:00"])
        XCTAssertEqual(typo.status, 0)
        XCTAssertTrue(typo.stderr.contains("logbook: 'Bupree' is new; did you mean 'Burpee'?"), typo.stderr)
        XCTAssertTrue(typo.stderr.contains("logbook: 'squat' is new; did you mean 'Squat'?"), typo.stderr)
        XCTAssertFalse(typo.stderr.contains("' Squat'"), "names are trimmed: \(typo.stderr)")
        let csv = { (arguments: [String]) in try cli.run(["history", "list", "--format", "csv"] + arguments).lines.dropFirst()
            .map { $0.dropLast().split(separator: ",").suffix(2).joined(separator: " ") } }  // CSV lines end in CRLF
        XCTAssertEqual(try csv(["--on", "2026-03-15"]), ["1 Bupree", "2 Squat", "3 squat"])
        XCTAssertEqual(try csv(["--exercise", "burpee"]).count, 3, "--exercise matches up to case and diacritics")
        XCTAssertEqual(try csv(["--exercise", " burpee\t"]).count, 3, "--exercise is trimmed as stored names are")

        let before = try Data(contentsOf: cli.database)
        let dry = try cli.run(["history", "remove", "--day", "2026-03-15", "Bupree", "--dry-run"])
        XCTAssertTrue(dry.stderr.contains("dry run, nothing written: would have removed 1 exercise ('Bupree') on 2026-03-15"), dry.stderr)
        XCTAssertEqual(try Data(contentsOf: cli.database), before)
        // Every edit's dry run writes nothing at all: the file and its write-ahead log, byte for byte
        // (not only the records: no tally marked stale, no change logged).
        let snapshot = cli.snapshot()
        for dryRun in [["history", "rename", "Burpee", "Row"], ["history", "move", "--day", "2026-03-15", "--to", "2026-03-16"],
                       ["history", "move", "--day", "2026-03-15", "--to", "2026-03-14"], ["history", "remove", "--day", "2026-03-14", "1"]] {
            let result = try cli.run(dryRun + ["--dry-run"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains("dry run, nothing written"), result.stderr)
            // A record the edit would empty is said to be one that would be deleted, not one that was.
            if result.stderr.contains("record of") { XCTAssertTrue(result.stderr.hasSuffix(" would be deleted\n"), result.stderr) }
            XCTAssertEqual(cli.snapshot(), snapshot, dryRun.joined(separator: " "))
        }
        XCTAssertFailure(try cli.run(["history", "remove", "--day", "2026-03-15", "4"]), status: 1,
                         mentioning: "no exercise at position 4 on 2026-03-15: it has 3")
        let removed = try cli.run(["history", "remove", "--day", "2026-03-15", "1", "3"])
        XCTAssertTrue(removed.stderr.contains("removed 2 exercises ('Bupree', 'squat') on 2026-03-15"), removed.stderr)
        XCTAssertEqual(try csv(["--on", "2026-03-15"]), ["1 Squat"])
        // A name that is a number is a position unless --names says it is a name.
        for name in ["2", "Row", "1"] { XCTAssertEqual(try cli.run(["-q", "history", "add", name, "--at", "2026-03-20 09:00"]).status, 0) }
        let byName = try cli.run(["history", "remove", "--day", "2026-03-20", "--names", "1"])
        XCTAssertTrue(byName.stderr.contains("removed 1 exercise ('1') on 2026-03-20"), byName.stderr)
        let byPosition = try cli.run(["history", "remove", "--day", "2026-03-20", "1"])
        XCTAssertTrue(byPosition.stderr.contains("removed 1 exercise ('2') on 2026-03-20"), byPosition.stderr)
        XCTAssertEqual(try csv(["--on", "2026-03-20"]), ["1 Row"])
        // Only digits make a position: '+1' and '-1', which Swift's Int reads as numbers, are names.
        for name in ["+1", "-1", "Row"] { XCTAssertEqual(try cli.run(["-q", "history", "add", name, "--at", "2026-03-21 09:00"]).status, 0) }
        // Digits past Int are a position too, which no list reaches, not a name: refused, nothing written.
        let huge = "99999999999999999999"
        XCTAssertEqual(try cli.run(["-q", "history", "add", huge, "--at", "2026-03-21 09:00"]).status, 0)
        let beforeHuge = cli.snapshot()
        // Exit 1, as for Int.max, which is past the list too (it was 2, a usage error).
        XCTAssertFailure(try cli.run(["history", "remove", "--day", "2026-03-21", huge]), status: 1,
                         mentioning: "no day's list reaches position \(huge)", "--names")
        XCTAssertFailure(try cli.run(["history", "remove", "--day", "2026-03-21", String(Int.max)]), status: 1,
                         mentioning: "no exercise at position \(Int.max) on 2026-03-21")
        XCTAssertEqual(cli.snapshot(), beforeHuge)
        XCTAssertEqual(try cli.run(["-q", "history", "remove", "--day", "2026-03-21", "--names", huge]).status, 0)
        let signed = try cli.run(["history", "remove", "--day", "2026-03-21", "+1", "-1"])
        XCTAssertTrue(signed.stderr.contains("removed 2 exercises ('+1', '-1') on 2026-03-21"), signed.stderr)
        XCTAssertEqual(try csv(["--on", "2026-03-21"]), ["1 Row"])
        XCTAssertEqual(try cli.run(["-q", "history", "delete", "--day", "2026-03-21"]).status, 0)
        let deleted = try cli.run(["history", "delete", "--day", "2026-03-20"])
        XCTAssertEqual(deleted.status, 0)
        XCTAssertEqual(deleted.stderr, "logbook: deleted 2026-03-20 (1 exercise)\n", "one exercise, not '1 exercises' (helper-33)")
        let renamed = try cli.run(["history", "rename", "Burpee", "Burpée"])
        XCTAssertTrue(renamed.stderr.contains("renamed 'Burpee' to 'Burpée': 2 exercises on 2026-03-14"), renamed.stderr)
        XCTAssertFailure(try cli.run(["history", "rename", "Plank", "Row"]), status: 1, mentioning: "no exercise named 'Plank'")
        // Renaming a name to its own spelling, or moving a record onto its own day, changes nothing
        // and writes nothing: no tally marked stale, no change in the feed.
        let unchanged = cli.snapshot()
        for noChange in [["history", "rename", "Burpe\u{301}e", "Burpée"], ["history", "move", "--day", "2026-03-14", "--to", "2026-03-14"]] {
            let result = try cli.run(noChange)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stderr.contains(noChange[1] == "rename" ? "nothing to rename: 'Burpe\u{301}e' is already spelled 'Burpée'"
                                                 : "nothing to move: the record is already on 2026-03-14"), result.stderr)
            XCTAssertEqual(cli.snapshot(), unchanged, noChange.joined(separator: " "))
        }
        let oneOfTwoSpellings = try cli.run(["history", "rename", "Squat", "squat", "--on", "2026-03-15"])
        XCTAssertTrue(oneOfTwoSpellings.stderr.contains("renamed 'Squat' to 'squat': 1 exercise on 2026-03-15"), oneOfTwoSpellings.stderr)
        XCTAssertTrue(try cli.run(["history", "rename", "squat", "Squat"]).stderr.contains("renamed 'squat' to 'Squat': 1 exercise on 2026-03-15"))
        let moved = try cli.run(["history", "move", "--day", "2026-03-15", "--to", "2026-03-14"])
        XCTAssertTrue(moved.stderr.contains("moved 2026-03-15 to 2026-03-14: 1 exercise; record of 2026-03-15 deleted"),
                      moved.stderr)
        XCTAssertEqual(try csv([]), ["1 Burpée", "2 Squat", "3 Burpée", "4 Squat"])
        let report = try cli.run(["report", "exercises", "--format", "csv"])
        XCTAssertEqual(report.stdout, "exercise,count,days,firstDay,lastDay\r\nBurpée,2,1,2026-03-14,2026-03-14\r\n"
                                      + "Squat,2,1,2026-03-14,2026-03-14\r\n")
        XCTAssertEqual(try cli.run(["check"]).status, 0)
    }

    /// A day a zone skipped whole has no instant, so `--at DAY` on it is refused, as imports and
    /// moves refuse it, writing nothing (`history add --at 2011-12-30` in Pacific/Apia filed the
    /// record on 2011-12-31 by the start of the day after the gap; helper-13). A time of day on it
    /// moves on by the gap's length, as every time a transition skipped does (the Dates rules).
    func testAtADayTheZoneSkippedWholeIsRefused() throws {
        for (zone, skipped) in daysZonesSkipped {
            let cli = try CLIHarness()
            let context = "\(zone) \(skipped)"
            XCTAssertFailure(try cli.run(["--time-zone", zone, "history", "add", "Squat", "--at", skipped]), status: 2,
                             mentioning: "invalid date '\(skipped)' for '--at <when>': time zone \(zone) skipped that day")
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path), "\(context): a refused add made the database")
            let dayBefore = CalendarDay(skipped)!.adding(days: -1)!, dayAfter = CalendarDay(skipped)!.adding(days: 1)!
            XCTAssertEqual(try cli.run(["-q", "--time-zone", zone, "history", "add", "Row", "--at", dayBefore.description]).status, 0, context)
            XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "1.0"]).status, 0, context)
            XCTAssertFailure(try cli.run(["--time-zone", zone, "drafts", "submit", "1.0", "--at", skipped]), status: 2,
                             mentioning: "skipped that day")
            let later = try cli.run(["--time-zone", zone, "history", "add", "Swim", "--at", "\(skipped) 10:00"])
            XCTAssertEqual(later.status, 0, "\(context): \(later.stderr)")
            XCTAssertTrue(later.stderr.hasPrefix("logbook: \(dayAfter): 1 exercise"), "\(context): \(later.stderr)")
            let days = try cli.run(["query", "SELECT day FROM exercise_days ORDER BY day", "--format", "csv"]).lines.dropFirst()
                .map { $0.replacingOccurrences(of: "\r", with: "") }
            XCTAssertEqual(days, [dayBefore.description, dayAfter.description], context)
            XCTAssertEqual(try cli.run(["count", "drafts", "--where", "isSubmitted == true"]).stdout, "0\n", context)
        }
    }

    /// An instant whose day, in the time zone, is outside years 0001 to 9999 names no day: every
    /// day option refuses it as a usage error naming the option, the file as it was (the day
    /// options took the calendar's last or first day, so `history delete --day
    /// 9999-12-31T20:00:00Z` in Asia/Tokyo deleted 9999-12-31; `history add --at` said so with
    /// exit 1 and no option: helper-64).
    func testAnInstantWhoseDayIsOutsideTheCalendarNamesNoDay() throws {
        let cli = try CLIHarness()
        for (zone, day, instant, year) in [("Asia/Tokyo", "9999-12-31", "9999-12-31T20:00:00Z", "10000-01-01"),
                                           ("America/New_York", "0001-01-01", "0001-01-01T02:00:00Z", "0000-12-31")] {
            XCTAssertEqual(try cli.run(["-q", "--time-zone", zone, "history", "add", "Edge", "--at", "\(day) 10:00"]).status, 0)
            let before = cli.snapshot()
            let reason = "it falls on \(year) in time zone \(zone), outside years 0001 to 9999"
            for (command, usage) in [(["history", "delete", "--day", instant], "--day <day>"),
                                     (["history", "remove", "--day", instant, "1"], "--day <day>"),
                                     (["history", "move", "--day", day, "--to", instant], "--to <day>"),
                                     (["history", "list", "--on", instant], "--on <when>"),
                                     (["history", "list", "--from", instant], "--from <when>"),
                                     (["export", "history", "--to", instant], "--to <when>"),
                                     (["report", "streaks", "--as-of", instant], "--as-of <day>"),
                                     (["history", "add", "Late", "--at", instant], "--at <when>")] {
                XCTAssertFailure(try cli.run(["--time-zone", zone] + command), status: 2,
                                 mentioning: "invalid date '\(instant)' for '\(usage)': \(reason)")
            }
            XCTAssertEqual(cli.snapshot(), before, zone)
        }
        XCTAssertEqual(try cli.run(["count", "history"]).stdout, "2\n")
    }

    /// Table columns line up as terminals draw them: a Hangul or CJK character or an emoji takes
    /// two columns, a combining mark none (they were counted one each; helper-3); a carriage return
    /// ends a cell's first line as a line feed does (`cr\rx` showed as `crx`, a name it is not);
    /// invisible and direction marks are shown escaped. UTC is named UTC, not GMT.
    func testTableCellsLineUpAsTerminalsDrawThem() throws {
        let cli = try CLIHarness()
        let versions = ["한국어", "1.0", "e\u{301}e\u{301}", "👨\u{200D}👩\u{200D}👧", "ｗｉｄｅ", "a\u{200B}b", "x\u{200F}",
                        "a\u{AD}b", "1\u{FE0F}\u{20E3}", "\u{1F1E6}", "\u{1F1FA}\u{1F1F8}", "\u{1100}\u{1161}\u{11A8}",
                        "योगा", "प्राणायाम", "ท่ากำลัง", "x\u{3099}", "y\u{180E}",
                        // Drawn as nothing, so shown escaped: Hangul fillers, a language tag, a musical beam, a grapheme joiner.
                        "a\u{3164}b", "\u{115F}c", "Squat\u{E0001}", "d\u{1D173}", "e\u{34F}f",
                        // Tag characters outside a flag (they were drawn, as nothing: `xy`; helper-98).
                        "x\u{E0041}y", "z\u{E007F}",
                        // Drawn: a subdivision's flag (tag characters), an emoji's style (U+FE0F).
                        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "\u{2764}\u{FE0F}"]
        for version in versions { XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", version]).status, 0) }
        let table = try cli.run(["drafts", "list", "--time-zone", "UTC"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(table[0].contains("SUBMITTED (UTC)"), table[0])
        // The column after VERSION starts where the header's does: columns drawn before it, counted here by hand.
        let widths = ["한국어": 6, "1.0": 3, "e\u{301}e\u{301}": 2, "👨\u{200D}👩\u{200D}👧": 2, "ｗｉｄｅ": 8,
                      "a\\u{200B}b": 10, "x\\u{200F}": 9,
                      // As wcwidth has them: a soft hyphen one, a keycap one, a lone regional indicator one, a flag two, a Hangul syllable of jamo two.
                      "a\u{AD}b": 3, "1\u{FE0F}\u{20E3}": 1, "\u{1F1E6}": 1, "\u{1F1FA}\u{1F1F8}": 2, "\u{1100}\u{1161}\u{11A8}": 2,
                      // Spacing vowel signs take a column of their own, as glibc's wcswidth counts them (helper-6).
                      "योगा": 4, "प्राणायाम": 8, "ท่ากำลัง": 6, "x\u{3099}": 1, "y\\u{180E}": 9,
                      "a\\u{3164}b": 10, "\\u{115F}c": 9, "Squat\\u{E0001}": 14, "d\\u{1D173}": 10, "e\\u{34F}f": 9,
                      "x\\u{E0041}y": 11, "z\\u{E007F}": 10,
                      "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}": 2, "\u{2764}\u{FE0F}": 2]
        let widest = widths.values.max()!  // wider than the header's VERSION
        for line in table.dropFirst() {
            let cells = line.dropFirst(10)  // the id's 8 characters and two spaces
            guard let version = widths.keys.first(where: { cells.hasPrefix($0 + " ") }) else { return XCTFail("\(line) in \(table)") }
            let spaces = cells.dropFirst(version.count).prefix { $0 == " " }.count
            XCTAssertEqual(spaces, widest - widths[version]! + 2, "\(version): \(line)")
        }

        XCTAssertEqual(try cli.run(["-q", "history", "add", "cr\rx", "--at", "2026-01-01T10:00:00Z"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "lf\nx", "crlf\r\nx", "--at", "2026-01-02T10:00:00Z"]).status, 0)
        let days = try cli.run(["history", "list"]).stdout
        XCTAssertTrue(days.contains("  cr …\n"), days)
        XCTAssertTrue(days.contains("  lf …\n"), days)
    }

    func testTimeZoneFromEnvironment() throws {
        let cli = try CLIHarness()
        try cli.run(["history", "add", "Squat", "--at", "2026-03-01T02:00:00Z"], environment: ["TZ": "America/Los_Angeles"])
        let day = try Connection(path: cli.database.path).scalar("SELECT day FROM exercise_days", as: String.self)
        XCTAssertEqual(day, "2026-02-28")
    }

    /// `TZ` set but empty (or `:` alone) is UTC, as the C library and `date` read it; Logbook took
    /// the system's zone (helper-3: Asia/Tokyo's day beside `date`'s UTC one). Run with a system
    /// zone of Asia/Tokyo in a mount namespace of its own (root and `unshare` needed, else skipped),
    /// where an unset `TZ` gives Tokyo's day, as a control.
    func testAnEmptyTZIsUTCAsForDate() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            throw XCTSkip("a system zone of its own needs root and unshare (a mount namespace)")
        }
        let cli = try CLIHarness()
        let etc = cli.folder.appendingPathComponent("etc")
        try ExternalProgram.output(of: "/bin/cp", ["-a", "/etc", etc.path])
        try? FileManager.default.removeItem(at: etc.appendingPathComponent("localtime"))
        try FileManager.default.createSymbolicLink(atPath: etc.appendingPathComponent("localtime").path,
                                                   withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
        let script = "mount --make-rprivate / && mount --bind \"$0\" /etc && exec \"$@\""
        let probe = try ExternalProgram.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, etc.path, "/bin/true"])
        guard probe.status == 0 else { throw XCTSkip("no mount namespace here: \(probe.errors)") }
        func day(tz: String?) throws -> String {
            let database = cli.folder.appendingPathComponent("tz-\(UUID().uuidString).sqlite").path
            var environment = ["PATH": "/usr/bin:/bin", "HOME": cli.folder.path]
            environment["TZ"] = tz
            let result = try ExternalProgram.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, etc.path, CLIHarness.executable.path,
                                                                     "--db", database, "-q", "history", "add", "Squat",
                                                                     "--at", "2026-06-30T20:00:00Z"], environment: environment)
            XCTAssertEqual(result.status, 0, result.errors)
            return try Connection(path: database).scalar("SELECT day FROM exercise_days", as: String.self) ?? ""
        }
        XCTAssertEqual(try day(tz: nil), "2026-07-01", "the system's zone, Asia/Tokyo")
        XCTAssertEqual(try day(tz: ""), "2026-06-30", "TZ=\"\" is UTC")
        XCTAssertEqual(try day(tz: ":"), "2026-06-30", "TZ=\":\" is UTC")
    }
}
