import Foundation
import XCTest

/// Import (a dry run too) and export stream in every data format (JSON, NDJSON, CSV): a file five
/// times larger takes about the same peak memory; so do query rows a hundred thousand times bigger.
final class MemoryCLITests: XCTestCase {
    /// Peak resident size in KiB of `logbook --db DATABASE ARGUMENTS` (the harness's database
    /// unless given), measured by `/usr/bin/time`.
    private func peakKiB(_ cli: CLIHarness, _ arguments: [String], database: URL? = nil, status: Int32 = 0) throws -> Int {
        let report = cli.folder.appendingPathComponent("time-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report.path, CLIHarness.executable.path, "--db", (database ?? cli.database).path] + arguments
        // A 1 MiB page cache, so that both files outgrow it and only streaming keeps memory flat.
        process.environment = ["TZ": "UTC", "LOGBOOK_CACHE_KIB": "1024", "HOME": cli.folder.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, status, "\(arguments)")
        let text = try String(contentsOf: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try XCTUnwrap(Int(text.split(separator: "\n").last ?? ""), text)
    }

    private func writeHistory(days: Int, exercisesADay: Int = 5, to url: URL) throws {
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        var chunk = ""
        for index in 0..<days {
            let id = String(format: "00000000-0000-0000-0000-%012d", index + 1)
            let exercises = ["Squat", "Burpee", "Step Up", "Sun Salute ☀︎", "Élan"].prefix(exercisesADay).map { #""\#($0)""# }
            chunk += #"{"id":"\#(id)","date":\#(100_000_000 + index * 86_400),"exercises":[\#(exercises.joined(separator: ","))]}"# + "\n"
            if chunk.utf8.count > 1 << 16 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.write(contentsOf: Data(chunk.utf8))
        try handle.close()
    }

    func testPeakMemoryIsFlatInFileSize() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        // Each measure at 4,000 and at 20,000 days: every reader and writer of the data formats.
        var peaks: [String: [Int]] = [:]
        for days in [4_000, 20_000] {
            let cli = try CLIHarness()
            let file = cli.folder.appendingPathComponent("days.ndjson")
            try writeHistory(days: days, to: file)
            // With no database yet, a dry run writes into SQLite's temporary database, which
            // outgrows the page cache into a file (in memory it took the whole history's size).
            peaks["import --dry-run", default: []].append(try peakKiB(cli, ["import", "--dry-run", file.path]))
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path), "a dry run creates no database")
            peaks["import ndjson", default: []].append(try peakKiB(cli, ["import", file.path]))
            for format in ["csv", "json", "ndjson"] {
                let exported = cli.folder.appendingPathComponent("exported.\(format)")
                peaks["export \(format)", default: []].append(try peakKiB(cli, ["export", "history", "--format", format, "-o", exported.path]))
                guard format != "ndjson" else { continue }
                let other = cli.folder.appendingPathComponent("from-\(format).sqlite")
                peaks["import \(format)", default: []].append(try peakKiB(cli, ["import", exported.path], database: other))
            }
        }
        for (measure, sizes) in peaks.sorted(by: { $0.key < $1.key }) {
            XCTAssertLessThan(sizes[1], sizes[0] + sizes[0] / 5, "\(measure): peak KiB at 4,000 and 20,000 days: \(sizes)")
        }
        print("MemoryCLITests: peak KiB at 4,000 and 20,000 days: \(peaks.sorted { $0.key < $1.key })")
    }

    /// A hand-made history without ids imports in flat memory too: the count of identical records
    /// before each one (which gives the second `2026-01-05,Squat` of a file an id of its own) moves
    /// from memory to a temporary table after the first 100,000 contents, where a dictionary of
    /// every record's content took about 75 bytes a record (helper-70). Measured at 150,000 and
    /// 450,000 days, both past the move.
    func testAHistoryWithoutIDsImportsInFlatMemory() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        let sizes = [150_000, 450_000]
        var peaks: [Int] = []
        for days in sizes {
            let cli = try CLIHarness()
            let file = cli.folder.appendingPathComponent("days.csv")
            var text = "day,exercise\n"
            // Days 1 to 28 of every month from the year 1000 on: 336 a year.
            for index in 0..<days {
                text += String(format: "%04d-%02d-%02d,Squat\n", 1000 + index / 336, index % 336 / 28 + 1, index % 28 + 1)
            }
            try Data(text.utf8).write(to: file)
            peaks.append(try peakKiB(cli, ["-q", "import", file.path]))
            XCTAssertEqual(try cli.run(["count", "history"]).stdout, "\(days)\n")
        }
        let bytesPerDay = (peaks[1] - peaks[0]) * 1024 / (sizes[1] - sizes[0])
        XCTAssertLessThan(bytesPerDay, 30, "peak KiB importing 150,000 and 450,000 days without ids: \(peaks)")
    }

    /// A binary property list's layout needs every object before its first byte (an offset table
    /// at the end, widths from the object count), so its export cannot stream; it holds its
    /// objects compactly instead, and writes the file in pieces: the peak grows by at most five
    /// times what the file grows by (sixteen before: the records, a tree of their values, an
    /// array per object and the whole file in one buffer; 286 MB for a 17.8 MB file).
    func testAPropertyListExportHoldsAFewTimesItsSize() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        var measures: [(peakKiB: Int, fileBytes: Int)] = []
        for days in [10_000, 50_000] {
            let cli = try CLIHarness()
            let file = cli.folder.appendingPathComponent("days.ndjson")
            try writeHistory(days: days, to: file)
            XCTAssertEqual(try cli.run(["import", file.path]).status, 0)
            let exported = cli.folder.appendingPathComponent("history.plist")
            let peak = try peakKiB(cli, ["export", "history", "--format", "plist", "-o", exported.path])
            let bytes = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: exported.path)[.size] as? Int)
            let records = try XCTUnwrap(try PropertyListSerialization.propertyList(from: Data(contentsOf: exported), format: nil) as? [[Any]])
            XCTAssertEqual(records.count, days, "every day in the file")
            measures.append((peak, bytes))
        }
        let (grownKiB, grownFileKiB) = (measures[1].peakKiB - measures[0].peakKiB, (measures[1].fileBytes - measures[0].fileBytes) / 1024)
        XCTAssertLessThan(grownKiB, 5 * grownFileKiB, "peak KiB and file bytes at 10,000 and 50,000 days: \(measures)")
        print("MemoryCLITests: property-list export, peak KiB and file bytes at 10,000 and 50,000 days: \(measures)")
    }

    /// A property list is read whole, up to 512 MiB: a file one byte larger is refused before a
    /// byte of it is read (it was read to 512 MiB first, 545 MB of memory), the database unchanged.
    func testAPropertyListFileTooLargeToReadIsRefusedWithoutReadingIt() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["import", CLIHarness.fixture("history.plist").path]).status, 0)
        let before = cli.snapshot()
        let file = cli.folder.appendingPathComponent("large.plist")
        // A sparse file: a list's start, a hole, and its end, 512 MiB and a byte in all.
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data("<?xml version=\"1.0\"?><plist><array>".utf8)))
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: UInt64(512 << 20) + 1 - UInt64("</array></plist>".utf8.count))
        try handle.write(contentsOf: Data("</array></plist>".utf8))
        try handle.close()
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int, (512 << 20) + 1)
        let peak = try peakKiB(cli, ["import", file.path], status: 1)
        XCTAssertLessThan(peak, 128 << 10, "peak KiB refusing a 512 MiB property list")
        let refused = try cli.run(["import", file.path])
        XCTAssertFailure(refused, status: 1, mentioning: "large.plist", "property list larger than 512 MiB")
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// A history report's table streams too: a thousand times the periods (every day of 3,000
    /// years, most of them without exercise, printed with zeros) take about the same memory. The
    /// table held every row to scale its trend bars to the busiest period (349 MB for 3,650,000
    /// days; helper-31); a first read of the report finds it now.
    func testAReportTableStreamsWhateverItsLength() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        let cli = try CLIHarness()
        for day in ["1000-01-01", "2026-03-01", "3999-12-31"] {
            XCTAssertEqual(try cli.run(["history", "add", "Squat", "--at", "\(day)T10:00:00Z"]).status, 0)
        }
        let short = try peakKiB(cli, ["report", "history", "--by", "day", "--from", "2026-01-01", "--to", "2028-12-31"])
        let long = try peakKiB(cli, ["report", "history", "--by", "day", "--from", "1000-01-01", "--to", "3999-12-31"])
        XCTAssertLessThan(long, short + short / 5, "peak KiB of a table of 1,096 days and of 1,095,727: \(short), \(long)")
        let table = try cli.run(["report", "history", "--by", "day", "--from", "2026-02-27", "--to", "2026-03-02"])
        XCTAssertEqual(table.lines.filter { $0.contains("Squat") }.map { $0.hasSuffix("████████████████") }, [true], table.stdout)
    }

    /// `report --format html` writes its page as it makes it, from the reports' and the drafts'
    /// streams: a range of 1,095,727 days and one of 1,096, and 1,200 open drafts of 3 and of 300
    /// checklist items, take about the same memory (the page built whole held about 3.6 times its
    /// size: 547 MB for 800,000 drafts; helper-70). The calendar's data streams too: over 3 and
    /// over 200,000 active days it takes the same (it held a dictionary of the active days).
    func testTheHTMLPageIsWrittenAsItIsMade() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        let short = ["--from", "2026-01-01", "--to", "2028-12-31"], long = ["--from", "1000-01-01", "--to", "3999-12-31"]
        var peaks: [String: [Int]] = [:]
        for items in [3, 300] {
            let cli = try CLIHarness()
            for day in ["1000-01-01", "2026-03-01", "3999-12-31"] {
                XCTAssertEqual(try cli.run(["history", "add", "Squat", "--at", "\(day)T10:00:00Z"]).status, 0)
            }
            try importDrafts(1_200, items: items, into: cli)
            for (name, range) in [("short", short), ("long", long)] {
                peaks["page, \(name) range", default: []].append(try peakKiB(cli, ["report", "--format", "html"] + range))
                peaks["calendar csv, \(name) range", default: []].append(try peakKiB(cli, ["report", "calendar", "--format", "csv"] + range))
            }
            // The page is whole: every day of the range, every item of every draft.
            let page = try cli.run(["report", "--format", "html"] + short)
            XCTAssertEqual(page.status, 0, page.stderr)
            XCTAssertEqual(page.stdout.components(separatedBy: "<li class=").count - 1, 1_200 * items)
            XCTAssertEqual(page.stdout.components(separatedBy: "<rect class=\"l").count - 1, 1_096 + 5)
            XCTAssertTrue(page.stdout.hasSuffix("</body>\n</html>\n"))
        }
        // The calendar over a range of 200,000 active days.
        let busy = try CLIHarness()
        let days = busy.folder.appendingPathComponent("days.ndjson")
        try writeHistory(days: 200_000, exercisesADay: 1, to: days)
        XCTAssertEqual(try busy.run(["-q", "import", days.path]).status, 0)
        peaks["calendar csv, 200,000 active days", default: []]
            .append(try peakKiB(busy, ["report", "calendar", "--format", "csv", "--from", "2004-01-01", "--to", "2560-12-31"]))
        let smallest = try XCTUnwrap(peaks["page, short range"]?.first)
        for (name, sizes) in peaks {
            XCTAssertLessThan(sizes.max() ?? 0, smallest + smallest / 4, "\(name): peak KiB with 3 and 300 items a draft: \(sizes)")
        }
        print("MemoryCLITests: the HTML page's and the calendar's peak KiB with 3 and 300 items a draft: \(peaks)")
    }

    /// A CSV row with more fields than the header (a line of millions of commas) is refused at its
    /// first field past the header's, before the rest of the line is read: about the memory of a
    /// row of two fields (each field was held first, 13 to 17 times the line's size: 290 MB for a
    /// line of 16 MiB; helper-70), and so is a header of more fields than both kinds have columns;
    /// a line of commas alone is a blank row, read past in the same memory.
    func testACSVRowWiderThanItsHeaderIsRefusedBeforeItIsRead() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        let cli = try CLIHarness()
        let narrow = cli.folder.appendingPathComponent("narrow.csv")
        try Data("day,exercise\n2026-01-01,a\n".utf8).write(to: narrow)
        let baseline = try peakKiB(cli, ["import", "--dry-run", narrow.path])
        let commas = String(repeating: ",", count: 16 << 20)
        for (name, text, message) in [("wide.csv", "day,exercise\n2026-01-01,a" + commas + "\n",
                                       "wide.csv: record 1, line 2, column 14: row has more fields than the header's 2"),
                                      ("header.csv", "a" + commas + "\n2026-01-01,a\n",
                                       "header.csv: line 1, column 66: the header has more than 64 columns")] {
            let file = cli.folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            let peak = try peakKiB(cli, ["import", file.path], status: 1)
            XCTAssertLessThan(peak, baseline + (16 << 10), "\(name): peak KiB \(peak) against \(baseline) for a row of two fields")
            XCTAssertFailure(try cli.run(["import", file.path]), status: 1, mentioning: message)
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.database.path), "\(name): nothing is created")
        }
        // A line of commas alone is a spreadsheet's empty row, before the header as after it: read
        // past as blank, in the same memory (its cells past the header's are not kept).
        let blank = cli.folder.appendingPathComponent("blank.csv")
        try Data((commas + "\nday,exercise\n2026-01-01,a\n" + commas + "\n").utf8).write(to: blank)
        let peak = try peakKiB(cli, ["import", "--dry-run", blank.path])
        XCTAssertLessThan(peak, baseline + (16 << 10), "blank.csv: peak KiB \(peak) against \(baseline) for a row of two fields")
    }

    /// A CSV or PostgreSQL export of one day of 200,000 exercises hands its rows on in pieces: the
    /// peak grows by about what the day's record takes, not by its rows' text several times over
    /// (all of a record's rows were gathered first: 480 and 730 bytes an exercise; helper-70).
    func testAnExportOfOneLargeDayStreamsItsRows() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        var peaks: [String: [Int]] = [:]
        let sizes = [20_000, 200_000]
        for exercises in sizes {
            let cli = try CLIHarness()
            let file = cli.folder.appendingPathComponent("day.ndjson")
            let names = (0..<exercises).map { "\"Exercise number \($0)\"" }.joined(separator: ",")
            try Data(#"{"date":800000000,"exercises":[\#(names)]}"#.utf8).write(to: file)
            XCTAssertEqual(try cli.run(["-q", "import", file.path]).status, 0)
            for format in ["csv", "postgres"] {
                let exported = cli.folder.appendingPathComponent("day.\(format)")
                peaks[format, default: []].append(try peakKiB(cli, ["export", "history", "--format", format, "-o", exported.path]))
            }
        }
        for (format, peak) in peaks.sorted(by: { $0.key < $1.key }) {
            let bytesPerExercise = (peak[1] - peak[0]) * 1024 / (sizes[1] - sizes[0])
            XCTAssertLessThan(bytesPerExercise, 200, "\(format): peak KiB of a day of 20,000 and of 200,000 exercises: \(peak)")
        }
    }

    /// `query` in a data format hands its rows to a writing thread in batches; rows of 128 KiB
    /// take about the memory of rows of one byte. (Batches were bounded by their count only:
    /// 8,192 rows of 200 KB, held three batches at a time, took 4 GB.)
    func testQueryRowsOfAnySizeKeepMemoryFlat() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["init"]).status, 0)
        for format in ["ndjson", "csv"] {
            let peaks = try [1, 128 << 10].map { size in
                try peakKiB(cli, ["query", "--format", format, """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
                    SELECT i, printf('%.*c', \(size), 'x') AS t FROM n
                    """])
            }
            // 300 rows of 128 KiB are 38 MiB.
            XCTAssertLessThan(peaks[1], peaks[0] + 16 << 10, "\(format): peak KiB with rows of 1 byte and of 128 KiB: \(peaks)")
        }
    }

    /// Imports `count` drafts, none submitted, each with a checklist of `items` items.
    private func importDrafts(_ count: Int, items: Int, into cli: CLIHarness) throws {
        let file = cli.folder.appendingPathComponent("drafts.ndjson")
        let lines = (0..<count).map { index in
            let checklist = (0..<items).map { item in
                #"{"id":"\#(UUID().uuidString)","title":"Checklist item \#(item) of draft \#(index)","isDone":\#(item % 2 == 0)}"#
            }
            return #"{"id":"\#(UUID().uuidString)","version":"1.\#(index)","whatsNew":"Notes","createdAt":\#(800_000_000 - index),"#
                + #""updatedAt":\#(800_000_000 + index * 7 % 1_200),"checklist":[\#(checklist.joined(separator: ","))]}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        XCTAssertEqual(try cli.run(["import", file.path]).status, 0)
    }

    /// Listing drafts holds one at a time whatever their checklists' length, in every order and
    /// page: the same 1,200 drafts with 3 and with 300 items each take about the same memory.
    /// A page with a LIMIT or a condition with a subquery read its drafts 1,000 at a time with
    /// every item (34 MB more for these), and an order no index holds sorted every item first.
    func testDraftListingsHoldOneDraftWhateverItsChecklist() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        let listings = [
            ["drafts", "list"],
            ["drafts", "list", "--sort", "version", "--format", "ndjson"],
            ["drafts", "list", "--where", "checklist.doneCount < checklist.count", "--format", "json"],
            ["drafts", "list", "--sort", "updatedAt:desc", "--limit", "1100", "--format", "csv"],
        ]
        var peaks: [[Int]] = Array(repeating: [], count: listings.count)
        for items in [3, 300] {
            let cli = try CLIHarness()
            try importDrafts(1_200, items: items, into: cli)
            for (index, listing) in listings.enumerated() { peaks[index].append(try peakKiB(cli, listing)) }
        }
        for (listing, sizes) in zip(listings, peaks) {
            XCTAssertLessThan(sizes[1], sizes[0] + sizes[0] / 5, "\(listing.joined(separator: " ")): peak KiB with 3 and 300 items a draft: \(sizes)")
        }
        print("MemoryCLITests: drafts listings' peak KiB with 3 and 300 items a draft: \(peaks)")
    }

    /// The change feed holds no list of the records it sends: ten times the changed days, logged
    /// (a rename touches every day) and unlogged (imported after the token), take about the same
    /// memory. A dictionary of every changed record held 256 MB after 1,000,000 edits (helper-31).
    func testTheChangeFeedKeepsMemoryFlatWhateverChanged() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("/usr/bin/time (Debian package 'time') is needed to measure peak memory")
        }
        var peaks: [Int] = []
        for days in [10_000, 100_000] {
            let cli = try CLIHarness()
            let token = cli.folder.appendingPathComponent("sync.token")
            XCTAssertEqual(try cli.run(["history", "add", "Squat", "--at", "2026-03-01T10:00:00Z"]).status, 0)
            XCTAssertEqual(try cli.run(["changes", "--state", token.path, "--format", "ndjson"]).status, 0)
            let saved = try Data(contentsOf: token)
            let file = cli.folder.appendingPathComponent("days.ndjson")
            try writeHistory(days: days, to: file)
            XCTAssertEqual(try cli.run(["import", file.path]).status, 0)
            XCTAssertEqual(try cli.run(["history", "rename", "Squat", "Lift"]).status, 0)
            peaks.append(try peakKiB(cli, ["changes", "--state", token.path, "--format", "ndjson"]))
            try saved.write(to: token)
            let feed = try cli.run(["changes", "--state", token.path, "--format", "ndjson"])
            XCTAssertEqual(feed.status, 0)
            XCTAssertEqual(feed.lines.count, days + 1, "every imported day and the first one, once each")
        }
        XCTAssertLessThan(peaks[1], peaks[0] + peaks[0] / 5, "peak KiB of the feed after 10,000 and 100,000 changed days: \(peaks)")
        print("MemoryCLITests: the change feed's peak KiB after 10,000 and 100,000 changed days: \(peaks)")
    }
}
