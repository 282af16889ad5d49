import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// The exactness promises, each as the built binary keeps it: text byte for byte through every
/// format and command, dates to the `Double`, proleptic Gregorian days, and refusals that name
/// what was wrong. Each case failed before the fix that it names (issue 14).
final class ExactDataCLITests: XCTestCase {
    private func write(_ text: String, to name: String, in cli: CLIHarness) throws -> String {
        let url = cli.folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func day(_ id: Int, _ date: String, _ names: [String]) -> String {
        let list = names.map { name -> String in
            var quoted = ""
            JSONText.appendQuoted(name, to: &quoted)
            return quoted
        }.joined(separator: ",")
        return #"{"id":"00000000-0000-0000-0000-\#(String(format: "%012d", id))","date":"\#(date)","exercises":[\#(list)]}"#
    }

    /// `history list` shows each day's first instant to the second a clock in the time zone
    /// showed, never rounded up: a date a moment before midnight was shown as the next day's
    /// 00:00:00 beside its own day (helper-13). Seeded (`LOGBOOK_LOCAL_TIME_SEED`): dates from
    /// 1765 to 2323 a whole second, half a second, a microsecond or a tenth of one before the
    /// next second, in zones with offsets of minutes and seconds, against Foundation's formatter
    /// on the same instant cut to its second.
    func testTheTableShowsTheSecondTheClockShowedNeverRoundedUp() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_LOCAL_TIME_SEED", default: 0x10CA1))
        for zoneName in ["UTC", "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham"] {
            let zone = try XCTUnwrap(TimeZone(identifier: zoneName))
            let cli = try CLIHarness()
            let formatter = DateFormatter()
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            var lines: [String] = [], expected: Set<String> = []
            var dayNumbers = Set<Int>()
            while dayNumbers.count < 120 { dayNumbers.insert(random.int(-25_000...43_000) * 3) }
            for (index, dayNumber) in dayNumbers.sorted().enumerated() {
                let whole = dayNumber * 86_400 + random.int(0...86_399)
                let fraction = random.pick(["", "5", "999999", "9999999"])
                let text = Date(timeIntervalSince1970: Double(whole)).formatted(.iso8601).dropLast() + (fraction.isEmpty ? "" : "." + fraction) + "Z"
                let sinceReference = Decimal(whole - ProlepticGregorian.referenceDateUnixTime) + (Decimal(string: "0." + fraction) ?? 0)
                let stored = try XCTUnwrap(Double("\(sinceReference)"))
                expected.insert(formatter.string(from: Date(timeIntervalSinceReferenceDate: stored.rounded(.down))))
                lines.append(#"{"id":"00000000-0000-4000-8000-\#(String(format: "%012d", index))","date":"\#(text)","exercises":["Row"]}"#)
            }
            let file = try write(lines.joined(separator: "\n"), to: "dates.ndjson", in: cli)
            XCTAssertEqual(try cli.run(["--time-zone", zoneName, "import", file]).status, 0)
            let listed = try cli.run(["--time-zone", zoneName, "history", "list", "--limit", "1000"])
            let rows = listed.stdout.split(separator: "\n").dropFirst().map { String($0) }
            var shown: Set<String> = []
            for row in rows {
                let firstAt = String(row.dropFirst(12).prefix(19))
                XCTAssertEqual(row.prefix(10), firstAt.prefix(10), "\(zoneName): a day beside another day's time: \(row)")
                shown.insert(firstAt)
            }
            XCTAssertEqual(shown, expected, "\(zoneName): \(shown.symmetricDifference(expected).sorted().prefix(6))")
        }
    }

    /// `drafts show` prints an instant on the zone's clock with the zone's offset, together naming
    /// that instant to the second, over the whole range: where the clock was before year 1 or
    /// after year 9999 (New York's first hours of 0001, Tokyo's last of 9999) it printed the UTC
    /// clock under the zone's offset, and a local mean time's offset without its seconds
    /// (`-04:56` for `-04:56:02`), each naming another instant (helper-28). Seeded
    /// (`LOGBOOK_CLOCK_SEED`): instants over the whole range and next to both ends, in zones
    /// east and west with offsets of seconds in their early years; each shown time and offset is
    /// read back with a calendar of the test's own.
    func testDraftsShowNamesTheInstantOnTheZonesClockOverTheWholeRange() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_CLOCK_SEED", default: 0xC10C)
        var random = SplitMix64(seed: seed)
        let first = Int(Date.supportedRange.lowerBound.timeIntervalSinceReferenceDate)
        let last = Int(Date.supportedRange.upperBound.timeIntervalSinceReferenceDate.rounded(.down))
        /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil).
        func dayNumber(_ year: Int, _ month: Int, _ day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
        }
        /// The UTC text of whole seconds since 2001 (a year 0001 to 9999), for the import: a
        /// calendar that got it wrong would store another instant than `seconds`, which the
        /// shown time, read back with the test's own calendar, would then name.
        func utcText(_ seconds: Int) -> String {
            let unix = seconds + ProlepticGregorian.referenceDateUnixTime
            let days = Int((Double(unix) / 86_400).rounded(.down)), second = unix - days * 86_400
            let (year, month, day) = ProlepticGregorian.date(ofDayNumber: days)
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, second / 3_600, second / 60 % 60, second % 60)
        }
        let zones = ["America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Niue", "Asia/Kolkata", "Africa/Monrovia", "Europe/Amsterdam", "UTC"]
        let cli = try CLIHarness()
        var instants = [first, first + 3_600, last, last - 7_200]
        while instants.count < 24 { instants.append(random.int(first...last)) }
        let lines = instants.enumerated().map { index, seconds in
            #"{"version":"v\#(index)","whatsNew":"","checklist":[],"submittedAt":"\#(utcText(seconds))"}"#
        }
        XCTAssertEqual(try cli.run(["import", try write(lines.joined(separator: "\n"), to: "drafts.ndjson", in: cli)]).status, 0)
        let shown = try NSRegularExpression(pattern: #"submitted:  (\d{4,5})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) ([+-])(\d\d):(\d\d)(?::(\d\d))?\n"#)
        for (index, seconds) in instants.enumerated() {
            let zone = random.pick(zones)
            let output = try cli.run(["--time-zone", zone, "drafts", "show", "v\(index)"]).stdout
            let context = "seed \(seed): \(utcText(seconds)) in \(zone)"
            guard let match = shown.firstMatch(in: output, range: NSRange(output.startIndex..., in: output)) else {
                XCTFail("\(context): no submitted line in \(output)")
                continue
            }
            let field = { (group: Int) -> Int in
                Range(match.range(at: group), in: output).flatMap { Int(output[$0]) } ?? 0
            }
            let sign = Range(match.range(at: 7), in: output).map { output[$0] == "-" ? -1 : 1 } ?? 1
            let offset = sign * (field(8) * 3_600 + field(9) * 60 + field(10))
            let wall = dayNumber(field(1), field(2), field(3)) * 86_400 + field(4) * 3_600 + field(5) * 60 + field(6)
            XCTAssertEqual(wall - offset - 978_307_200, seconds, "\(context): shown \(output[Range(match.range, in: output)!])")
            XCTAssertEqual(offset, TimeZone(identifier: zone)!.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: Double(seconds))), context)
        }
    }

    // 1. Property lists keep NFC and NFD spellings apart.
    func testPropertyListExportsKeepEveryStringsBytes() throws {
        let cli = try CLIHarness()
        let nfc = "\u{00C9}lan", nfd = "E\u{0301}lan"
        let file = try write(day(1, "2026-01-01T10:00:00Z", [nfc]) + "\n" + day(2, "2026-01-02T10:00:00Z", [nfd, nfc]) + "\n",
                             to: "days.ndjson", in: cli)
        XCTAssertEqual(try cli.run(["import", file]).status, 0)
        let export = try cli.run(["export", "history", "--format", "plist", "-o", cli.folder.appendingPathComponent("h.plist").path])
        XCTAssertEqual(export.status, 0, export.stderr)
        let plist = try Data(contentsOf: cli.folder.appendingPathComponent("h.plist"))
        let days = try XCTUnwrap(PropertyListSerialization.propertyList(from: plist, format: nil) as? [[Any]])
        let names = days.map { ($0[2] as? [String] ?? []).map { Array($0.utf8) } }
        XCTAssertEqual(names, [[Array(nfd.utf8), Array(nfc.utf8)], [Array(nfc.utf8)]])

        let draft = try cli.run(["drafts", "add", "--version", nfd, "--item", nfc, "--item", nfd])
        XCTAssertEqual(draft.status, 0, draft.stderr)
        let show = try cli.run(["drafts", "show", nfc, "--format", "plist"])
        let decoded = try XCTUnwrap(PropertyListSerialization.propertyList(from: show.output, format: nil) as? [String: Any])
        XCTAssertEqual((decoded["version"] as? String).map { Array($0.utf8) }, Array(nfd.utf8))
        let titles = (decoded["checklist"] as? [[String: Any]])?.compactMap { ($0["title"] as? String).map { Array($0.utf8) } }
        XCTAssertEqual(titles, [Array(nfc.utf8), Array(nfd.utf8)])
    }

    // 2. Exported microseconds are correctly rounded, so a second round trip changes nothing.
    func testTextExportsAreAFixedPointAfterTheFirst() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_ROUNDTRIP_SEED", default: 2_014))
        let range = Date.supportedRange.lowerBound.timeIntervalSinceReferenceDate...Date.supportedRange.upperBound.timeIntervalSinceReferenceDate
        // The apps' JSON: dates as the shortest text of any Double, names from the adversarial generator.
        var lines: [String] = ["[{\"id\":\"00000000-0000-0000-0000-000000000001\",\"date\":763936463.8098043,\"exercises\":[\"Squat\"]}"]
        var days = Set<CalendarDay>()
        while lines.count < 300 {
            let seconds = AdversarialDates.seconds(in: range, using: &random)
            let utc = TimeZone(identifier: "UTC")!
            guard days.insert(CalendarDay(Date(timeIntervalSinceReferenceDate: seconds), in: utc)).inserted else { continue }
            var name = ""
            JSONText.appendQuoted(AdversarialText.string(using: &random, nonEmpty: true), to: &name)
            lines.append(",{\"id\":\"\(UUID().uuidString)\",\"date\":\(seconds),\"exercises\":[\(name)]}")
        }
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["import", try write(lines.joined() + "]", to: "app.json", in: cli)]).status, 0)
        for format in ["ndjson", "json", "csv"] {
            let first = try cli.run(["export", "history", "--format", format])
            XCTAssertEqual(first.status, 0)
            if format == "ndjson" { XCTAssertTrue(first.stdout.contains("2025-03-17T20:34:23.809804Z"), "the issue's instant") }
            let copy = try CLIHarness()
            let file = copy.folder.appendingPathComponent("first.\(format)")
            try first.output.write(to: file)
            let imported = try copy.run(["import", file.path, "--kind", "history"])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            let second = try copy.run(["export", "history", "--format", format])
            // Bytes, not Strings: Swift's == would take an NFC/NFD drift for no change.
            XCTAssertEqual(first.output, second.output, "\(format) drifted")
        }
    }

    /// Names typed as arguments are stored byte for byte, but for the ASCII spaces, tabs and
    /// line breaks around them: other spaces stay (U+00A0, U+2028, U+3000), and an argument that
    /// is not UTF-8 is refused, not stored with U+FFFD, writing nothing.
    func testNamesGivenAsArgumentsAreStoredExactly() throws {
        let cli = try CLIHarness()
        let kept = "\u{A0}Squat\u{2028}", trimmed = " \tRow \n", spaced = "\u{3000}Cafe\u{301}"
        let added = try cli.run(["history", "add", kept, trimmed, spaced, "--at", "2026-03-01T08:00:00Z"])
        XCTAssertEqual(added.status, 0, added.stderr)
        let exported = try cli.run(["export", "history", "--format", "ndjson"])
        var names = ""
        for name in [kept, "Row", spaced] { JSONText.appendQuoted(name, to: &names); names += "," }
        XCTAssertTrue(exported.output.range(of: Data("\"exercises\":[\(names.dropLast())]".utf8)) != nil, exported.stdout)

        let before = cli.snapshot()
        for script in [#"history add "$(printf 'Sq\377uat')""#, #"drafts add --version "$(printf '2.\300\257')""#,
                       #"history rename Row "$(printf 'R\355\240\200w')""#] {
            let result = try ExternalProgram.run("/bin/bash", ["-c", "\"$LOGBOOK\" --db \"$DB\" " + script], in: cli.folder,
                                                 environment: ["LOGBOOK": CLIHarness.executable.path, "DB": cli.database.path,
                                                               "PATH": "/usr/bin:/bin", "TZ": "UTC"])
            XCTAssertEqual(result.status, 2, script)
            XCTAssertTrue(result.errors.hasPrefix("logbook: error: argument ") && result.errors.contains("is not UTF-8 text"),
                          "\(script): \(result.errors)")
            XCTAssertEqual(cli.snapshot(), before, script)
        }
        // A database path in the environment that is not UTF-8 would name another file (U+FFFD in its name).
        // Refused when the command reads it, and only then: `--db` outranks it, and help needs no file (helper-66).
        let counted = try cli.run(["count", "history"]).stdout
        for variable in ["LOGBOOK_DB", "XDG_DATA_HOME", "HOME"] {
            let run = { (arguments: String) in
                try ExternalProgram.run("/bin/bash", ["-c", #"\#(variable)="$(printf '/tmp/x\377')" "$LOGBOOK" "# + arguments],
                                        in: cli.folder, environment: ["LOGBOOK": CLIHarness.executable.path, "HOME": cli.folder.path,
                                                                      "DB": cli.database.path, "PATH": "/usr/bin:/bin", "TZ": "UTC"])
            }
            let result = try run("history add Squat")
            XCTAssertEqual(result.status, 2, result.errors)
            XCTAssertTrue(result.errors.hasPrefix("logbook: error: $\(variable) is not UTF-8 text, so it names no file Logbook can open exactly"),
                          result.errors)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.hasPrefix("x") }, [])
            XCTAssertEqual(try run(#"--db "$DB" count history"#).output, counted, variable)
            XCTAssertEqual(try run("--version").status, 0, variable)
            XCTAssertEqual(try run("history --help").status, 0, variable)
        }

    }

    /// A day's last microsecond, written by hand, is the `Double` nearest to it: near 2001 a
    /// `Double` holds it and the record stays on its day; in year 9999, where a `Double` steps by
    /// about 30 µs, the nearest is the next midnight, and the record is listed and filed there,
    /// as *Querying and exactness* says (helper-95).
    func testADaysLastMicrosecondIsFiledByTheNearestDouble() throws {
        let cli = try CLIHarness()
        for (text, day, stored) in [("2026-10-10T23:59:59.999999Z", "2026-10-10", "2026-10-10T23:59:59.999999Z"),
                                    ("9999-10-10T23:59:59.999999Z", "9999-10-11", "9999-10-11T00:00:00.000000Z")] {
            XCTAssertEqual(try cli.run(["--time-zone", "UTC", "history", "add", "Squat", "--at", text]).status, 0, text)
            let listed = try cli.run(["--time-zone", "UTC", "history", "list", "--format", "csv", "--where", "day == \(day)"]).lines
            XCTAssertTrue(listed.contains { $0.contains(",\(day),\(stored),") }, "\(text): \(listed)")
        }
    }

    // 3. Date literals mean the Double Swift gives for their decimal value.
    func testFractionalSecondLiteralsAreTheNearestDouble() throws {
        let cli = try CLIHarness()
        // 5e-324 written out in full, as an exact decimal: 751 digits after the point.
        let smallest = "0." + String(repeating: "0", count: 323) + "4940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359923797965646954457177309266567103559397963987747960107818781263007131903114045278458171678489821036887186360569987307230500063874091535649843873124733972731696151400317153853980741262385655911710266585566867681870395603106249319452715914924553293054565444011274801297099995419319894090804165633245247571478690147267801593552386115501348035264934720193790268107107491703332226844753335720832431936092382893458368060106011506169809753078342277318329247904982524730776375927247874656084778203734469699533647017972677717585125660551199131504891101451037862738167250955837389733598993664809941164205702637090279242767544565229087538682506419718265533447265625"
        XCTAssertEqual(Double(smallest), 5e-324)
        let drafts = #"[{"version":"a","whatsNew":"","checklist":[],"submittedAt":1e-07},{"version":"b","whatsNew":"","checklist":[],"submittedAt":0.123456},"#
            + #"{"version":"c","whatsNew":"","checklist":[],"submittedAt":"# + smallest + "}]"
        XCTAssertEqual(try cli.run(["import", try write(drafts, to: "drafts.json", in: cli)]).status, 0)
        for (literal, version) in [("2001-01-01T00:00:00.0000001Z", "a"), ("2001-01-01T00:00:00.123456Z", "b"),
                                   ("2001-01-01T01:00:00.123456+01:00", "b")] {
            let found = try cli.run(["drafts", "list", "--where", "submittedAt == \(literal)", "--format", "csv"])
            XCTAssertEqual(found.status, 0, found.stderr)
            XCTAssertEqual(found.lines.dropFirst().map { $0.split(separator: ",")[1] }, [Substring(version)], literal)
        }
    }

    // 4. Keys follow Swift for the newest combining marks.
    func testNewestCombiningMarksCompareAsSwiftDoes() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["drafts", "add", "--version", "a\u{323}\u{897}"]).status, 0)
        XCTAssertEqual(try cli.run(["history", "add", "a\u{323}\u{1ACF}", "--at", "2026-01-01T10:00:00Z"]).status, 0)
        let show = try cli.run(["drafts", "show", "a\u{897}\u{323}"])
        XCTAssertEqual(show.status, 0, show.stderr)
        let count = try cli.run(["count", "history", "--where", "exercises contains \"a\u{1ACF}\u{323}\""])
        XCTAssertEqual(count.stdout, "1\n", count.stderr)
    }

    // 5. U+0000 gets in and comes back, through every format.
    func testNULAndByteOrderMarksRoundTripThroughEveryFormat() throws {
        let cli = try CLIHarness()
        let notes = "\u{FEFF}first\u{0}second\r\nthird\u{0}"
        let added = try cli.run(["drafts", "add", "--version", "1.0", "--whats-new", "-"], stdin: notes)
        XCTAssertEqual(added.status, 0, added.stderr)
        let json = try cli.run(["drafts", "show", "1.0", "--format", "json"])
        XCTAssertTrue(json.stdout.contains(#""\ufefffirst\u0000second\r\nthird\u0000""#) || json.stdout.contains("\u{FEFF}first\\u0000second\\r\\nthird\\u0000"),
                      json.stdout)
        for format in ["json", "ndjson", "csv", "plist"] {
            let out = cli.folder.appendingPathComponent("drafts.\(format)")
            XCTAssertEqual(try cli.run(["export", "drafts", "--format", format, "-o", out.path]).status, 0)
            let copy = try CLIHarness()
            let imported = try copy.run(["import", out.path])
            XCTAssertEqual(imported.status, 0, "\(format): \(imported.stderr)")
            let shown = try copy.run(["drafts", "show", "1.0", "--format", "json"])
            XCTAssertEqual(shown.stdout.components(separatedBy: "\"whatsNew\":")[1].prefix(60),
                           json.stdout.components(separatedBy: "\"whatsNew\":")[1].prefix(60), format)
        }
    }

    // 6. Days are proleptic Gregorian for years 1 to 9999, and days outside them are refused by name.
    func testDaysBeforeTheReformAndOutsideTheYears() throws {
        let cli = try CLIHarness()
        for (at, day) in [("1500-03-01", "1500-03-01"), ("0002-01-01", "0002-01-01"), ("0001-01-01", "0001-01-01"),
                          ("1582-10-10T12:00:00Z", "1582-10-10")] {
            let added = try cli.run(["history", "add", "Squat", "--at", at])
            XCTAssertEqual(added.status, 0, added.stderr)
            XCTAssertTrue(added.stderr.hasPrefix("logbook: \(day):"), added.stderr)
        }
        let found = try cli.run(["history", "list", "--where", "date >= 1500-03-01 && date < 1500-03-02", "--format", "csv"])
        XCTAssertEqual(found.lines.dropFirst().map { $0.split(separator: ",")[1] }, ["1500-03-01"])

        // In Kathmandu, whose offset before 1920 was its local mean time east of UTC, 0001-01-01
        // starts in year 0 UTC, before the first instant Logbook stores: said so, by the value typed.
        XCTAssertFailure(try cli.run(["--time-zone", "Asia/Kathmandu", "history", "add", "X", "--at", "0001-01-01"]), status: 2,
                         mentioning: "0001-01-01 starts at 0000-12-31T", "Asia/Kathmandu", "outside the instants Logbook stores")
        // A time of day is named as the instant it is (it was said to be a day starting then: helper-77).
        let evening = try cli.run(["--time-zone", "America/New_York", "history", "add", "X", "--at", "9999-12-31 23:00"])
        XCTAssertFailure(evening, status: 2, mentioning: "invalid date '9999-12-31 23:00' for '--at <when>': it is 10000-01-01T04:00:00Z, "
                         + "outside the instants Logbook stores")

        let before = cli.snapshot()
        let late = try cli.run(["--time-zone", "Pacific/Kiritimati", "history", "add", "Squat", "--at", "9999-12-31T23:59:59.999999Z"])
        // A usage error naming --at and the value as typed (it was exit 1, naming the instant read).
        XCTAssertFailure(late, status: 2, mentioning: "invalid date '9999-12-31T23:59:59.999999Z' for '--at <when>'", "10000-01-01",
                         "Pacific/Kiritimati")
        let file = try write(#"{"id":"00000000-0000-0000-0000-000000000009","date":"9999-12-31T23:00:00Z","exercises":["a"]}"# + "\n",
                             to: "late.ndjson", in: cli)
        let imported = try cli.run(["--time-zone", "Pacific/Kiritimati", "import", file])
        XCTAssertFailure(imported, status: 1, mentioning: file, "record 1", "field 'date'", "10000-01-01")
        XCTAssertEqual(cli.snapshot(), before)
    }

    // 8. One text limit, checked before a property list is parsed.
    func testAnOversizedPropertyListStringIsRefusedBeforeItIsRead() throws {
        let cli = try CLIHarness()
        let url = cli.folder.appendingPathComponent("huge.plist")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>checklist</key><array/><key>version</key><string>
            """.utf8))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<70 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data("</string><key>whatsNew</key><string></string></dict></plist>\n".utf8))
        try handle.close()
        // The scan's message (the record decoder's names a record and field instead): refused
        // before the list is parsed into values.
        XCTAssertFailure(try cli.run(["import", url.path]), status: 1, mentioning: url.path,
                         "holds a string of \(70 << 20) bytes; text is limited to 64 MiB")
    }

    // 9. Draft CSV rows that disagree, and byte order marks.
    func testDraftCSVRowsThatDisagreeAreRefusedAndByteOrderMarksAccepted() throws {
        let cli = try CLIHarness()
        let header = "id,version,whatsNew,submittedAt,createdAt,updatedAt,itemPosition,itemId,itemTitle,itemIsDone\r\n"
        let id = "6F1B2C43-0000-4000-8000-000000000001"
        func row(_ version: String, _ position: Int, _ item: String) -> String {
            "\(id),\(version),,,2026-01-01T00:00:00.000000Z,2026-01-01T00:00:00.000000Z,\(position),\(item),Step,false\r\n"
        }
        let item1 = "6F1B2C43-0000-4000-8000-0000000000A1", item2 = "6F1B2C43-0000-4000-8000-0000000000A2"
        XCTAssertEqual(try cli.run(["init"]).status, 0)
        let before = cli.snapshot()
        let disagree = try write(header + row("1.0", 1, item1) + row("1.1", 2, item2), to: "disagree.csv", in: cli)
        XCTAssertFailure(try cli.run(["import", disagree]), status: 1, mentioning: "record 1", "field 'version'", "lines 2 and 3")
        XCTAssertEqual(cli.snapshot(), before)
        // One item id twice in a draft, as a checklist may hold it (copies of a Swift value share
        // ids): imported, and exported as the same rows (it was refused, so its export could not
        // come back; helper-29).
        let twice = try write(header + row("1.0", 1, item1) + row("1.0", 2, item1), to: "twice.csv", in: cli)
        XCTAssertEqual(try cli.run(["import", twice]).status, 0)
        let exported = (row("1.0", 1, item1) + row("1.0", 2, item1)).replacingOccurrences(of: ",1.0,,", with: #",1.0,"","#)
        XCTAssertEqual(try cli.run(["export", "drafts", "--format", "csv"]).stdout, header + exported, "an empty What's New is written \"\"")
        XCTAssertEqual(try cli.run(["drafts", "delete", id]).status, 0)

        let marked = try write("\u{FEFF}" + header + row("1.0", 1, item1) + row("1.0", 2, item2), to: "marked.csv", in: cli)
        XCTAssertEqual(try cli.run(["import", marked]).status, 0)
        let json = try write("\u{FEFF}" + #"[{"version":"2.0","whatsNew":"","checklist":[]}]"#, to: "marked.json", in: cli)
        XCTAssertEqual(try cli.run(["import", json]).status, 0)
        let ndjson = try write("\u{FEFF}" + day(7, "2026-02-01T10:00:00Z", ["Squat"]) + "\n", to: "marked.ndjson", in: cli)
        XCTAssertEqual(try cli.run(["import", ndjson]).status, 0)
        // Spreadsheets end a file with a blank line, and may write a row's id in lower case.
        let lower = try write(header + row("3.0", 1, item1).replacingOccurrences(of: "4000-8000-000000000001", with: "4000-8000-000000000003")
                                  + row("3.0", 2, item2).replacingOccurrences(of: "6F1B2C43-0000-4000-8000-000000000001",
                                                                                 with: "6f1b2c43-0000-4000-8000-000000000003") + "\r\n",
                              to: "lower.csv", in: cli)
        let imported = try cli.run(["import", lower])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("read 1, inserted 1"), imported.stderr)
        XCTAssertEqual(try cli.run(["count", "drafts"]).stdout, "3\n")
        XCTAssertEqual(try cli.run(["count", "history"]).stdout, "1\n")
    }
}
