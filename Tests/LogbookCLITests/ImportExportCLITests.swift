import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// `import` and `export` on the apps' own files, checked against values computed here with the
/// apps' own decoders, and round trips through every format.
final class ImportExportCLITests: XCTestCase {
    private let newYork = ["--time-zone", "America/New_York"]

    // MARK: The apps' loaders, as the apps themselves load their files

    /// HIITFit's loader: `PropertyListSerialization` into `[[Any]]`.
    private func loadHistoryPlist(_ data: Data) throws -> [(id: String, date: Date, exercises: [String])] {
        let plist = try XCTUnwrap(try PropertyListSerialization.propertyList(from: data, format: nil) as? [[Any]])
        return try plist.map { item in
            (try XCTUnwrap(item[0] as? String), try XCTUnwrap(item[1] as? Date), try XCTUnwrap(item[2] as? [String]))
        }
    }

    func testImportsEveryFixtureExactly() throws {
        let cli = try CLIHarness()
        let history = try cli.run(newYork + ["import", CLIHarness.fixture("history.plist").path])
        XCTAssertEqual(history.status, 0, history.stderr)
        XCTAssertTrue(history.stderr.hasPrefix("logbook: imported history: read 30, inserted 30, skipped 0, merged 0, replaced 0 in "),
                      history.stderr)

        // The same history as JSON: every id is already there, so nothing changes.
        let again = try cli.run(newYork + ["import", CLIHarness.fixture("history.json").path])
        XCTAssertTrue(again.stderr.contains("read 30, inserted 0, skipped 30, merged 0"), again.stderr)

        let expected = try loadHistoryPlist(try Data(contentsOf: CLIHarness.fixture("history.plist")))
        let listed = try JSONSerialization.jsonObject(with: Data(try cli.run(["history", "list", "--format", "json"]).stdout.utf8)) as? [[String: Any]]
        let byID = Dictionary(uniqueKeysWithValues: (listed ?? []).map { ($0["id"] as? String ?? "", $0) })
        XCTAssertEqual(byID.count, 30)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        for entry in expected {
            let record = try XCTUnwrap(byID[entry.id])
            XCTAssertEqual(record["exercises"] as? [String], entry.exercises)
            XCTAssertEqual(record["date"] as? String, entry.date.iso8601Microseconds)
            let parts = calendar.dateComponents([.year, .month, .day], from: entry.date)
            XCTAssertEqual(record["day"] as? String, String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!))
        }
        // Dates are stored exactly as the app's Double.
        let stored = try Connection(path: cli.database.path).scalar(
            "SELECT date FROM exercise_days WHERE id = ?", [.text(expected[0].id)], as: Double.self)
        XCTAssertEqual(stored?.bitPattern, expected[0].date.timeIntervalSinceReferenceDate.bitPattern)

        for file in ["drafts.json", "release-draft.plist", "release-draft-unsubmitted.xml.plist", "release-draft-multiline.xml.plist"] {
            let result = try cli.run(["import", CLIHarness.fixture(file).path])
            XCTAssertEqual(result.status, 0, "\(file): \(result.stderr)")
        }
        XCTAssertEqual(try cli.run(["count", "drafts"]).stdout, "13\n")
        let submitted = try cli.run(["drafts", "show", "2.4.0", "--format", "json"]).stdout
        XCTAssertTrue(submitted.contains("\"submittedAt\":\"2025-05-14T16:42:07.318904Z\""), submitted)
        XCTAssertTrue(try cli.run(["drafts", "show", "2.4.0"]).stdout.contains("checklist:  6 of 7 done"))
        XCTAssertTrue(try cli.run(["drafts", "show", "2.5.0"]).stdout.contains("checklist:  2 of 5 done"))

        // Content-derived ids: importing the apps' drafts again changes nothing.
        let before = cli.snapshot()
        let repeated = try cli.run(["import", CLIHarness.fixture("drafts.json").path])
        XCTAssertTrue(repeated.stderr.contains("read 10, inserted 0, skipped 10"), repeated.stderr)
        XCTAssertEqual(cli.snapshot(), before)
    }

    func testDraftsJSONMatchesTheAppsDecoder() throws {
        let cli = try CLIHarness()
        try cli.run(["import", CLIHarness.fixture("drafts.json").path])
        let decoded = try JSONDecoder().decode([AppReleaseDraft].self, from: Data(contentsOf: CLIHarness.fixture("drafts.json")))
        let exported = cli.folder.appendingPathComponent("drafts.plist")
        XCTAssertEqual(try cli.run(["export", "drafts", "-o", exported.path]).status, 0)
        let reloaded = try PropertyListDecoder().decode([AppReleaseDraft].self, from: Data(contentsOf: exported))
        XCTAssertEqual(reloaded.count, decoded.count)
        XCTAssertEqual(reloaded, decoded, "the app decodes exactly what it wrote, dates to the bit")
    }

    /// A draft whose `submittedAt` is written `-0` is stored at 0 (SQLite keeps -0.0 as 0.0, the
    /// same instant); its id from its content is that of 0, so importing its own export, in every
    /// format, adds nothing (it was a second draft from the plist and the app's JSON).
    func testADraftSubmittedAtMinusZeroIsOneDraftThroughItsOwnExports() throws {
        let cli = try CLIHarness()
        let file = cli.folder.appendingPathComponent("minus-zero.json")
        try Data(#"[{"version":"1.0","whatsNew":"x","checklist":[],"submittedAt":-0}]"#.utf8).write(to: file)
        XCTAssertEqual(try cli.run(["import", file.path]).status, 0)
        for format in ["plist", "json", "ndjson", "csv"] {
            let exported = cli.folder.appendingPathComponent("drafts.\(format)")
            XCTAssertEqual(try cli.run(["export", "drafts", "-o", exported.path]).status, 0)
            let reimport = try cli.run(["import", exported.path])
            XCTAssertTrue(reimport.stderr.contains("inserted 0,"), "\(format): \(reimport.stderr)")
        }
        let again = try cli.run(["import", file.path])
        XCTAssertTrue(again.stderr.contains("inserted 0,"), again.stderr)
        XCTAssertEqual(try cli.run(["count", "drafts"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1")
    }

    func testExportedPlistsAreTheAppsOwnBytes() throws {
        let cli = try CLIHarness()
        try cli.run(newYork + ["import", CLIHarness.fixture("history.plist").path])
        try cli.run(["import", CLIHarness.fixture("release-draft.plist").path])
        let output = cli.folder.appendingPathComponent("history.plist")
        XCTAssertEqual(try cli.run(["export", "history", "-o", output.path]).status, 0)
        XCTAssertEqual(try Data(contentsOf: output), try Data(contentsOf: CLIHarness.fixture("history.plist")))

        let single = try PropertyListDecoder().decode(AppReleaseDraft.self,
                                                      from: try Data(contentsOf: CLIHarness.fixture("release-draft.plist")))
        let exported = cli.folder.appendingPathComponent("rd.plist")
        FileManager.default.createFile(atPath: exported.path, contents: nil)
        let process = try cli.runToFile(["drafts", "show", "2.4.0", "--format", "plist"], output: exported)
        XCTAssertEqual(process, 0)
        XCTAssertEqual(try Data(contentsOf: exported), try Data(contentsOf: CLIHarness.fixture("release-draft.plist")))
        XCTAssertEqual(try PropertyListDecoder().decode(AppReleaseDraft.self, from: Data(contentsOf: exported)), single)
    }

    func testRoundTripsAreByteIdenticalInEveryFormat() throws {
        let source = try CLIHarness()
        try source.run(newYork + ["import", CLIHarness.fixture("history.plist").path])
        for file in ["drafts.json", "release-draft.plist", "release-draft-unsubmitted.xml.plist", "release-draft-multiline.xml.plist"] {
            try source.run(["import", CLIHarness.fixture(file).path])
        }
        try source.run(["drafts", "add", "--version", "9.9", "--whats-new", "quote \" comma , newline\r\nend", "--item", "x,\"y\""])
        for kind in ["drafts", "history"] {
            for format in ["json", "ndjson", "csv", "plist"] {
                let first = source.folder.appendingPathComponent("\(kind)-1.\(format)")
                XCTAssertEqual(try source.run(["export", kind, "--format", format, "-o", first.path]).status, 0)
                let target = try CLIHarness()
                let imported = try target.run(newYork + ["import", first.path])
                XCTAssertEqual(imported.status, 0, "\(kind) \(format): \(imported.stderr)")
                let second = target.folder.appendingPathComponent("\(kind)-2.\(format)")
                XCTAssertEqual(try target.run(["export", kind, "--format", format, "-o", second.path]).status, 0)
                XCTAssertEqual(try Data(contentsOf: first), try Data(contentsOf: second), "\(kind) \(format) round trip")
                let before = target.snapshot()
                let reimport = try target.run(newYork + ["import", first.path])
                XCTAssertTrue(reimport.stderr.contains("inserted 0,"), reimport.stderr)
                XCTAssertEqual(target.snapshot(), before, "re-importing \(kind) \(format) is a no-op")
            }
        }
    }

    /// A property list is read whole, so an import reads at most 512 MiB of one: an export that
    /// would be larger (here one draft of nine 64 MiB texts, each within the limit of a field) is
    /// refused before a byte is written (the error is thrown before the output's first write, so
    /// stdout gets nothing either), rather than written as a file no import takes back (it was
    /// written, 603,980,449 bytes, exit 0; helper-16). `drafts show --format plist` of that draft
    /// (the library's `releaseDraftPropertyList`) is refused the same way: it wrote the file too.
    /// About a minute and a half in a debug build.
    func testAPropertyListLargerThanAnImportReadsIsNeverWritten() throws {
        let cli = try CLIHarness()
        do {
            let store = try Logbook(path: cli.database.path)
            let text = { (first: Character) in String(first) + String(repeating: "x", count: (64 << 20) - 1) }
            try store.drafts.save(ReleaseDraft(version: "big", whatsNew: text("w"),
                                               checklist: "abcdefgh".map { ChecklistItem(title: text($0)) }))
        }
        let toFile = try cli.run(["export", "drafts", "--format", "plist", "-o", "big.plist"])
        XCTAssertEqual(toFile.status, 1, toFile.stderr)
        XCTAssertTrue(toFile.stderr.contains("an import reads at most 512 MiB of one"), toFile.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("big.plist").path))
        let shown = try cli.run(["drafts", "show", "big", "--format", "plist"])
        XCTAssertEqual(shown.status, 1, shown.stderr)
        XCTAssertTrue(shown.stderr.contains("an import reads at most 512 MiB of one"), shown.stderr)
        XCTAssertTrue(shown.stderr.contains("give it as JSON instead"), shown.stderr)
        XCTAssertEqual(shown.output.count, 0, "not a byte of the property list on stdout")
        let shownToFile = try cli.run(["drafts", "show", "big", "--format", "plist", "-o", "big-draft.plist"])
        XCTAssertEqual(shownToFile.status, 1, shownToFile.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("big-draft.plist").path))
    }

    /// A `history.plist` has no day, so a record whose day is not its date's day in the time zone
    /// comes back on its date's day: the export says so on stderr, and writes the file all the same.
    func testAPropertyListExportSaysWhichDaysAnImportWouldMove() throws {
        let cli = try CLIHarness()
        let file = cli.folder.appendingPathComponent("days.ndjson")
        try Data(("""
            {"id":"AAAAAAAA-0000-4000-8000-000000000001","day":"2030-01-05","date":"2030-01-01T10:00:00Z","exercises":["a"]}
            {"id":"AAAAAAAA-0000-4000-8000-000000000002","day":"2030-01-02","date":"2030-01-02T10:00:00Z","exercises":["b"]}

            """).utf8).write(to: file)
        XCTAssertEqual(try cli.run(["import", file.path]).status, 0)
        let all = try cli.run(["export", "history", "--format", "plist"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stderr.hasPrefix("logbook: warning: 1 of the days exported is not its date's day"), all.stderr)
        XCTAssertTrue(all.stderr.contains("first: 2030-01-05, date 2030-01-01T10:00:00.000000Z"), all.stderr)
        XCTAssertEqual(try loadHistoryPlist(all.output).count, 2)
        XCTAssertEqual(try cli.run(["-q", "export", "history", "--format", "plist"]).stderr, all.stderr, "a warning is no confirmation: -q shows it")
        let inUTC = try cli.run(["export", "history", "--format", "plist", "--time-zone", "UTC"]).stderr
        XCTAssertTrue(inUTC.contains("date's day in UTC (first: 2030-01-05"), "UTC is named UTC, not Foundation's GMT: \(inUTC)")
        let onTheirDays = try cli.run(["export", "history", "--format", "plist", "--where", "day < 2030-01-03"])
        XCTAssertEqual(onTheirDays.stderr, "")
        XCTAssertEqual(try loadHistoryPlist(onTheirDays.output).map(\.id), ["AAAAAAAA-0000-4000-8000-000000000002"])
    }

    /// `--on-conflict replace` of a record that an earlier replace moved onto another record's day
    /// (so that its id became an alias there) gives the file's records whatever their order, and
    /// importing the file again changes nothing: the alias was skipped, and the replacement of the
    /// record it pointed to then dropped it, so the order of the two records decided the result.
    func testReplaceOfARecordMergedIntoAnotherIsOrderFreeAndIdempotent() throws {
        let (x, z) = ("AAAAAAAA-0000-4000-8000-000000000001", "CCCCCCCC-0000-4000-8000-000000000003")
        let records = [#"{"id":"\#(x)","day":"2030-01-01","date":"2030-01-01T10:00:00Z","exercises":["a"]}"#,
                       #"{"id":"\#(z)","day":"2030-01-02","date":"2030-01-02T10:00:00Z","exercises":["z"]}"#]
        let moved = #"{"id":"\#(x)","day":"2030-01-02","date":"2030-01-02T09:00:00Z","exercises":["a2"]}"#
        var results: [Data] = []
        for order in [records, records.reversed()] {
            let cli = try CLIHarness()
            func file(_ name: String, _ lines: [String]) throws -> String {
                let url = cli.folder.appendingPathComponent(name)
                try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: url)
                return url.path
            }
            XCTAssertEqual(try cli.run(["import", try file("first.ndjson", records)]).status, 0)
            let move = try cli.run(["import", try file("move.ndjson", [moved]), "--on-conflict", "replace"])
            XCTAssertTrue(move.stderr.contains("merged 0, replaced 1"), "a stored record replaced: \(move.stderr)")
            let again = try file("again.ndjson", order)
            XCTAssertEqual(try cli.run(["import", again, "--on-conflict", "replace"]).status, 0)
            let exported = try cli.run(["export", "history", "--format", "ndjson"]).output
            XCTAssertEqual(try cli.run(["import", again, "--on-conflict", "replace"]).status, 0)
            XCTAssertEqual(try cli.run(["export", "history", "--format", "ndjson"]).output, exported, "importing again changes nothing")
            XCTAssertEqual(try cli.run(["check"]).status, 0)
            results.append(exported)
        }
        XCTAssertEqual(results[0], results[1], "the order of the file's records decides nothing")
        XCTAssertEqual(String(decoding: results[0], as: UTF8.self).split(separator: "\n").map { $0.contains(#""exercises":["a"]"#) || $0.contains(#""exercises":["z"]"#) },
                       [true, true], "each record as the file gives it")
    }

    /// A stored record that another record was merged into (its id an alias there) is never
    /// replaced by one of another day: the merged record's exercises would go with it, in silence.
    /// The file is refused, naming both, and changes nothing; replaced on its own day it keeps the
    /// alias, so the merged record is still known.
    func testReplaceNeverDropsARecordMergedIntoTheOneReplaced() throws {
        let (a, b) = ("AAAAAAAA-0000-4000-8000-000000000001", "BBBBBBBB-0000-4000-8000-000000000002")
        let cli = try CLIHarness()
        func file(_ name: String, _ lines: [String]) throws -> String {
            let url = cli.folder.appendingPathComponent(name)
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: url)
            return url.path
        }
        XCTAssertEqual(try cli.run(["import", try file("first.ndjson", [#"{"id":"\#(a)","day":"2026-01-01","exercises":["x"]}"#,
                                                                         #"{"id":"\#(b)","day":"2026-01-02","exercises":["y"]}"#])]).status, 0)
        // B moves onto A's day (merged into A's record), then A moves away: refused whole.
        let bOntoA = #"{"id":"\#(b)","day":"2026-01-01","exercises":["y"]}"#, aAway = #"{"id":"\#(a)","day":"2026-01-03","exercises":["x"]}"#
        let before = cli.snapshot()
        XCTAssertFailure(try cli.run(["import", try file("move.ndjson", [bOntoA, aAway]), "--on-conflict", "replace"]), status: 1,
                         mentioning: "record 2, line 2: field 'day'", "holds a record merged into it (\(b))", "replace it on 2026-01-01")
        XCTAssertEqual(cli.snapshot(), before)
        // In two imports the same.
        XCTAssertEqual(try cli.run(["import", try file("b.ndjson", [bOntoA]), "--on-conflict", "replace"]).status, 0)
        let merged = cli.snapshot()
        XCTAssertFailure(try cli.run(["import", try file("a.ndjson", [aAway]), "--on-conflict", "replace"]), status: 1,
                         mentioning: "holds a record merged into it")
        XCTAssertEqual(cli.snapshot(), merged)
        // Replaced on its own day, A keeps B as merged into it: importing B again changes nothing.
        XCTAssertEqual(try cli.run(["import", try file("a2.ndjson", [#"{"id":"\#(a)","day":"2026-01-01","exercises":["x","y","z"]}"#]),
                                    "--on-conflict", "replace"]).status, 0)
        let replaced = try cli.run(["export", "history", "--format", "ndjson"]).output
        XCTAssertEqual(try cli.run(["import", try file("b-again.ndjson", [bOntoA])]).status, 0)
        XCTAssertEqual(try cli.run(["export", "history", "--format", "ndjson"]).output, replaced)
        XCTAssertEqual(try cli.run(["check"]).status, 0)
    }

    func testSameDayEntriesMergeAndReimportIsANoOp() throws {
        let cli = try CLIHarness()
        let file = cli.folder.appendingPathComponent("days.ndjson")
        let lines = [
            #"{"id":"00000000-0000-0000-0000-000000000001","date":"2026-01-10T08:00:00Z","exercises":["Squat"]}"#,
            #"{"id":"00000000-0000-0000-0000-000000000002","date":"2026-01-10T20:00:00Z","exercises":["Burpee","Row"]}"#,
            #"{"id":"00000000-0000-0000-0000-000000000003","date":"2026-01-11T08:00:00Z","day":"2026-01-11","exercises":["Plank"]}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let first = try cli.run(["import", file.path])
        XCTAssertTrue(first.stderr.contains("read 3, inserted 2, skipped 0, merged 1, replaced 0"), first.stderr)
        let day = try cli.run(["history", "list", "--where", "day == 2026-01-10", "--format", "ndjson"]).stdout
        XCTAssertTrue(day.contains("\"exercises\":[\"Squat\",\"Burpee\",\"Row\"]"), day)
        let before = cli.snapshot()
        let second = try cli.run(["import", file.path])
        XCTAssertTrue(second.stderr.contains("read 3, inserted 0, skipped 3, merged 0"), second.stderr)
        XCTAssertEqual(cli.snapshot(), before)
    }

    func testConflictPoliciesAndDryRun() throws {
        let cli = try CLIHarness()
        let file = cli.folder.appendingPathComponent("days.json")
        try Data(#"[{"id":"00000000-0000-0000-0000-000000000001","date":760000000,"exercises":["Squat"]}]"#.utf8).write(to: file)
        let dry = try cli.run(["import", file.path, "--dry-run"])
        XCTAssertTrue(dry.stderr.contains("dry run history, nothing written: read 1, inserted 1"), dry.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path), "a dry run creates no database")
        try cli.run(["import", file.path])
        try Data(#"[{"id":"00000000-0000-0000-0000-000000000001","date":760000000,"exercises":["Row","Row"]}]"#.utf8).write(to: file)
        let before = cli.snapshot()
        XCTAssertFailure(try cli.run(["import", file.path, "--on-conflict", "fail"]), status: 1,
                         mentioning: file.path, "record 1", "field 'id'", "already exists")
        XCTAssertEqual(cli.snapshot(), before)
        let replaced = try cli.run(["import", file.path, "--on-conflict", "replace"])
        XCTAssertTrue(replaced.stderr.contains("replaced 1"), replaced.stderr)
        XCTAssertTrue(try cli.run(["history", "list", "--format", "ndjson"]).stdout.contains("[\"Row\",\"Row\"]"))
        XCTAssertFailure(try cli.run(["import", file.path, "--on-conflict", "merge"]), status: 2, mentioning: "skip, replace, fail")
    }

    func testStdinAndFormatSniffing() throws {
        let cli = try CLIHarness()
        let json = try String(contentsOf: CLIHarness.fixture("history.json"), encoding: .utf8)
        let result = try cli.run(newYork + ["import", "-"], stdin: json)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("read 30, inserted 30"), result.stderr)
        let csv = try cli.run(["export", "history", "--format", "csv"]).stdout
        let target = try CLIHarness()
        XCTAssertTrue(try target.run(["import", "-"], stdin: csv).stderr.contains("inserted 30"))
        // A PostgreSQL script or an HTML report, by its name, is what no import reads: said so (a
        // script was read as CSV, its first line an unknown column of a history file; helper-6).
        for (arguments, name) in [(["export", "drafts", "--format", "postgres"], "drafts.sql"), (["report", "history", "--format", "html"], "r.HTML")] {
            let file = cli.folder.appendingPathComponent(name)
            XCTAssertEqual(try cli.run(arguments + ["-o", file.path]).status, 0)
            XCTAssertFailure(try target.run(["import", file.path]), status: 1, mentioning: name, "which no import reads")
        }
        // A JSON array in a file named for NDJSON is named as such (it was "cannot tell drafts from history").
        let misnamed = cli.folder.appendingPathComponent("days.jsonl")
        XCTAssertEqual(try cli.run(["export", "history", "--format", "json", "-o", misnamed.path]).status, 0)
        XCTAssertFailure(try target.run(["import", misnamed.path]), status: 1, mentioning: "a JSON array", "pass --format json")
        XCTAssertTrue(try target.run(["import", "--format", "json", misnamed.path]).stderr.contains("skipped 30"))
    }

    /// Without `--format`, `-o`'s extension names the format on every command that writes one, by
    /// the table `import` reads: `export -o h.jsonl` wrote a JSON array, which `import h.jsonl`
    /// read as NDJSON and refused, and the listings wrote a table into `x.json` (helper-3).
    /// `--format` given wins; an extension the command does not write leaves its default.
    func testOutputFilesExtensionNamesTheFormat() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(newYork + ["import", CLIHarness.fixture("history.json").path]).status, 0)
        let ndjson = try cli.run(["export", "history", "--format", "ndjson"]).stdout
        for name in ["h.jsonl", "h.NDJSON"] {
            let file = cli.folder.appendingPathComponent(name)
            XCTAssertEqual(try cli.run(["-q", "export", "history", "-o", file.path]).status, 0)
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), ndjson, name)
            let target = try CLIHarness()
            let imported = try target.run(["import", file.path])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            XCTAssertEqual(try target.run(["export", "history", "--format", "ndjson"]).stdout, ndjson, name)
        }
        let cases: [(arguments: [String], file: String, format: [String])] = [
            (["history", "list"], "days.csv", ["--format", "csv"]),
            (["history", "list"], "days.json", ["--format", "json"]),
            (["drafts", "list"], "drafts.ndjson", ["--format", "ndjson"]),
            (["count", "history"], "count.json", ["--format", "json"]),
            (["report", "history", "--by", "month"], "report.html", ["--format", "html"]),
            (["report", "exercises"], "exercises.csv", ["--format", "csv"]),
            (["query", "SELECT count(*) AS n FROM exercises"], "n.csv", ["--format", "csv"]),
            (["changes"], "feed.sql", ["--format", "postgres"]),
            (["export", "drafts"], "drafts.csv", ["--format", "csv"]),
            (["history", "list"], "days.txt", []),
            (["history", "list", "--format", "table"], "days.json", ["--format", "table"]),
            (["history", "list", "--format", "table"], "days.sql", ["--format", "table"]),
        ]
        for (arguments, name, format) in cases {
            let file = cli.folder.appendingPathComponent(name)
            let result = try cli.run(arguments + ["-o", file.path])
            XCTAssertEqual(result.status, 0, "\(arguments) -o \(name): \(result.stderr)")
            let expected = try cli.run(arguments + format).output
            if name == "feed.sql" || name == "report.html" {
                // Stamped with the time they were made: compared without their lines that say when.
                let year = String(Date().iso8601Microseconds.prefix(5))  // "2026-": the year the script was made, in UTC
                let undated = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.contains(year) && !$0.contains("exported") } }
                XCTAssertEqual(undated(try Data(contentsOf: file)), undated(expected), "\(arguments) -o \(name)")
                continue
            }
            XCTAssertEqual(try Data(contentsOf: file), expected, "\(arguments) -o \(name)")
        }
        // An extension naming a format the command does not write is a usage error, not a table in days.html.
        for (arguments, name) in [(["history", "list"], "list.sql"), (["drafts", "show", "1.0"], "x.sql"), (["changes"], "feed.json"),
                                  (["export", "history"], "h.html")] {
            XCTAssertFailure(try cli.run(arguments + ["-o", cli.folder.appendingPathComponent(name).path]), status: 2,
                             mentioning: "names", "by its extension", "does not write", "give --format")
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent(name).path), name)
        }
    }

    /// What a person writes in a spreadsheet or a script: days or dates and exercise names, no ids,
    /// no positions; re-importing it changes nothing, and a day split over two ids is named.
    func testHandMadeHistoryImportsAndReimportsAsANoOp() throws {
        let cli = try CLIHarness()
        let paris = ["--time-zone", "Europe/Paris"]
        let csv = cli.folder.appendingPathComponent("workouts.csv")
        try Data("day,exercise\r\n2026-03-14,Squat\r\n2026-03-14,Squat\r\n2026-03-14,Row\r\n2026-03-15,Burpee\r\n\r\n".utf8).write(to: csv)
        let ndjson = cli.folder.appendingPathComponent("more.ndjson")
        try Data(("""
            {"day":"2026-03-16","exercise":"Plank"}
            {"day":"2026-03-16","exercise":"Plank"}
            {"date":"2026-03-17T07:30:00Z","exercises":["Row","Lunge"]}
            {"date":"2026-03-14T18:00:00Z","exercise":"Lunge"}

            """).utf8).write(to: ndjson)
        let json = cli.folder.appendingPathComponent("list.json")
        try Data(#"[{"day":"2026-03-19","exercises":["Squat","Squat"]}]"#.utf8).write(to: json)
        // Both columns, a row filling only its date: the day is the date's (it was refused; helper-19).
        let both = cli.folder.appendingPathComponent("both.csv")
        try Data("day,date,exercise\r\n,2026-03-20T08:00:00Z,Swim\r\n2026-03-21,,Swim\r\n".utf8).write(to: both)
        for file in [csv, ndjson, json, both] {
            let first = try cli.run(paris + ["import", file.path])
            XCTAssertEqual(first.status, 0, first.stderr)
            let again = try cli.run(paris + ["import", file.path])
            XCTAssertTrue(again.stderr.contains("inserted 0, skipped"), "re-importing \(file.lastPathComponent): \(again.stderr)")
            XCTAssertTrue(again.stderr.contains("merged 0"), again.stderr)
        }
        let listed = try cli.run(paris + ["history", "list", "--format", "csv"]).lines.dropFirst()
            .map { $0.dropLast().split(separator: ",").dropFirst().map(String.init) }
        XCTAssertEqual(listed.map { "\($0[0]) \($0[2]) \($0[3])" }, [
            "2026-03-14 1 Squat", "2026-03-14 2 Squat", "2026-03-14 3 Row", "2026-03-14 4 Lunge", "2026-03-15 1 Burpee",
            "2026-03-16 1 Plank", "2026-03-16 2 Plank", "2026-03-17 1 Row", "2026-03-17 2 Lunge",
            "2026-03-19 1 Squat", "2026-03-19 2 Squat", "2026-03-20 1 Swim", "2026-03-21 1 Swim",
        ])
        XCTAssertEqual(listed.first?[1], "2026-03-13T23:00:00.000000Z", "a day without a time starts at its midnight in the zone")
        XCTAssertEqual(try cli.run(["check"]).status, 0)

        // The same workout twice in a file is two workouts; positions without ids are the file's order.
        let twice = cli.folder.appendingPathComponent("twice.csv")
        try Data("day,position,exercise\n2026-04-05,1,Squat\n2026-04-06,1,Run\n2026-04-05,2,Squat\n".utf8).write(to: twice)
        for _ in 0..<2 { XCTAssertEqual(try cli.run(paris + ["import", twice.path]).status, 0) }
        XCTAssertEqual(try cli.run(paris + ["history", "list", "--on", "2026-04-05", "--format", "csv"]).lines.count, 1 + 2,
                       "both Squats kept, once each")

        // An id column a spreadsheet left empty: the rows are hand-made ones, joined by day (it was
        // refused: the empty cells were one id, "rows of day  disagree").
        let blank = cli.folder.appendingPathComponent("blank-ids.csv")
        try Data("id,day,exercise\n,2026-04-10,Row\n,2026-04-11,Row\n,2026-04-11,Squat\n".utf8).write(to: blank)
        let imported = try cli.run(paris + ["import", blank.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("read 2, inserted 2"), imported.stderr)
        XCTAssertEqual(try cli.run(paris + ["history", "list", "--on", "2026-04-11", "--format", "csv"]).lines.count, 1 + 2)

        let split = cli.folder.appendingPathComponent("split.csv")
        try Data(("id,day,date,position,exercise\r\n"
            + "AAAAAAAA-0000-0000-0000-000000000001,2026-03-20,2026-03-20T08:00:00.000000Z,1,Squat\r\n"
            + "AAAAAAAA-0000-0000-0000-000000000002,2026-03-20,2026-03-20T08:00:00.000000Z,2,Row\r\n").utf8).write(to: split)
        let before = try Data(contentsOf: cli.database)
        XCTAssertFailure(try cli.run(["import", split.path]), status: 1,
                         mentioning: "rows of 2026-03-20 carry different ids", "line 2", "line 3")
        XCTAssertEqual(try Data(contentsOf: cli.database), before)
    }
}


extension CLIHarness {
    /// Runs `logbook` with stdout going straight to `output` (for binary output).
    func runToFile(_ arguments: [String], output: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--db", database.path] + arguments
        process.environment = ["TZ": "UTC", "HOME": folder.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
