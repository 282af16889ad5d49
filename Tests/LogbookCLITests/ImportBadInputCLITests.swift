import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// Every import reader refuses bad input with one clear error line (file, record, place, field),
/// exit status 1, and the database byte for byte as it was.
final class ImportBadInputCLITests: XCTestCase {
    private var cli: CLIHarness!
    private var before: [Data?] = []

    override func setUpWithError() throws {
        cli = try CLIHarness()
        try cli.run(["--time-zone", "America/New_York", "import", CLIHarness.fixture("history.plist").path])
        try cli.run(["import", CLIHarness.fixture("drafts.json").path])
        before = cli.snapshot()
    }

    override func tearDown() { cli = nil }

    /// Writes `bytes` to a file named `name`, imports it, and checks the refusal.
    private func assertRefused(_ name: String, _ bytes: Data, extra: [String] = [], mentioning: String...,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let url = cli.folder.appendingPathComponent(name)
        try bytes.write(to: url)
        let result = try cli.run(["import", url.path] + extra)
        XCTAssertEqual(result.status, 1, "\(name): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("logbook: error: \(url.path)"), result.stderr, file: file, line: line)
        for text in mentioning {
            XCTAssertTrue(result.stderr.contains(text), "'\(text)' not in: \(result.stderr)", file: file, line: line)
        }
        XCTAssertEqual(cli.snapshot(), before, "\(name) changed the database", file: file, line: line)
    }

    private func text(_ string: String) -> Data { Data(string.utf8) }

    func testTruncatedAndCorruptJSON() throws {
        let full = try Data(contentsOf: CLIHarness.fixture("history.json"))
        try assertRefused("cut.json", full.prefix(full.count / 2), mentioning: "truncated")
        try assertRefused("empty.json", Data(), mentioning: "empty")
        try assertRefused("garbage.json", Data([0x5B, 0x7B, 0xFF, 0xFE, 0x00]), mentioning: "record 1", "line 1")
        try assertRefused("trailing.json", text(#"[{"id":"00000000-0000-0000-0000-000000000009","date":1,"exercises":["a"]}] x"#),
                          mentioning: "after the end")
        try assertRefused("object.json", text(#"{"id":"x"}"#), extra: ["--format", "json"], mentioning: "expected a JSON array")
        try assertRefused("deep.json", text(String(repeating: "[", count: 10_000)), mentioning: "nested deeper")
    }

    func testWrongTypesAndMissingFields() throws {
        try assertRefused("date.json", text(#"[{"id":"00000000-0000-0000-0000-000000000009","date":true,"exercises":["a"]}]"#),
                          mentioning: "record 1", "field 'date'", "found true")
        try assertRefused("names.json", text(#"[{"id":"00000000-0000-0000-0000-000000000009","date":1,"exercises":"Squat"}]"#),
                          mentioning: "field 'exercises'", "expected an array")
        try assertRefused("name.json", text(#"[{"id":"00000000-0000-0000-0000-000000000009","date":1,"exercises":["a",2]}]"#),
                          mentioning: "field 'exercises[1]'")
        try assertRefused("id.json", text(#"[{"id":"not-a-uuid","date":1,"exercises":["a"]}]"#), mentioning: "field 'id'", "UUID")
        let secondBad = #"[{"version":"1","whatsNew":"","checklist":[]},{"whatsNew":"","checklist":[]}]"#
        try assertRefused("missing.json", text(secondBad), mentioning: "record 2", "field 'version'", "missing")
        try assertRefused("done.json", text(#"[{"version":"1","whatsNew":"","checklist":[{"id":"00000000-0000-0000-0000-000000000001","title":"t","isDone":"yes"}]}]"#),
                          mentioning: "field 'checklist[0].isDone'", "expected true or false")
        try assertRefused("kind.json", text(#"[{"name":"x"}]"#), mentioning: "cannot tell drafts from history")
        // An ISO-8601 date that is well formed but outside the years 0001 to 9999 (in UTC: an
        // offset can carry 0001-01-01 into year 0) is named as such, not as malformed (helper-34).
        for (date, reason) in [("0001-01-01T00:00:00+00:01", "is outside years 0001 to 9999"), ("0000-12-31T23:59:59Z", "is outside years 0001 to 9999"),
                               ("9999-12-31T23:59:00-00:01", "is outside years 0001 to 9999"), ("2020-13-01T00:00:00Z", "expected an ISO-8601 date")] {
            try assertRefused("range-\(date.prefix(4)).ndjson", text(#"{"day":"2020-01-01","date":""# + date + #"","exercises":["A"]}"# + "\n"),
                              mentioning: "record 1, line 1: field 'date'", reason)
            try assertRefused("range-\(date.prefix(4)).csv", text("id,day,date,position,exercise\n,2020-01-01,\(date),1,A\n"),
                              mentioning: "line 2: field 'date'", reason)
        }
    }

    func testHostileText() throws {
        try assertRefused("utf8.json", Data(#"[{"version":""#.utf8) + Data([0xC3, 0x28]) + Data(#"","whatsNew":"","checklist":[]}]"#.utf8),
                          mentioning: "record 1, line 1, column 14: field 'version': invalid UTF-8 in a string (byte \\xC3)")
        // The field is named however deep the text lies (helper-16: the errors named no field).
        try assertRefused("item.json", Data(#"[{"version":"1","whatsNew":"","checklist":[{"id":"00000000-0000-0000-0000-000000000001","title":"a"#.utf8)
                            + Data([0xFF]) + Data(#"","isDone":false}]}]"#.utf8),
                          mentioning: "field 'checklist[0].title': invalid UTF-8")
        try assertRefused("names.ndjson", Data(#"{"day":"2020-01-01","exercises":["ok","b"#.utf8) + Data([0xED, 0xA0, 0x80]) + Data("\"]}\n".utf8),
                          mentioning: "record 1, line 1", "field 'exercises[1]': invalid UTF-8")
        try assertRefused("nul.json", Data(#"[{"version":"a"#.utf8) + Data([0]) + Data(#"b","whatsNew":"","checklist":[]}]"#.utf8),
                          mentioning: "NUL")
        try assertRefused("surrogate.json", text(#"[{"version":"\ud800","whatsNew":"","checklist":[]}]"#), mentioning: "surrogate")
        try assertRefused("far.json", text(#"[{"id":"00000000-0000-0000-0000-000000000009","date":1e300,"exercises":["a"]}]"#),
                          mentioning: "outside years 0001 to 9999")
        try assertRefused("iso.json", text(#"[{"version":"1","whatsNew":"","checklist":[],"submittedAt":"2026-02-30T00:00:00Z"}]"#),
                          mentioning: "field 'submittedAt'")
        var huge = Data(#"[{"version":""#.utf8)
        huge.append(Data(repeating: UInt8(ascii: "x"), count: 100 << 20))
        huge.append(Data(#"","whatsNew":"","checklist":[]}]"#.utf8))
        try assertRefused("huge.json", huge, mentioning: "longer than 64 MiB")
        try assertRefused("twice.json", text(#"[{"version":"1","whatsNew":"","checklist":[],"version":"2"}]"#),
                          mentioning: "record 1", #"duplicate member "version""#)
        // Past a few members the names are kept in a set (a scan per member made this object
        // 45 billion comparisons), which still tells NFC from NFD names apart.
        var wide = #"[{"version":"1","whatsNew":"","checklist":[],"k\#u{E9}":0,"ke\#u{301}":0"#
        for index in 0..<300_000 { wide += ",\"k\(index)\":0" }
        try assertRefused("wide.json", text(wide + #","k299999":1}]"#), mentioning: "record 1", #"duplicate member "k299999""#)
    }

    func testBadNDJSON() throws {
        let good = #"{"id":"00000000-0000-0000-0000-000000000009","date":1,"exercises":["a"]}"#
        try assertRefused("two.ndjson", text(good + "\n" + good.dropLast() + "\n"), mentioning: "record 2", "line 2")
        try assertRefused("same-line.ndjson", text(good + " " + good + "\n"), mentioning: "one JSON value per line")
    }

    /// A record nests at most 64 levels in JSON and NDJSON alike (the record one, each array or
    /// object inside it one more): at 64 the reader goes on to the field's own problem, at 65 and
    /// at 100,000 it refuses the nesting, naming record, line, column and field, without a crash.
    func testARecordNestsAtMost64LevelsInEitherJSONForm() throws {
        for levels in [64, 65, 100_000] {
            for (field, kind) in [("exercises", "day"), ("checklist", "draft")] {
                let nested = String(repeating: "[", count: levels - 1) + String(repeating: "]", count: levels - 1)
                let record = kind == "day" ? #"{"day":"2030-01-01","exercises":\#(nested)}"# : #"{"version":"1.0","checklist":\#(nested)}"#
                let expected = levels > 64 ? "nested deeper than 64 levels" : "field '\(field)[0]'"
                try assertRefused("\(kind)-\(levels).ndjson", text(record + "\n"), mentioning: "record 1, line 1", expected)
                try assertRefused("\(kind)-\(levels).json", text("[" + record + "]"), mentioning: "record 1", expected)
            }
        }
    }

    /// The record and line an NDJSON error names, wherever the bad record is: after blank lines,
    /// with CRLF line ends, and on the last line with and without a line break after it (a
    /// record on a last line without one was named by the line before).
    func testNDJSONErrorsNameTheirRecordAndLine() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("ImportBadInputCLITests NDJSON seed \(seed)")
        var random = SplitMix64(seed: seed)
        for round in 0..<12 {
            let records = Int.random(in: 1...5, using: &random)
            let bad = round % 3 == 0 ? records : Int.random(in: 1...records, using: &random)
            let lineEnd = Bool.random(using: &random) ? "\r\n" : "\n"
            var lines: [String] = []
            var badLine = 0
            for record in 1...records {
                for _ in 0..<Int.random(in: 0...2, using: &random) { lines.append(Bool.random(using: &random) ? "" : "  ") }
                let exercises = record == bad ? "[\"a\", 7]" : "[\"a\"]"
                lines.append(#"{"id":"00000000-0000-4000-8000-00000000000\#(record)","day":"2030-01-0\#(record)","date":"2030-01-0\#(record)T08:00:00Z","exercises":\#(exercises)}"#)
                if record == bad { badLine = lines.count }
            }
            let trailing = Bool.random(using: &random) ? lineEnd : ""
            try assertRefused("round\(round).ndjson", text(lines.joined(separator: lineEnd) + trailing),
                              mentioning: "record \(bad), line \(badLine): field 'exercises[1]'")
        }
    }

    func testBadCSV() throws {
        let header = "id,day,date,position,exercise\r\n"
        try assertRefused("columns.csv", text("id,position,exercise\r\n"), mentioning: "field 'day'", "missing column",
                          "or at least day,exercise or date,exercise")
        try assertRefused("quote.csv", text(header + "00000000-0000-0000-0000-000000000009,2026-01-01,2026-01-01T00:00:00Z,1,\"Squat\r\n"),
                          mentioning: "record 1, line 2, column 72: field 'exercise': unclosed quote")
        try assertRefused("short.csv", text(header + "00000000-0000-0000-0000-000000000009,2026-01-01,2026-01-01T00:00:00Z,1\r\n"),
                          mentioning: "record 1", "line 2", "4 fields")
        try assertRefused("day.csv", text(header + "00000000-0000-0000-0000-000000000009,2026-13-01,2026-01-01T00:00:00Z,1,a\r\n"),
                          mentioning: "field 'day'")
        try assertRefused("empty.csv", Data(), extra: ["--format", "csv"], mentioning: "empty")
        // The field that holds the byte, not the line after it.
        let row = "00000000-0000-0000-0000-00000000000A,2026-01-02,2026-01-02T00:00:00Z,1,Row\r\n"
        try assertRefused("latin1.csv", text(header + row) + Data("00000000-0000-0000-0000-000000000009,2026-01-01,2026-01-01T00:00:00Z,1,Caf".utf8)
                            + Data([0xE9]) + text("\r\n" + row.replacingOccurrences(of: "0A,", with: "0B,")),
                          mentioning: "record 2, line 3, column 72: field 'exercise': invalid UTF-8")
        // Files a spreadsheet saves otherwise than Logbook reads: each named as what it is
        // (helper-90: "field 'day;exercise': unknown column", "field 'sep=': unknown column").
        try assertRefused("semicolons.csv", text("day;exercise\r\n2026-01-01;Squat\r\n"),
                          mentioning: "field 'day;exercise': unknown column", "separated by semicolons, and Logbook's CSV by commas")
        try assertRefused("tabs.csv", text("day\texercise\n2026-01-01\tSquat\n"), mentioning: "separated by tabs")
        try assertRefused("sep.csv", text("sep=;\r\nday;exercise\r\n"), mentioning: "line 1", "separated by \";\", not commas")
        try assertRefused("unnamed.csv", text("day,exercise,,\n2026-01-01,Squat,,\n2026-01-02,Row,,x\n"),
                          mentioning: "record 2, line 3: column 4, which the header leaves unnamed, holds \"x\"")
        try assertRefused("blank.csv", text("\n\r\n\r"), extra: ["--format", "csv"], mentioning: "only blank lines")
        try assertRefused("sep-only.csv", text("\"sep=,\"\r\n\r\n"), mentioning: "line 1: the file has only its 'sep=,' line")
        // A row of empty cells is a blank line, the header too: the next row is read as the header
        // and its first unknown name named (it was "field 'id': missing column").
        try assertRefused("no-names.csv", text(",,\n2026-01-01,Squat,\n"), mentioning: "line 2: field '2026-01-01': unknown column")
        // The same item-less draft row twice is named as a row without an item among several (it
        // was "line 2: field 'itemPosition': expected 1, found \"\"", the line that alone imports).
        let draftHeader = "id,version,whatsNew,submittedAt,createdAt,updatedAt,itemPosition,itemId,itemTitle,itemIsDone\n"
        let itemless = "55555555-5555-4555-8555-555555555555,v,w,,2020-01-01T00:00:00Z,2020-01-01T00:00:00Z,,,,\n"
        try assertRefused("itemless.csv", text(draftHeader + itemless + itemless), mentioning: "record 1, line 2: field 'itemPosition': "
                            + "this row holds no checklist item, but draft 55555555-5555-4555-8555-555555555555 has 2 rows (lines 2 to 3)")
        // A CR alone ends a line, and the lines are counted so.
        try assertRefused("cr.csv", text("day,exercise\r2026-01-01,Squat\r2026-01-02,\r"), mentioning: "record 2, line 3: field 'exercise'")
        try assertRefused("quote-in-field.csv", text("day,exercise\n2026-01-01,Sq\"uat\n"),
                          mentioning: "record 1, line 2, column 14: field 'exercise': a quote inside an unquoted field")
    }

    /// The first problem in the file is the one named, also where a reader looks past a record
    /// to find where it ends (the id-less records of one day make one record; a CSV record's rows
    /// run until the id changes) and what comes next cannot be read (found by an adversarial run:
    /// the later syntax error was named).
    func testTheFirstProblemInTheFileIsTheOneNamed() throws {
        let broken = #"{"day":"2030-01-03","exercises":["a"]"#
        try assertRefused("idless.ndjson", text(#"{"day":"2030-01-01","exercises":[""]}"# + "\n" + broken + "\n"),
                          mentioning: "record 1", "empty")
        try assertRefused("grouped.ndjson", text(#"{"day":"2030-01-01","exercises":["a"]}"# + "\n"
                                                 + #"{"day":"2030-01-01","exercises":["", "b"]}"# + "\n" + broken + "\n"),
                          mentioning: "record 2, line 2", "empty")
        try assertRefused("valid-then-broken.ndjson", text(#"{"day":"2030-01-01","exercises":["a"]}"# + "\n" + broken + "\n"),
                          mentioning: "record 2", "line 2")
        let header = "id,day,date,position,exercise\n"
        try assertRefused("rows.csv", text(header + "00000000-0000-0000-0000-000000000009,2030-01-01,,1,a\n"
                                           + "00000000-0000-0000-0000-000000000009,2030-01-01,,2,\n"
                                           + "00000000-0000-0000-0000-00000000000A,2030-01-02,,1\n"),
                          mentioning: "record 1, line 3", "field 'exercise'")
    }

    /// A record given twice in one file: again with the same content it is skipped (an app's file
    /// may hold a draft twice); with other content the file is refused (whatever `--on-conflict`
    /// says, which settles records stored before the import), rather than either copy being lost.
    /// A field or column Logbook has no place for is refused, naming it, never dropped: a record
    /// that gives `exercise` and `exercises` lost one of them, and a snake_case `submitted_at` in
    /// JSON left the draft unsubmitted, both with exit status 0.
    /// A CSV record of several rows is named by the line of the row at fault, not its first:
    /// seeded records of 1 to 6 rows, one row's position, done flag or blank name spoiled.
    func testACSVErrorNamesTheLineOfTheRowAtFault() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_CSV_LINE_SEED", default: 0x4353)
        var random = SplitMix64(seed: seed)
        for round in 0..<PropertyTestSettings.scaled(8, by: "LOGBOOK_PROPERTY_SCALE") {
            var lines = ["id,day,date,position,exercise"]
            var rows: [(record: Int, line: Int)] = []
            for record in 1...random.int(1...4) {
                let id = String(format: "00000000-0000-0000-0000-%012d", record + 100 * round)
                let day = String(format: "2020-01-%02d", record)
                for position in 1...random.int(1...6) {
                    lines.append("\(id),\(day),\(day)T10:00:00Z,\(position),Squat")
                    rows.append((record, lines.count))
                }
            }
            let (record, line) = random.pick(rows)
            var cells = lines[line - 1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let spoiled = random.pick(["position", "blank position", "exercise"])
            switch spoiled {
            case "position": cells[3] = String(Int(cells[3])! + random.int(1...3))
            case "blank position": cells[3] = ""
            default: cells[4] = ""
            }
            lines[line - 1] = cells.joined(separator: ",")
            try assertRefused("rows-\(round).csv", text(lines.joined(separator: "\n") + "\n"),
                              mentioning: "record \(record), line \(line): field '\(spoiled == "exercise" ? "exercise" : "position")'")
        }
    }

    func testFieldsLogbookHasNoPlaceForAreRefusedNotDropped() throws {
        try assertRefused("both.ndjson", text(#"{"day":"2030-01-01","exercise":"A","exercises":["B","C"]}"# + "\n"),
                          mentioning: "record 1", "field 'exercise'", "not both")
        try assertRefused("both.json", text(#"[{"day":"2030-01-01","exercises":["B"],"exercise":"A"}]"#),
                          mentioning: "record 1", "field 'exercise'", "not both")
        try assertRefused("notes.ndjson", text(#"{"day":"2030-01-01","exercises":["B"],"notes":"felt great"}"# + "\n"),
                          mentioning: "record 1", "field 'notes'", "unknown field")
        try assertRefused("snake.json", text(#"[{"version":"9.0","whatsNew":"","checklist":[],"submitted_at":"2020-01-01T00:00:00Z"}]"#),
                          mentioning: "record 1", "field 'submitted_at'", "unknown field", "submittedAt")
        try assertRefused("item.json", text(#"[{"version":"9.0","whatsNew":"","checklist":[{"id":"00000000-0000-0000-0000-0000000000E1","title":"Tag","isDone":true,"done":false}]}]"#),
                          mentioning: "record 1", "field 'checklist[0].done'", "unknown field")
        try assertRefused("both.csv", text("day,exercise,exercises\n2030-01-04,A,B\n"),
                          mentioning: "line 1", "field 'exercises'", "unknown column")
        try assertRefused("notes.csv", text("day,exercise,notes\n2030-01-04,A,felt great\n"),
                          mentioning: "line 1", "field 'notes'", "unknown column", "id,day,date,position,exercise")
        try assertRefused("capitals.csv", text("Day,Exercise\n2030-01-04,A\n"),
                          mentioning: "field 'Day'", "a history file has the columns id,day,date,position,exercise", "case-sensitive")
        // Without --kind, the column neither kind has is named, not the first the guessed kind lacks.
        for (header, wrong) in [("day,exercises", "exercises"), ("day,foo", "foo"), ("date,foo,exercise", "foo"), ("version,exercises", "exercises")] {
            try assertRefused("guessed-\(wrong).csv", text(header + "\n2030-01-04,A\n"), mentioning: "line 1: field '\(wrong)': unknown column")
        }
        // A history file without its exercise column names that column (it named `day` as unknown to a drafts file; helper-86).
        for header in ["day", "id,day", "date,position", "day,date"] {
            try assertRefused("no-exercise-\(header).csv", text(header + "\n2030-01-04\n"),
                              mentioning: "line 1: field 'exercise': missing column", "or at least day,exercise or date,exercise")
        }
        try assertRefused("twice.csv", text("day,exercise,exercise\n2030-01-04,A,B\n"),
                          mentioning: "line 1", "field 'exercise'", "names this column twice")
        try assertRefused("camel-and-snake.csv", text(Self.draftsHeader + ",submitted_at\n"),
                          mentioning: "line 1", "field 'submitted_at'", "names this column twice")
    }

    /// What the library would not save is not imported either: a day with no exercise, an empty
    /// name (a blank cell in a spreadsheet).
    func testRecordsTheLibraryWouldNotSaveAreRefused() throws {
        try assertRefused("none.ndjson", text(#"{"day":"2030-01-01","exercises":[]}"# + "\n"),
                          mentioning: "record 1, line 1: field 'exercises': at least one exercise is needed")
        try assertRefused("blank.json", text(#"[{"day":"2030-01-02","exercises":["Squat",""]}]"#),
                          mentioning: "record 1: field 'exercises[1]': an exercise name cannot be empty")
        try assertRefused("blank.csv", text("day,exercise\n2030-01-03,Squat\n2030-01-04,\n"),
                          mentioning: "record 2, line 3: field 'exercise': an exercise name cannot be empty")
        // The member as the file names it (it was 'exercises[0]'; helper-58).
        try assertRefused("blank.ndjson", text(#"{"day":"2030-01-05","exercise":""}"# + "\n"),
                          mentioning: "record 1, line 1: field 'exercise': an exercise name cannot be empty")
    }

    /// A record with a day and no time is dated at the day's midnight in the time zone, which for
    /// 0001-01-01 east of Greenwich is in year 0000, before every instant the store keeps: it is
    /// refused naming the day, as `history add` refuses it (it was stored, and every listing and
    /// export of the file then failed on it; helper-58); given a date, it is taken.
    func testADayWhoseMidnightIsBeforeTheFirstInstantIsRefused() throws {
        let tokyo = ["--time-zone", "Asia/Tokyo"]
        for (name, body) in [("first.csv", "day,exercise\n0001-01-01,Squat\n"),
                             ("first.ndjson", #"{"day":"0001-01-01","exercise":"Squat"}"# + "\n"),
                             ("first.json", #"[{"day":"0001-01-01","exercises":["Squat"]}]"#)] {
            try assertRefused(name, text(body), extra: tokyo,
                              mentioning: "record 1", "field 'day'", "'0001-01-01': it starts at 0000-12-31T14:41:01Z in time zone Asia/Tokyo",
                              "outside the instants Logbook stores; give the record a date")
        }
        let file = cli.folder.appendingPathComponent("dated.csv")
        try text("day,date,exercise\n0001-01-01,0001-01-01T00:00:00Z,Squat\n").write(to: file)
        let dated = try cli.run(tokyo + ["import", file.path])
        XCTAssertEqual(dated.status, 0, dated.stderr)
        XCTAssertEqual(try cli.run(tokyo + ["history", "list", "--on", "0001-01-01", "--format", "csv"]).status, 0)
    }

    /// Records are numbered as the file holds them, whichever step finds the problem: consecutive
    /// id-less records of one day, which the import joins into one, keep their own numbers, so the
    /// writer's "record 4" is the reader's record 4 (and in NDJSON and CSV its line is named too).
    func testRecordsAreNumberedAsTheFileHoldsThem() throws {
        let joined = [#"{"day":"2030-02-01","exercise":"Squat"}"#, #"{"day":"2030-02-01","exercise":"Row"}"#,
                      #"{"day":"2030-02-02","exercise":"Plank"}"#]
        // The writer refuses the fourth record (the third after joining), the reader the fifth.
        try assertRefused("empty-day.ndjson", text((joined + [#"{"day":"2030-02-03","exercises":[]}"#]).joined(separator: "\n") + "\n"),
                          mentioning: "record 4, line 4: field 'exercises': at least one exercise is needed")
        try assertRefused("cut.ndjson", text((joined + [#"{"day":"2030-02-03","exercise":"Lunge"}"#, #"{"day":"#]).joined(separator: "\n")),
                          mentioning: "record 5, line 5")
        try assertRefused("empty-day.json", text("[" + (joined + [#"{"day":"2030-02-03","exercises":[]}"#]).joined(separator: ",\n") + "]"),
                          mentioning: "record 4: field 'exercises': at least one exercise is needed")
        // A problem in a record that would have joined the one before it is named at its own place,
        // and a record with no exercise is refused there too (joined, it had added nothing).
        try assertRefused("empty-name.ndjson", text((joined + [#"{"day":"2030-02-02","exercise":""}"#]).joined(separator: "\n") + "\n"),
                          mentioning: "record 4, line 4: field 'exercise': an exercise name cannot be empty")
        try assertRefused("none-joined.ndjson", text((joined + [#"{"day":"2030-02-02","exercises":[]}"#]).joined(separator: "\n") + "\n"),
                          mentioning: "record 4, line 4: field 'exercises': at least one exercise is needed")
        try assertRefused("empty-first.ndjson", text(([#"{"day":"2030-02-01","exercises":["Squat",""]}"#] + joined).joined(separator: "\n") + "\n"),
                          mentioning: "record 1, line 1: field 'exercises[1]': an exercise name cannot be empty")
        // The one error that names a JSON array element's line: the element's, not the line before it.
        try assertRefused("kind.json", text("[\n\n  {\"foo\":1}\n]"), mentioning: "record 1, line 3: cannot tell drafts from history")
        // Rows without an id are their day's exercises in file order: a position that says
        // otherwise is refused, not dropped (it was ignored: `2,D` then `1,C` stored D, C).
        try assertRefused("idless-positions.csv", text("day,position,exercise\n2030-02-01,2,D\n2030-02-01,1,C\n"),
                          mentioning: "record 2, line 3: field 'position': expected 3 or nothing, found \"1\"")
        try assertRefused("idless-after-empty.csv", text("day,position,exercise\n2030-02-01,,D\n2030-02-01,1,C\n"),
                          mentioning: "record 2, line 3: field 'position': expected 2 or more or nothing, found \"1\"")
        // Near the largest integer (one more than it overflowed, a crash found by helper-31 and helper-32):
        try assertRefused("idless-largest.csv", text("day,position,exercise\n2030-02-01,9223372036854775807,D\n2030-02-01,1,C\n"),
                          mentioning: "record 2, line 3: field 'position': expected nothing (no position follows the one before)")
        try assertRefused("idless-near-largest.csv", text("day,position,exercise\n2030-02-01,9223372036854775806,D\n2030-02-01,,C\n"
                                                          + "2030-02-01,5,E\n"),
                          mentioning: "record 3, line 4: field 'position': expected nothing (no position follows the one before)")
        for bad in ["0", "-1", "x", "1.5"] {
            try assertRefused("idless-position-\(bad).csv", text("day,position,exercise\n2030-02-01,\(bad),D\n"),
                              mentioning: "record 1, line 2: field 'position': expected a whole number from 1 or nothing")
        }
        // In Logbook's CSV layout a day without exercises is a row with an empty position and name.
        try assertRefused("empty-day.csv", text("day,position,exercise\n2030-02-01,1,Squat\n2030-02-01,2,Row\n2030-02-03,,\n"),
                          mentioning: "record 3, line 4: field 'exercises': at least one exercise is needed")
    }

    /// Positions up to the largest integer are positions, rows after them that give none follow
    /// them in file order, and nothing overflows (a crash until helper-32's run).
    func testIDlessPositionsUpToTheLargestIntegerKeepTheFileOrder() throws {
        let url = cli.folder.appendingPathComponent("largest.csv")
        try text("day,position,exercise\n2030-02-01,9223372036854775806,D\n2030-02-01,,C\n2030-02-01,,E\n"
                 + "2030-02-02,9223372036854775807,F\n2030-02-02,,G\n").write(to: url)
        let imported = try cli.run(["import", url.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let listed = try cli.run(["history", "list", "--format", "ndjson"]).stdout
        XCTAssertTrue(listed.contains(#""exercises":["D","C","E"]"#) && listed.contains(#""exercises":["F","G"]"#), listed)
    }

    /// A string or a quoted field left open is named where the problem is: the line break inside
    /// the string, the quote that opens the field, not the line after them.
    func testAnOpenStringIsNamedWhereItIs() throws {
        let open = #"{"day":"2030-03-01","exercise":"Squat}"#, closed = #"{"day":"2030-03-02","exercise":"Row"}"#
        for lineEnd in ["\n", "\r\n"] {
            try assertRefused("open.ndjson", text(closed + lineEnd + open + lineEnd + closed + lineEnd),
                              mentioning: "record 2, line 2, column \(open.utf8.count + 1): field 'exercise': the line ends inside a string")
            try assertRefused("open.json", text("[" + closed + "," + lineEnd + open + lineEnd + "]"),
                              mentioning: "record 2, line 2, column \(open.utf8.count + 1): field 'exercise': the line ends inside a string")
        }
        try assertRefused("nul.ndjson", text(#"{"day":"2030-03-01","exercise":"Sq\#u{0}uat"}"# + "\n"),
                          mentioning: "record 1, line 1, column 35: field 'exercise': NUL byte in a string")
        try assertRefused("open.csv", text("day,exercise\n2030-03-01,Row\n2030-03-02,\"Squat\n2030-03-03,Plank\n"),
                          mentioning: "record 2, line 3, column 12: field 'exercise': unclosed quote")
    }

    private static let draftsHeader = "id,version,whatsNew,submittedAt,createdAt,updatedAt,itemPosition,itemId,itemTitle,itemIsDone"

    /// A draft's CSV row with any item field filled holds a checklist item, so an empty
    /// `itemPosition` there is refused (helper-41: the item was dropped and the import said it
    /// inserted the draft); only a row whose item fields are all empty is a draft without items.
    func testADraftRowWithAnItemButNoPositionIsRefused() throws {
        let draft = "00000000-0000-4000-8000-0000000000E1,9.0,notes,,2031-01-01T08:00:00.000000Z,2031-01-01T08:00:00.000000Z,"
        let itemFields = ["00000000-0000-4000-8000-0000000000E2", "Write release notes", "false"]
        // Every non-empty choice of the item fields filled (id, title, isDone), the position left empty.
        for filled in 1..<(1 << itemFields.count) {
            let cells = itemFields.indices.map { filled & (1 << $0) != 0 ? itemFields[$0] : "" }
            try assertRefused("item-without-position-\(filled).csv", text(Self.draftsHeader + "\r\n" + draft + "," + cells.joined(separator: ",") + "\r\n"),
                              mentioning: "record 1, line 2: field 'itemPosition'")
        }
        let empty = cli.folder.appendingPathComponent("no-items.csv")
        try text(Self.draftsHeader + "\r\n" + draft + ",,,\r\n").write(to: empty)
        XCTAssertEqual(try cli.run(["import", empty.path]).status, 0)
        XCTAssertEqual(try cli.run(["drafts", "show", "00000000-0000-4000-8000-0000000000E1", "--format", "json"]).stdout
                        .contains(#""checklist":[]"#), true)
    }

    func testARecordRepeatedWithOtherContentIsRefused() throws {
        let day = #"{"id":"00000000-0000-0000-0000-0000000000D1","day":"2031-01-01","date":"2031-01-01T08:00:00Z","exercises":["Squat"]}"#
        let other = day.replacingOccurrences(of: "Squat", with: "Lunge")
        for policy in ["skip", "replace", "fail"] {
            try assertRefused("twice-\(policy).ndjson", text(day + "\n" + other + "\n"), extra: ["--on-conflict", policy],
                              mentioning: "record 2, line 2: field 'id'", "an earlier record in this file has the id 00000000-0000-0000-0000-0000000000D1")
        }
        let draft = #"{"id":"00000000-0000-0000-0000-0000000000D2","version":"9.0","whatsNew":"","checklist":[],"#
            + #""submittedAt":null,"createdAt":"2031-01-01T08:00:00Z","updatedAt":"2031-01-01T08:00:00Z"}"#
        try assertRefused("drafts-twice.ndjson", text(draft + "\n" + draft.replacingOccurrences(of: "9.0", with: "9.1") + "\n"),
                          mentioning: "record 2, line 2: field 'id'")
        // Bytes, not Swift's ==: the NFD spelling of a name is other content.
        try assertRefused("twins.ndjson", text(day.replacingOccurrences(of: "Squat", with: "Caf\u{E9}") + "\n"
                                               + day.replacingOccurrences(of: "Squat", with: "Cafe\u{301}") + "\n"),
                          mentioning: "record 2, line 2: field 'id'")
        // The same record again, after another record of its day was merged into it: skipped.
        let row = day.replacingOccurrences(of: "D1", with: "D3").replacingOccurrences(of: "Squat", with: "Row")
        let same = cli.folder.appendingPathComponent("same.ndjson")
        try text(day + "\n" + row + "\n" + day + "\n").write(to: same)
        let result = try cli.run(["import", same.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("read 3, inserted 1, skipped 1, merged 1"), result.stderr)

        // Over a stored record of that id, under every policy, and as an alias of another record of its day.
        before = cli.snapshot()
        for policy in ["skip", "replace", "fail"] {
            // (`fail` refuses the first already, which meets the stored record.)
            let refused = policy == "fail" ? "record 1, line 1: field 'id'" : "record 2, line 2: field 'id': an earlier record in this file"
            try assertRefused("stored-\(policy).ndjson", text(day + "\n" + other + "\n"), extra: ["--on-conflict", policy],
                              mentioning: refused)
            try assertRefused("alias-\(policy).ndjson", text(row + "\n" + row.replacingOccurrences(of: "Row", with: "Plank") + "\n"),
                              extra: ["--on-conflict", policy], mentioning: refused)
        }
        let stored = cli.folder.appendingPathComponent("stored-drafts.ndjson")
        try text(draft + "\n").write(to: stored)
        XCTAssertEqual(try cli.run(["import", stored.path]).status, 0)
        before = cli.snapshot()
        try assertRefused("drafts-replace.ndjson", text(draft.replacingOccurrences(of: "9.0", with: "9.1") + "\n"
                                                        + draft.replacingOccurrences(of: "9.0", with: "9.2") + "\n"),
                          extra: ["--on-conflict", "replace"], mentioning: "record 2, line 2: field 'id'")
    }

    /// Two copies of a record whose dates are `Double`s less than a microsecond apart (the
    /// helper's pair, then seeded within 2^31 seconds of 2001, where a `Double` has room for
    /// several between two microseconds) are two contents: the file is refused. The comparison
    /// was of the export's JSON text, which gives dates to the microsecond, so the second copy was
    /// skipped and its date lost (helper-34). The same `Double` spelled otherwise is the same
    /// content: skipped.
    func testCopiesWhoseDatesDifferBelowAMicrosecondAreTwoContents() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_REPEAT_DATE_SEED", default: 0xD47E)
        var random = SplitMix64(seed: seed)
        var pairs = [(123_456.1234561, 123_456.1234564)]
        for _ in 0..<PropertyTestSettings.scaled(6, by: "LOGBOOK_PROPERTY_SCALE") {
            let seconds = Double(random.int(-2_000_000_000...2_000_000_000)) + Double(random.int(0...999_999)) / 1e6
            pairs.append((seconds, seconds + Double(random.int(1...2)) * seconds.ulp * (random.int(0...1) == 0 ? 1 : -1)))
        }
        for (round, (seconds, neighbour)) in pairs.enumerated() {
            XCTAssertTrue(seconds != neighbour && abs(seconds - neighbour) < 1e-6, "\(seconds), \(neighbour)")
            let id = String(format: "00000000-0000-0000-0000-%012d", 900 + round)
            let day = { (date: String) in #"{"id":"\#(id)","date":\#(date),"exercises":["Squat"]}"# }
            let draft = { (date: String) in
                #"{"id":"\#(id)","version":"9.0","whatsNew":"","checklist":[],"createdAt":0,"updatedAt":0,"submittedAt":\#(date)}"#
            }
            for (kind, record) in [("day", day), ("draft", draft)] {
                try assertRefused("neighbours-\(kind)-\(round).json", text("[" + record("\(seconds)") + "," + record("\(neighbour)") + "]"),
                                  mentioning: "record 2", "field 'id'", "an earlier record in this file has the id \(id)")
                let spelledTwice = cli.folder.appendingPathComponent("spelled-twice-\(kind)-\(round).json")
                try text("[" + record("\(seconds)") + "," + record(String(format: "%.17g", seconds)) + "]").write(to: spelledTwice)
                let result = try cli.run(["import", "--dry-run", spelledTwice.path])
                XCTAssertEqual(result.status, 0, "seed \(seed): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("read 2, inserted 1, skipped 1"), "seed \(seed): \(result.stderr)")
            }
        }
        // Zero is one value whatever its sign (SQLite reads -0.0 back as 0.0).
        let zeros = cli.folder.appendingPathComponent("zeros.json")
        try text(#"[{"id":"00000000-0000-0000-0000-000000000990","date":0,"exercises":["A"]},"#
                 + #"{"id":"00000000-0000-0000-0000-000000000990","date":-0.0,"exercises":["A"]}]"#).write(to: zeros)
        XCTAssertTrue(try cli.run(["import", "--dry-run", zeros.path]).stderr.contains("read 2, inserted 1, skipped 1"))
    }

    /// A history CSV whose rows were reordered (a spreadsheet sorted by another column, rows moved
    /// by hand) either keeps each record's rows together and in order, and imports as the file in
    /// its first order does, or is refused with one error line and the database unchanged: never a
    /// record short of exercises or an exercise on another record's day (seeded; adversarial names).
    func testReorderedCSVRowsImportWholeOrAreRefused() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_CSV_ORDER_SEED", default: 0x4353_564F)
        var random = SplitMix64(seed: seed)
        func quoted(_ field: String) -> String { "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        // Each record's rows, each row its fields; days apart so that no two records share a day.
        var records: [[[String]]] = []
        for index in 0..<8 {
            let id = String(format: "00000000-0000-4000-8000-%012d", index + 1)
            let day = CalendarDay(year: 2031, month: 3, day: 1)!.adding(days: 2 * index)!
            let date = "\(day)T0\(index % 10):00:00.000000Z"
            records.append((1...random.int(1...4)).map { position in
                [id, "\(day)", date, "\(position)", AdversarialText.string(using: &random, nonEmpty: true)]
            })
        }
        func csv(_ rows: [[String]], positions: Bool = true) -> Data {
            let columns = positions ? [0, 1, 2, 3, 4] : [0, 1, 2, 4]
            let header = positions ? "id,day,date,position,exercise" : "id,day,date,exercise"
            return text(header + "\r\n" + rows.map { row in columns.map { quoted(row[$0]) }.joined(separator: ",") + "\r\n" }.joined())
        }
        let baseline = try CLIHarness()
        let ordered = baseline.folder.appendingPathComponent("ordered.csv")
        try csv(records.flatMap { $0 }).write(to: ordered)
        let first = try baseline.run(["import", ordered.path])
        XCTAssertEqual(first.status, 0, "seed \(seed): \(first.stderr)")
        let expected = try baseline.run(["export", "history", "--format", "ndjson", "--sort", "day"]).output

        for round in 0..<12 {
            // Half the files without the position column, as a spreadsheet's user may cut it.
            let positions = round % 2 == 0
            let rows: [[String]] = switch round / 2 % 3 {
            case 0: records.shuffled(using: &random).flatMap { $0 }                    // records moved whole
            case 1: records.flatMap { $0 }.sorted { $0[4].utf8.lexicographicallyPrecedes($1[4].utf8) }  // sorted by exercise
            default: records.flatMap { $0 }.shuffled(using: &random)
            }
            let ids = rows.map { $0[0] }
            let isConsecutive = zip(ids, ids.dropFirst()).filter { $0 != $1 }.count == Set(ids).count - 1
            let target = try CLIHarness()
            XCTAssertEqual(try target.run(["init"]).status, 0)
            let before = target.snapshot()
            let file = target.folder.appendingPathComponent("round\(round).csv")
            try csv(rows, positions: positions).write(to: file)
            let result = try target.run(["import", file.path])
            if isConsecutive && Self.positionsInOrder(rows) {
                XCTAssertEqual(result.status, 0, "seed \(seed), round \(round): \(result.stderr)")
                XCTAssertEqual(try target.run(["export", "history", "--format", "ndjson", "--sort", "day"]).output, expected,
                               "seed \(seed), round \(round)")
            } else if isConsecutive && !positions {
                // A record's rows together in another order: without positions, the file's order is the record's.
                XCTAssertEqual(result.status, 0, "seed \(seed), round \(round): \(result.stderr)")
                XCTAssertEqual(try target.run(["count", "history"]).stdout, "\(records.count)\n", "seed \(seed), round \(round)")
            } else {
                XCTAssertEqual(result.status, 1, "seed \(seed), round \(round): \(result.stderr)")
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
                XCTAssertTrue(result.stderr.hasPrefix("logbook: error: \(file.path): record "), result.stderr)
                XCTAssertEqual(target.snapshot(), before, "seed \(seed), round \(round): the database changed")
            }
        }
    }

    /// A bad record after tens of thousands of good ones (past the batches of day totals and of
    /// tallies that an import writes as it goes) still leaves the database byte for byte as it
    /// was: seeded, the bad record and what is wrong with it.
    func testABadRecordLateInALargeImportLeavesTheDatabaseAsItWas() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_LATE_BAD_RECORD_SEED", default: 0x4C41_5445)
        var random = SplitMix64(seed: seed)
        let count = PropertyTestSettings.scaled(40_000, by: "LOGBOOK_PROPERTY_SCALE")
        let bad = count - random.int(0...count / 10)
        let first = CalendarDay(year: 1900, month: 1, day: 1)!
        var text = ""
        var badLine = 0
        for index in 1...count {
            let day = first.adding(days: index)!
            let names = (0..<random.int(1...4)).map { _ in "\"" + random.pick(["Squat", "Row", "Caf\u{E9}", "Plank \(index % 97)"]) + "\"" }
            var record = #"{"id":"\#(UUID().uuidString)","day":"\#(day)","date":"\#(day)T07:00:00Z","exercises":[\#(names.joined(separator: ","))]}"#
            if index == bad {
                badLine = index
                record = random.pick([record.replacingOccurrences(of: "T07:00:00Z", with: "T25:00:00Z"),
                                      record.replacingOccurrences(of: "\"exercises\":[", with: "\"exercises\":[7,"),
                                      record.replacingOccurrences(of: "\"day\":\"\(day)\"", with: "\"day\":\"\(day)x\"")])
            }
            text += record + "\n"
        }
        try assertRefused("late.ndjson", Data(text.utf8), mentioning: "record \(bad), line \(badLine)")
    }

    /// Whether each run of rows of one id has the positions 1, 2, … in order.
    private static func positionsInOrder(_ rows: [[String]]) -> Bool {
        var expected = 1
        for (index, row) in rows.enumerated() {
            if index > 0 && rows[index - 1][0] != row[0] { expected = 1 }
            guard row[3] == String(expected) else { return false }
            expected += 1
        }
        return true
    }

    func testBadPropertyLists() throws {
        let full = try Data(contentsOf: CLIHarness.fixture("history.plist"))
        try assertRefused("cut.plist", full.prefix(full.count - 40), mentioning: "not a valid binary property list",
                          "its trailer (the last 32 bytes) does not describe its objects")
        var scribbled = full
        for index in 8..<200 { scribbled[index] = 0xFF }
        try assertRefused("scribbled.plist", scribbled, mentioning: "property list")
        let string = try PropertyListSerialization.data(fromPropertyList: "just text", format: .xml, options: 0)
        try assertRefused("string.plist", string, mentioning: "expected an array or a dictionary")
        let pair = try PropertyListSerialization.data(fromPropertyList: [["00000000-0000-0000-0000-000000000009", Date()]],
                                                      format: .binary, options: 0)
        try assertRefused("pair.plist", pair, mentioning: "record 1", "exactly 3 items")
        let wrongDate = try PropertyListSerialization.data(
            fromPropertyList: [["00000000-0000-0000-0000-000000000009", "yesterday", ["a"]]], format: .binary, options: 0)
        try assertRefused("date.plist", wrongDate, mentioning: "field '[1] date'", "expected a date", "found the string \"yesterday\"")
        let wrongID = try PropertyListSerialization.data(fromPropertyList: [["not-a-uuid", Date(), ["a"]]], format: .binary, options: 0)
        try assertRefused("id.plist", wrongID, mentioning: "field '[0] id'", "expected a UUID string, found the string \"not-a-uuid\"")
        let draft = try PropertyListSerialization.data(fromPropertyList: ["version": "1", "whatsNew": 3, "checklist": []],
                                                       format: .xml, options: 0)
        try assertRefused("draft.plist", draft, mentioning: "field 'whatsNew'", "expected a string")
        // A number where a Bool belongs is refused, as the apps' `PropertyListDecoder` refuses it
        // (0, 1 and 1.0 were read as false and true; helper-34), and a Bool where a date belongs is
        // named as one.
        for (done, found) in [(1, "a number"), (0, "a number"), (1.0, "a number")] as [(Any, String)] {
            for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
                let item: [String: Any] = ["id": "00000000-0000-0000-0000-0000000000E1", "title": "Tag", "isDone": done]
                let numbered = try PropertyListSerialization.data(fromPropertyList: ["version": "1", "whatsNew": "", "checklist": [item]],
                                                                  format: format, options: 0)
                try assertRefused("done-\(done)-\(format.rawValue).plist", numbered, mentioning: "field 'checklist[0].isDone'",
                                  "expected a boolean, found \(found)")
            }
        }
        let booleanDate = try PropertyListSerialization.data(
            fromPropertyList: [["00000000-0000-0000-0000-000000000009", true, ["a"]]], format: .binary, options: 0)
        try assertRefused("boolean-date.plist", booleanDate, mentioning: "field '[1] date'", "expected a date, found a boolean")
        // Objects of a binary list that Foundation reads as other Swift types are named in the
        // list's words (they were "Optional<Any>", "Set<AnyHashable>", "Dictionary<AnyHashable,
        // Any>"; helper-25): a null, a set, and a dictionary with an integer key.
        let ascii = { (text: String) in
            (text.utf8.count < 15 ? [0x50 | UInt8(text.utf8.count)] : [0x5F, 0x10, UInt8(text.utf8.count)]) + Array(text.utf8)
        }
        func itemDraft(isDone: [UInt8], title: [UInt8] = ascii("t")) -> Data {
            Self.binaryPropertyList([[0xD3, 1, 2, 3, 4, 5, 6], ascii("version"), ascii("whatsNew"), ascii("checklist"), ascii("1"),
                                     ascii(""), [0xA1, 7], [0xD3, 8, 9, 10, 11, 12, 13], ascii("id"), ascii("title"), ascii("isDone"),
                                     ascii("00000000-0000-4000-8000-0000000000E1"), title, isDone])
        }
        try assertRefused("null.plist", itemDraft(isDone: [0x00]), mentioning: "field 'checklist[0].isDone'", "expected a boolean, found a null")
        try assertRefused("set.plist", itemDraft(isDone: [0x09], title: [0xC0]), mentioning: "field 'checklist[0].title'", "expected a string, found a set")
        try assertRefused("integer-key.plist", Self.binaryPropertyList([[0xD1, 1, 2], [0x10, 3], ascii("x")]),
                          mentioning: "at the root, found a dictionary with a key that is not a string")
    }

    /// A list the parser refuses is named where it breaks (each was "not a valid property list
    /// (truncated or corrupt): The operation could not be completed", naming no place; helper-52):
    /// in XML by the parser's own words, which give the line; in a binary list, the parser's
    /// message being about XML, by the object whose marker, length or member is wrong.
    func testAPropertyListTheParserRefusesIsNamedWhereItBreaks() throws {
        let xml = { (whatsNew: String) in
            Data((#"<?xml version="1.0" encoding="UTF-8"?>\#n<plist version="1.0">\#n<dict>\#n<key>version</key><string>1</string>\#n"#
                  + #"<key>whatsNew</key>\#n<string>\#(whatsNew)</string>\#n<key>checklist</key><array/>\#n</dict>\#n</plist>\#n"#).utf8)
        }
        try assertRefused("entity.plist", xml("&bogus;"), mentioning: "not a valid property list: Encountered unknown ampersand-escape sequence at line 6")
        try assertRefused("surrogate.plist", xml("&#xD800;"), mentioning: "not a valid property list: Encountered unparseable Unicode sequence at line 6")
        try assertRefused("tag.plist", xml("a</strin><string>"), mentioning: "not a valid property list: Close tag on line 6 does not match open tag string")
        // One end tag too many: the parser's words, not "more follows the end" at the last line.
        try assertRefused("closed.plist", xml("a</string><string>b</string></string>"), mentioning: "not a valid property list:", "line 6")
        let ascii = { (text: String) in [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }
        let draft: [[UInt8]] = [[0xD3, 1, 2, 3, 4, 5, 6], ascii("version"), ascii("whatsNew"), ascii("checklist"), ascii("1"), ascii(""), [0xA0]]
        XCTAssertEqual(try PropertyListSerialization.propertyList(from: Self.binaryPropertyList(draft), format: nil) as? NSDictionary,
                       ["version": "1", "whatsNew": "", "checklist": []] as NSDictionary, "the unbroken list is read")
        var marker = draft
        marker[4] = [0x7B, 0x31]
        try assertRefused("marker.plist", Self.binaryPropertyList(marker),
                          mentioning: "not a valid binary property list: object 4 (at byte 42): its type marker 0x7B is no property list type")
        var member = draft
        member[0][6] = 9
        try assertRefused("member.plist", Self.binaryPropertyList(member),
                          mentioning: "not a valid binary property list: object 0 (at byte 8): member 5 refers to an object the list does not have")
        var long = draft
        long[1] = [0x5F, 0x10, 0xF0] + Array("version".utf8)
        try assertRefused("long.plist", Self.binaryPropertyList(long),
                          mentioning: "not a valid binary property list: object 1 (at byte 15): its 240 characters run past the objects")
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// A binary property list of `objects` (each encoded, object references `referenceWidth`
    /// bytes), the first the root, as only a hand-made file holds some objects; its offset table
    /// gives `table`'s objects in turn (by default each object once).
    private static func binaryPropertyList(_ objects: [[UInt8]], table: [Int]? = nil, referenceWidth: UInt8 = 1) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableStart = bytes.count
        let entries = (table ?? Array(objects.indices)).map { offsets[$0] }
        let bigEndian = { (value: Int, width: Int) in (0..<width).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        for offset in entries { bytes += bigEndian(offset, 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, referenceWidth] + bigEndian(entries.count, 8) + bigEndian(0, 8) + bigEndian(tableStart, 8)
        return Data(bytes)
    }

    /// A history.plist whose days share one array of names (as Python's `plistlib` writes a list
    /// object referenced twice) is read as the days it holds; one whose shared arrays come to
    /// far more values than its bytes (2,000 days sharing 2,000 names: 4 million names from 30 KB;
    /// a 694 KB file grew an import to gigabytes and was killed; helper-57), an array that holds
    /// itself, or nesting past 1,000 levels, is refused before it is parsed.
    func testABinaryListOfSharedArraysIsReadAsItsValuesOrRefusedWhenTheyOutgrowIt() throws {
        let twoBytes = { (value: Int) in [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func history(days: Int, names: Int) -> Data {
            let ascii = Array("Burpee".utf8)
            var objects: [[UInt8]] = [[0xAF, 0x11] + twoBytes(days) + (0..<days).flatMap { twoBytes(3 + 3 * $0) },
                                      (names < 15 ? [0xA0 | UInt8(names)] : [0xAF, 0x11] + twoBytes(names)) + (0..<names).flatMap { _ in twoBytes(2) },
                                      [0x50 | UInt8(ascii.count)] + ascii]
            for day in 0..<days {
                let id = Array(String(format: "00000000-0000-4000-8000-%012d", day).utf8)
                let seconds = (Double(day) * 86_400 + 43_200).bitPattern
                objects += [[0xA3] + twoBytes(4 + 3 * day) + twoBytes(5 + 3 * day) + twoBytes(1),
                            [0x5F, 0x10, UInt8(id.count)] + id, [0x33] + (0..<8).reversed().map { UInt8(seconds >> ($0 * 8) & 0xFF) }]
            }
            return Self.binaryPropertyList(objects, referenceWidth: 2)
        }
        let shared = cli.folder.appendingPathComponent("shared.plist")
        try history(days: 2_000, names: 3).write(to: shared)
        let imported = try cli.run(["--time-zone", "UTC", "import", shared.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try cli.run(["count", "history", "--where", "day < 2007-01-01 && exercises.count == 3"]).stdout, "2000\n")
        before = cli.snapshot()
        try assertRefused("amplified.plist", history(days: 2_000, names: 2_000),
                          mentioning: "object 0 (at byte 8) comes to more than", "values once the arrays and dictionaries it shares are read")
        try assertRefused("itself.plist", Self.binaryPropertyList([[0xA1, 0]]), mentioning: "object 0 (at byte 8) holds itself")
        let deep = (0..<1_200).map { $0 == 1_199 ? [0xA0] : [0xA1] + twoBytes($0 + 1) }
        try assertRefused("deep.plist", Self.binaryPropertyList(deep, referenceWidth: 2), mentioning: "nest deeper than 1000 levels")
    }

    /// A binary list whose offset table points at one object many times (or into one another's
    /// bytes) is refused before it is read over and over, each object's bytes once (a 64 KiB
    /// list took minutes to scan; helper-55); a key that many dictionaries share is read once, and
    /// a key of a megabyte is named by its start.
    func testABinaryListWhoseTableRepeatsItsObjectsIsRefusedUnread() throws {
        let twoBytes = { (value: Int) in [UInt8(value >> 8), UInt8(value & 0xFF)] }
        let string = [0x5F, 0x11] + twoBytes(40_000) + [UInt8](repeating: 0x61, count: 40_000)
        try assertRefused("one-string.plist", Self.binaryPropertyList([[0xA1] + twoBytes(1), string], table: [0] + Array(repeating: 1, count: 16_000),
                                                                     referenceWidth: 2),
                          mentioning: "its offset table points into the bytes of other objects, or at one object many times")
        let members = 4_000
        let array = [0xAF, 0x11] + twoBytes(members) + (0..<members).flatMap { _ in twoBytes(members) }
        try assertRefused("one-array.plist", Self.binaryPropertyList([array, [0x7B, 0x31]], table: Array(repeating: 0, count: members) + [1],
                                                                    referenceWidth: 2),
                          mentioning: "not a valid binary property list: its offset table points into the bytes of other objects")
        let key = [0x5F, 0x12, 0x00, 0x10, 0x00, 0x00] + [UInt8](repeating: 0x6B, count: 1 << 20)
        let dictionaries = 2_000
        let root = [0xAF, 0x11] + twoBytes(dictionaries) + (0..<dictionaries).flatMap { twoBytes(3 + $0) }
        let shared = Self.binaryPropertyList([root, key, [0x10, 0x00]] + Array(repeating: [0xD1] + twoBytes(1) + twoBytes(2), count: dictionaries),
                                             referenceWidth: 2)
        try assertRefused("shared-key.plist", shared, mentioning: "record 1: field '\(String(repeating: "k", count: 60))…': unknown field")
    }

    /// Bytes that are not UTF-8 in a property list's text are refused, never read as something
    /// else: in an XML list (declared UTF-8 in any spelling, or with no declaration; any byte over
    /// 0x7F where it is declared ASCII), naming the line and the column where they start, lines
    /// ending in LF, CR LF or CR;
    /// in a binary list's ASCII string object (whose bytes the parser read as Latin-1, so such a
    /// file was imported changed, exit 0; helper-16), naming the object. Seeded
    /// (`LOGBOOK_PLIST_BYTES_SEED`): overlong forms, encoded surrogates, code points past
    /// U+10FFFF, bytes F5 to FF, lone continuation bytes and sequences cut short, after valid text
    /// from every plane, in a history.plist's exercise name or id or a release-draft.plist's text.
    func testPropertyListTextThatIsNotUTF8IsRefusedWhereItIs() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_PLIST_BYTES_SEED", default: 0x504C_4954)
        var random = SplitMix64(seed: seed)
        let invalid: [[UInt8]] = [[0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0x80],
                                  [0xF0, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
                                  [0xF5], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0x80], [0xBF], [0xC3], [0xE2, 0x82],
                                  [0xF0, 0x9F, 0x98]]
        for round in 0..<PropertyTestSettings.scaled(36, by: "LOGBOOK_PROPERTY_SCALE") {
            let bad = random.pick(invalid)
            // Valid text before the bad bytes, lines included, so that the column counts characters.
            let before = AdversarialText.string(using: &random).replacingOccurrences(of: "\r", with: "")
                .filter { !"<&]".contains($0) && $0 != "\u{0}" }
            let marker = "MARKER\(round)"
            let isDraft = random.int(0...1) == 1
            let root: Any = isDraft
                ? ["version": "1.\(round)", "whatsNew": marker, "checklist": [] as [Any]] as [String: Any]
                : [["00000000-0000-4000-8000-0000000000\(String(format: "%02d", round % 100))", Date(timeIntervalSinceReferenceDate: 1e8),
                    ["Squat", marker]]] as [Any]
            let context = "seed \(seed), round \(round), bytes \(bad)"
            // XML: the marker's text becomes the valid text, then the bad bytes. The declaration
            // names UTF-8 in one of its spellings, or ASCII (where any byte over 0x7F is refused,
            // the valid text's included), or is left out; lines end in LF, CR LF or CR.
            let encoding = random.pick(["UTF-8", "utf-8", "UTF8", "utf_8", "ascii", "US-ASCII", ""])
            let lineEnd = random.pick(["\n", "\r\n", "\r"])
            var xml = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
            xml = Data(String(decoding: xml, as: UTF8.self).replacingOccurrences(of: #" encoding="UTF-8""#, with: encoding.isEmpty ? "" : #" encoding="\#(encoding)""#)
                .replacingOccurrences(of: "\n", with: lineEnd).utf8)
            let at = try XCTUnwrap(xml.range(of: Data(marker.utf8)), context)
            let escaped = before.replacingOccurrences(of: ">", with: "&gt;")
            let file = xml[..<at.lowerBound] + Data(escaped.utf8) + Data(bad) + xml[at.upperBound...]
            let isASCII = encoding.lowercased().hasSuffix("ascii")
            let firstBad = isASCII ? file.firstIndex { $0 > 0x7F }! : at.lowerBound + escaped.utf8.count
            let textBefore = String(decoding: file[..<firstBad], as: UTF8.self)
            let lines = textBefore.replacingOccurrences(of: "\r\n", with: "\n").split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
            try assertRefused("bad-\(round).xml.plist", file, mentioning: "line \(lines.count), column \(lines.last!.unicodeScalars.count + 1):",
                              "not \(isASCII ? "ASCII" : "UTF-8")")
            // Binary: the marker is an ASCII string object; its bytes are overwritten, length kept.
            let binary = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
            var scribbled = binary
            let place = try XCTUnwrap(binary.range(of: Data(marker.utf8)), context)
            let start = place.lowerBound + random.int(0...(marker.utf8.count - bad.count))
            scribbled.replaceSubrange(start..<start + bad.count, with: bad)
            try assertRefused("bad-\(round).plist", scribbled, mentioning: "is ASCII text holding the byte 0x", "which is not ASCII")
        }
        print("ImportBadInputCLITests (LOGBOOK_PLIST_BYTES_SEED=\(seed)): property lists with bytes that are not UTF-8, refused")
    }

    /// A property list is held to what JSON is: a key Logbook has no field for (a generated one,
    /// from the adversarial text pools, or `submitted_at`, `id`, `note`) refuses the file, naming
    /// it, in binary and XML lists, and so does a dictionary that holds a key twice (the property
    /// list reader kept one value, so the other was lost with exit 0): in XML, its second spelling
    /// plain, with an entity or in a CDATA section; in a binary list, a second key object, ASCII or
    /// UTF-16. Seeded (`LOGBOOK_PLIST_KEY_SEED`).
    func testPropertyListKeysLogbookHasNoPlaceForOrHoldsTwiceAreRefused() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_PLIST_KEY_SEED", default: 0x504B)
        var random = SplitMix64(seed: seed)
        let item: [String: Any] = ["id": "00000000-0000-0000-0000-0000000000E1", "title": "Tag", "isDone": true]
        let draft: [String: Any] = ["version": "9.0", "whatsNew": "New", "checklist": [item], "submittedAt": Date(timeIntervalSinceReferenceDate: 0)]
        let known = Set(draft.keys).union(item.keys)
        for round in 0..<PropertyTestSettings.scaled(12, by: "LOGBOOK_PROPERTY_SCALE") {
            var key = round < 3 ? ["submitted_at", "id", "createdAt"][round] : AdversarialText.string(using: &random, nonEmpty: true)
            if known.contains(where: { $0.utf8.elementsEqual(key.utf8) }) { key += "x" }
            let inItem = random.chance(0.5)
            var changed = draft
            if inItem {
                var extra = item
                extra[key] = random.chance(0.5) ? "note" : 7
                changed["checklist"] = [item, extra]
            } else {
                changed[key] = random.chance(0.5) ? Date() : "x"
            }
            let format: PropertyListSerialization.PropertyListFormat = random.chance(0.5) ? .binary : .xml
            let data = try PropertyListSerialization.data(fromPropertyList: random.chance(0.5) ? changed : [draft, changed],
                                                          format: format, options: 0)
            // A key with a control character is shown escaped (`OutputAndFileEdgesCLITests`).
            let isPlain = !key.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
            // A long key is named by its start.
            let field = (inItem ? "checklist[1]." : "") + key
            let shown = field.count > 80 ? field.prefix(60) + "…" : field
            try assertRefused("unknown-\(round).plist", data, mentioning: isPlain ? "field '\(shown)'" : "field '\(inItem ? "checklist[1]." : "")",
                              "unknown field")
        }
        let xml = String(decoding: try PropertyListSerialization.data(fromPropertyList: [draft], format: .xml, options: 0), as: UTF8.self)
        for round in 0..<PropertyTestSettings.scaled(8, by: "LOGBOOK_PROPERTY_SCALE") {
            let key = random.pick(["version", "whatsNew", "title", "isDone", "id"])
            let spelling = random.pick([key, key.prefix(1) + "&#\(key.unicodeScalars.dropFirst().first!.value);" + key.dropFirst(2),
                                        "<![CDATA[\(key)]]>", key.prefix(2) + "<![CDATA[\(key.dropFirst(2))]]>"])
            let value = key == "isDone" ? "<false/>" : "<string>second</string>"
            // The repeated key goes right after the first one's value, or at the end of its dictionary.
            let dictionary = ["version", "whatsNew"].contains(key) ? "<key>checklist</key>" : "<key>isDone</key>"
            var text = xml
            guard let place = text.range(of: dictionary) else { return XCTFail("no \(dictionary) in \(xml)") }
            let isDraftKey = ["version", "whatsNew"].contains(key)
            let end = text.range(of: "</dict>", options: isDraftKey ? .backwards : [])!.lowerBound
            text.insert(contentsOf: "<key>\(spelling)</key>\(value)\n", at: random.chance(0.5) ? place.lowerBound : end)
            try assertRefused("twice-\(round).plist", Data(text.utf8), mentioning: "holds the key \"\(key)\" twice")
            // Named by the line and column of the later key's text, in either spelling (the refusal
            // named no place: helper-47).
            let stderr = try cli.run(["import", cli.folder.appendingPathComponent("twice-\(round).plist").path]).stderr
            let numbers = try XCTUnwrap(stderr.firstMatch(of: /: line (\d+), column (\d+): a dictionary holds/), stderr)
            let line = text.split(separator: "\n", omittingEmptySubsequences: false)[Int(numbers.1)! - 1]
            let named = String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(Int(numbers.2)! - 1)))
            XCTAssertTrue([key, spelling].contains { named.hasPrefix($0 + "</key>") }, "\(stderr) names \(named)")
        }
        // In a binary list: a second key object of the same text, ASCII or UTF-16 (patched over a
        // placeholder key of the same length, as only a hand-made file has it).
        for (placeholder, isUTF16) in [("zzzzzzz", false), ("zzzzzz\u{E9}", true)] {
            var binary = try PropertyListSerialization.data(fromPropertyList: draft.merging([placeholder: "second"]) { $1 },
                                                            format: .binary, options: 0)
            let from = isUTF16 ? Data(placeholder.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) : Data(placeholder.utf8)
            let to = isUTF16 ? Data("version".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) : Data("version".utf8)
            let range = try XCTUnwrap(binary.range(of: from), "no placeholder in the binary list")
            binary.replaceSubrange(range, with: to)
            try assertRefused("binary-twice-\(isUTF16).plist", binary, mentioning: "object ", ": a dictionary holds the key \"version\" twice")
        }
        // A key twice in different dictionaries is no repeat.
        let two = try PropertyListSerialization.data(fromPropertyList: [draft, draft.merging(["version": "9.1"]) { $1 }], format: .xml, options: 0)
        let url = cli.folder.appendingPathComponent("two.plist")
        try two.write(to: url)
        XCTAssertEqual(try cli.run(["import", url.path]).status, 0)
    }

    /// An XML property list is read to its end or refused: anything after its root element but
    /// white space, comments and processing instructions (a second property list joined to the
    /// first, text, a NUL, an element) refuses the file, naming the line and column where it
    /// starts; the parser stopped at the first root and dropped the rest, so two joined
    /// release-draft.plists imported one draft, exit 0 (helper-25). Seeded
    /// (`LOGBOOK_PLIST_TAIL_SEED`): drafts and histories, in UTF-8 and UTF-16, with tails of
    /// pieces of both kinds in any order; a tail of harmless pieces only reads every record.
    func testAnXMLPropertyListIsReadToItsEndOrRefused() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_PLIST_TAIL_SEED", default: 0x7A11)
        var random = SplitMix64(seed: seed)
        let harmless = ["\n", " ", "\t", "\r\n", "<!-- after -->", "<?logbook note?>", "<!-- </plist> <array> -->"]
        let harmful = ["junk", "\u{0}", "<array/>", "<string>x</string>", "</plist>", "<![CDATA[x]]>", "é", "<plist version=\"1.0\"><array/></plist>"]
        let draft: [String: Any] = ["version": "1.0", "whatsNew": "Notes", "checklist": [] as [Any]]
        let day: [Any] = ["00000000-0000-4000-8000-0000000000D1", Date(timeIntervalSinceReferenceDate: 7e8), ["Squat"]]
        for round in 0..<PropertyTestSettings.scaled(30, by: "LOGBOOK_PROPERTY_SCALE") {
            let isDraft = random.chance(0.5)
            let root: Any = isDraft ? [draft, draft.merging(["version": "1.1"]) { $1 }] : [day]
            let document = String(decoding: try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0), as: UTF8.self)
            let pieces = (0..<random.int(1...4)).map { _ in random.chance(0.5) ? random.pick(harmless) : random.pick(harmful) }
            // A second copy of the whole document, declaration and all, is the case that lost records.
            let tail = pieces.map { $0 == "</plist>" && random.chance(0.5) ? document : $0 }.joined()
            let isUTF16 = random.chance(0.3)
            let text = (isUTF16 ? document.replacingOccurrences(of: #"encoding="UTF-8""#, with: #"encoding="UTF-16""#) : document) + tail
            let bytes = isUTF16 ? Data([0xFE, 0xFF]) + text.data(using: .utf16BigEndian)! : Data(text.utf8)
            let context = "seed \(seed), round \(round), tail \(tail.debugDescription)"
            guard let firstHarmful = pieces.firstIndex(where: { !harmless.contains($0) }) else {
                let url = cli.folder.appendingPathComponent("whole-\(round).plist")
                try bytes.write(to: url)
                let result = try cli.run(["import", "--dry-run", url.path])
                XCTAssertEqual(result.status, 0, "\(context): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("read \(isDraft ? 2 : 1),"), "\(context): \(result.stderr)")
                continue
            }
            let before = document + pieces[..<firstHarmful].joined()
            let lines = before.replacingOccurrences(of: "\r\n", with: "\n").split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
            try assertRefused("tail-\(round).plist", bytes, mentioning: "line \(lines.count), column \(lines.last!.unicodeScalars.count + 1):",
                              "more follows the end of the property list")
        }
        print("ImportBadInputCLITests (LOGBOOK_PLIST_TAIL_SEED=\(seed)): XML property lists read to their end or refused")
    }

    /// A `<date>` in an XML property list is read as the instant its text names, or refused: the
    /// parser read a day or a time that does not exist as another (`2026-02-30T00:00:00Z` as March
    /// 2nd, `T24:00:00` as the next day, a two-digit year as the first century), exit 0
    /// (helper-25). Seeded (`LOGBOOK_PLIST_DATE_SEED`): every field in and just out of its range,
    /// years of other widths and signs; a text is taken exactly when it is `YYYY-MM-DDTHH:MM:SSZ`
    /// naming a day and time that exist in the years 0001 to 9999 (year 0000 is well formed and
    /// refused as outside the range, naming the record's field). Then random whole seconds over
    /// the whole range and both ends, as Foundation's own writer writes them, import exactly.
    func testAnXMLPropertyListDateIsTheInstantItNamesOrIsRefused() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_PLIST_DATE_SEED", default: 0xDA7E)
        var random = SplitMix64(seed: seed)
        func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }
        func days(_ year: Int, _ month: Int) -> Int { month == 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31 }
        func xmlHistory(dates: [String]) -> Data {
            let records = dates.enumerated().map { index, date in
                "<array><string>00000000-0000-4000-8000-\(String(format: "%012X", index + 1))</string><date>\(date)</date>"
                    + "<array><string>Squat</string></array></array>"
            }
            return Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
                         + records.joined(separator: "\n") + "\n</array>\n</plist>\n").utf8)
        }
        for round in 0..<PropertyTestSettings.scaled(40, by: "LOGBOOK_PROPERTY_SCALE") {
            let year = random.pick([0, 1, 1582, 1900, 2000, 2024, 2026, 9999, random.int(1...9999)])
            let month = random.chance(0.7) ? random.int(1...12) : random.pick([0, 13, 99])
            let dayCount = (1...12).contains(month) ? days(year, month) : 31
            let day = random.chance(0.6) ? random.int(1...dayCount) : random.pick([0, dayCount + 1, 31, 32, 99])
            let (hour, minute, second) = random.chance(0.6) ? (random.int(0...23), random.int(0...59), random.int(0...59))
                : (random.pick([23, 24, 25, 99]), random.pick([0, 59, 60, 99]), random.pick([0, 59, 60, 61]))
            let yearText = random.chance(0.85) ? String(format: "%04d", year) : random.pick([String(year % 100), "1\(String(format: "%04d", year))", "-\(String(format: "%04d", year))"])
            let text = "\(yearText)-" + String(format: "%02d-%02dT%02d:%02d:%02dZ", month, day, hour, minute, second)
            let exists = (1...12).contains(month) && (1...days(year, month)).contains(day) && hour < 24 && minute < 60 && second < 60
            let context = "seed \(seed), round \(round), \(text)"
            let isWellFormed = yearText.utf8.count == 4 && exists
            if isWellFormed && year == 0 {
                try assertRefused("year0-\(round).plist", xmlHistory(dates: [text]), mentioning: "record 1", "field '[1] date'")
            } else if isWellFormed {
                let url = cli.folder.appendingPathComponent("date-\(round).plist")
                try xmlHistory(dates: [text]).write(to: url)
                let result = try cli.run(["import", "--dry-run", url.path])
                XCTAssertEqual(result.status, 0, "\(context): \(result.stderr)")
            } else {
                // A leap day only the Julian calendar has (1500-02-29) is a day to the drafts app's decoder, not to the history app's reader.
                let julianOnly = yearText.utf8.count == 4 && month == 2 && day == 29 && year % 4 == 0 && year < 1582 && !isLeap(year)
                    && hour < 24 && minute < 60 && second < 60
                try assertRefused("date-\(round).plist", xmlHistory(dates: [text]), mentioning: "line 4, column ", "the <date> \"\(text)\"",
                                  julianOnly ? "is a leap day only the Julian calendar has" : "is not a date and time that exist")
            }
        }
        // Foundation's writer over the whole range: every instant comes back to the second.
        let first = Date.supportedRange.lowerBound.timeIntervalSinceReferenceDate
        let last = Date.supportedRange.upperBound.timeIntervalSinceReferenceDate.rounded(.down)
        var seconds = [first, last]
        var dayNumbers = Set(seconds.map { ($0 / 86_400).rounded(.down) })
        while seconds.count < 200 {
            let candidate = random.chance(0.5) ? AdversarialDates.seconds(in: first...last, using: &random).rounded(.down)
                : Double(random.int(Int(first)...Int(last)))
            if dayNumbers.insert((candidate / 86_400).rounded(.down)).inserted { seconds.append(candidate) }
        }
        let records: [Any] = seconds.enumerated().map { index, value in
            ["00000000-0000-4000-8000-\(String(format: "%012X", index + 1))", Date(timeIntervalSinceReferenceDate: value), ["Squat"]] as [Any]
        }
        let written = cli.folder.appendingPathComponent("whole-range.xml.plist")
        try PropertyListSerialization.data(fromPropertyList: records, format: .xml, options: 0).write(to: written)
        let store = cli.folder.appendingPathComponent("whole-range.sqlite")
        let imported = try cli.run(["--db", store.path, "import", written.path], useDatabase: false)
        XCTAssertEqual(imported.status, 0, "seed \(seed): \(imported.stderr)")
        let logbook = try Logbook(path: store.path)
        let stored = try Dictionary(uniqueKeysWithValues: logbook.history.fetchAll().map { ($0.id, $0.date.timeIntervalSinceReferenceDate) })
        for (index, value) in seconds.enumerated() {
            let id = try XCTUnwrap(UUID(uuidString: "00000000-0000-4000-8000-\(String(format: "%012X", index + 1))"))
            XCTAssertEqual(stored[id], value, "seed \(seed): the instant \(value) written by Foundation")
        }
        print("ImportBadInputCLITests (LOGBOOK_PLIST_DATE_SEED=\(seed)): XML property list dates exact or refused")
    }

    /// The two calendars the apps read a `<date>` in before 1582-10-15 (``ReformCalendar``): a day
    /// only one of them has is refused where the other reads the file, naming the place, and a
    /// drafts list in UTF-16 with such dates is refused saying how to convert it; the drafts
    /// app's leap day of 1500 is the instant its `PropertyListDecoder` reads (helper-94).
    func testAnXMLDateOnlyTheOtherAppsCalendarHasIsRefusedNamingIt() throws {
        func draftList(_ date: String) -> String {
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict><key>checklist</key><array/>"
                + "<key>submittedAt</key><date>\(date)</date><key>version</key><string>julian</string><key>whatsNew</key><string></string></dict>\n</plist>\n"
        }
        let history = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array><array><string>00000000-0000-4000-8000-000000000001</string>"
            + "<date>1500-02-29T00:00:00Z</date><array><string>Squat</string></array></array></array>\n</plist>\n"
        try assertRefused("julian-leap-day.plist", text(history), mentioning: "line 3, column 74: the <date> \"1500-02-29T00:00:00Z\" is a leap day "
                            + "only the Julian calendar has; a history.plist's dates are read in the Gregorian calendar, where it is March 1st")
        try assertRefused("reform.plist", text(draftList("1582-10-10T12:00:00Z")), mentioning: "line 3, column 63: the <date> \"1582-10-10T12:00:00Z\" "
                            + "is one of the ten days the Gregorian reform skipped")
        let utf16 = draftList("1000-01-01T00:00:00Z").replacingOccurrences(of: "UTF-8", with: "UTF-16")
        try assertRefused("utf16.plist", try XCTUnwrap(utf16.data(using: .utf16)), mentioning: "the <date> \"1000-01-01T00:00:00Z\" is before the "
                            + "Gregorian reform (1582-10-15)", "convert the file to UTF-8 or to a binary property list")
        // A Julian leap day's time is checked as any other's (it was taken whatever it said: helper-96),
        // and a Julian day the decoder puts before year 0001 is named by its text (it was named as
        // the rewritten `0000-12-30…`, which the file does not hold).
        try assertRefused("leap-time.plist", text(draftList("1500-02-29T99:99:99Z")), mentioning: "the <date> \"1500-02-29T99:99:99Z\" "
                            + "is not a date and time that exist")
        try assertRefused("year-one.plist", text(draftList("0001-01-01T00:00:00Z")), mentioning: "line 3, column 63: the <date> "
                            + "\"0001-01-01T00:00:00Z\" is, as the apps' PropertyListDecoder reads it (in the Julian calendar), a day before 0001-01-01")
        let leapDay = Data(draftList("1500-02-29T06:00:00Z").utf8)
        let file = cli.folder.appendingPathComponent("drafts-leap-day.plist")
        try leapDay.write(to: file)
        XCTAssertEqual(try cli.run(["-q", "import", file.path]).status, 0)
        let decoded = try XCTUnwrap(try PropertyListDecoder().decode(AppReleaseDraft.self, from: leapDay).submittedAt)
        XCTAssertEqual(try Logbook(path: cli.database.path).drafts.fetch(version: "julian").map(\.submittedAt), [decoded])
    }

    /// JSON, NDJSON and CSV in UTF-16 or UTF-32 (which Foundation's `JSONDecoder` reads, and a
    /// spreadsheet's "Unicode text" is) are refused naming the encoding and how to convert them,
    /// with or without a byte order mark, whatever the extension says (they were refused as JSON
    /// that is no array, or an unexpected character '\x00': helper-47).
    func testTextInUTF16OrUTF32IsRefusedNamingItsEncoding() throws {
        let texts = ["json": #"[{"version":"1","whatsNew":"","checklist":[]}]"#,
                     "ndjson": #"{"day":"2031-05-01","exercises":["Squat"]}"# + "\n",
                     "csv": "day,exercise\r\n2031-05-01,Squat\r\n"]
        let encodings: [(name: String, encoding: String.Encoding, mark: [UInt8])] = [
            ("UTF-16LE", .utf16LittleEndian, [0xFF, 0xFE]), ("UTF-16BE", .utf16BigEndian, [0xFE, 0xFF]),
            ("UTF-32LE", .utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]), ("UTF-32BE", .utf32BigEndian, [0x00, 0x00, 0xFE, 0xFF]),
        ]
        for (format, text) in texts {
            for (name, encoding, mark) in encodings {
                let body = try XCTUnwrap(text.data(using: encoding))
                for (marked, bytes) in [(true, Data(mark) + body), (false, body)] {
                    for fileName in ["wide-\(name)-\(marked).\(format)", "wide-\(name)-\(marked).txt"] {
                        try assertRefused(fileName, bytes, extra: fileName.hasSuffix(".txt") ? ["--kind", format == "json" ? "drafts" : "history"] : [],
                                          mentioning: "it is text in \(name)\(marked ? " (by its byte order mark)" : ";")", "iconv -f \(name) -t UTF-8")
                    }
                }
            }
        }
    }

    func testMissingFileAndUnknownFormat() throws {
        let missing = try cli.run(["import", cli.folder.appendingPathComponent("nope.json").path])
        XCTAssertFailure(missing, status: 1, mentioning: "no such file")
        // A file that cannot be opened is named with the system's reason (every one was "no such
        // file" or "permission denied"; helper-66).
        let folder = cli.folder.appendingPathComponent("sub.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let loop = cli.folder.appendingPathComponent("loop.json").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let socketPath = cli.folder.appendingPathComponent("s.json").path
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in bytes.copyBytes(from: Array(socketPath.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        for (path, reason) in [(folder.path, "it is a folder"), (loop, String(cString: strerror(ELOOP))), (socketPath, String(cString: strerror(ENXIO))),
                               (cli.folder.appendingPathComponent(String(repeating: "a", count: 300) + ".json").path, String(cString: strerror(ENAMETOOLONG)))] {
            XCTAssertFailure(try cli.run(["import", path]), status: 1, mentioning: "cannot read \(path): \(reason)")
        }
        try assertRefused("binary.dat", Data([0x00, 0x01, 0x02, 0xFF]), mentioning: "cannot tell the format")
        try assertRefused("empty.json.txt", Data(), mentioning: "it is empty, so its format cannot be told")
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// Standard input that cannot be read (a folder) or is closed: one error line in words.
    func testStandardInputThatCannotBeReadIsNamedInWords() throws {
        for (redirect, message) in [("< /", "stdin: cannot read it: Is a directory"),
                                    ("<&-", "import -: standard input is closed")] {
            let result = try ExternalProgram.run("/bin/bash", ["-c", "\"$LOGBOOK\" --db \"$DB\" import - \(redirect)"], in: cli.folder,
                                                 environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin", "LOGBOOK": CLIHarness.executable.path,
                                                               "DB": cli.database.path])
            XCTAssertEqual(result.status, 1, result.errors)
            XCTAssertEqual(result.errors, "logbook: error: \(message)\n")
        }
        XCTAssertEqual(cli.snapshot(), before)
    }
}
