import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// `report` and `query` on the real binary.
final class ReportQueryCLITests: XCTestCase {
    /// The calendar heatmap: a column per ISO week, a shade per day from its count, plain blocks
    /// off a terminal, colour on one unless NO_COLOR is set; its data in csv.
    func testCalendarHeatmapShowsEveryActiveDay() throws {
        let cli = try CLIHarness()
        let (_, history) = try FixtureData.load(into: cli)
        let range = ["--from", "2025-01-01", "--to", "2025-04-15"]
        let result = try cli.run(["report", "calendar"] + range)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.lines
        XCTAssertEqual(lines.count, 11, result.stdout)
        XCTAssertEqual(lines[0].split(separator: " "), ["Jan", "Feb", "Mar", "Apr"])
        XCTAssertEqual(lines[1...7].map { String($0.prefix(3)) }, ["Mon", "   ", "Wed", "   ", "Fri", "   ", "Sun"])
        let grid = lines[1...7].joined()
        let shaded = grid.filter { "░▒▓█".contains($0) }.count
        XCTAssertEqual(shaded, history.count, "one shaded cell per active day")
        XCTAssertEqual(grid.filter { $0 == "·" }.count, 105 - history.count, "every other day of the range is a dot")
        XCTAssertFalse(result.stdout.contains("\u{1B}"), "no colour off a terminal")
        XCTAssertTrue(lines[10].contains("\(history.count) active days, \(history.map(\.exercises.count).reduce(0, +)) exercises"))

        let single = try CLIHarness()
        XCTAssertEqual(try single.run(["-q", "history", "add", "Squat", "--at", "2026-01-05T10:00:00Z"]).status, 0)
        let one = try single.run(["report", "calendar", "--from", "2026-01-01", "--to", "2026-01-31"])
        XCTAssertTrue(one.stdout.contains("1 active day, 1 exercise; longest streak 1 day"), one.stdout)

        // A month that begins in the last week is named in full (it was cut to `Ja`; helper-98).
        for (range, months) in [(["--from", "2025-12-01", "--to", "2026-01-02"], ["Dec", "Jan"]), (["--on", "2011-W52"], ["Jan"])] {
            let calendar = try single.run(["report", "calendar"] + range)
            XCTAssertEqual(calendar.lines.first?.split(separator: " "), months.map { Substring($0) }, calendar.stdout)
        }
        // The page's streaks are of its days: --as-of outside them is refused (its current streak read 0; helper-98).
        XCTAssertFailure(try single.run(["report", "--format", "html", "--as-of", "2022-06-03"]), status: 2,
                         mentioning: "is outside the page's days")
        XCTAssertEqual(try single.run(["report", "--format", "html", "--on", "2026-01", "--as-of", "2026-01-05"]).status, 0)
        // Without --as-of, a page of days to come counts up to its first (it was refused; helper-100).
        XCTAssertEqual(try single.run(["report", "--format", "html", "--from", "2099-03-01", "--to", "2099-04-30"]).status, 0)
        XCTAssertFailure(try cli.run(["report", "calendar", "--from", "2099-01-01"]), status: 2, mentioning: "give --to as well")
        let csv = try cli.run(["report", "calendar", "--format", "csv"] + range)
        XCTAssertEqual(csv.lines.count, 1 + 105)
        XCTAssertEqual(csv.lines.dropFirst().filter { !$0.hasSuffix(",0,0\r") }.count, history.count)

        // On a terminal (through script(1)), colour; NO_COLOR turns it off, and so does TERM=dumb (helper-66).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let command = "\(CLIHarness.executable.path) --db \(cli.database.path) report calendar " + range.joined(separator: " ")
        for (environment, coloured) in [([String: String](), true), (["NO_COLOR": "1"], false), (["TERM": "dumb"], false),
                                        (["NO_COLOR": ""], true)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
            process.environment = ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color"].merging(environment) { $1 }
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(text.contains("\u{1B}[38;5;"), coloured, "\(environment): \(text)")
        }
    }

    /// Tables for people carry bars: the trend of each period against the busiest, a checklist's progress.
    func testTablesShowTrendAndProgressBarsAndDataFormatsDoNot() throws {
        let cli = try CLIHarness()
        _ = try FixtureData.load(into: cli)
        let table = try cli.run(["report", "history", "--by", "week"])
        XCTAssertTrue(table.lines[0].hasSuffix("trend"), table.stdout)
        let csv = try cli.run(["report", "history", "--by", "week", "--format", "csv"]).lines.dropFirst()
        let exercises = csv.map { Int($0.split(separator: ",")[2])! }
        let maximum = exercises.max()!
        for (line, count) in zip(table.lines.dropFirst(), exercises) {
            let bar = line.drop { !"█▉▊▋▌▍▎▏".contains($0) }
            let eighths = bar.reduce(0) { $0 + ["█": 8, "▉": 7, "▊": 6, "▋": 5, "▌": 4, "▍": 3, "▎": 2, "▏": 1][$1, default: 0] }
            XCTAssertEqual(eighths, count == 0 ? 0 : max(1, Int((Double(count) / Double(maximum) * 128).rounded())), line)
        }
        XCTAssertFalse(try cli.run(["report", "history", "--format", "json"]).stdout.contains("trend"))
        let id = try cli.run(["drafts", "add", "--version", "9.0", "--item", "a", "--item", "b", "--item", "c", "--item", "d"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try cli.run(["drafts", "item", "check", id, "1"])
        let drafts = try cli.run(["report", "drafts", "--where-version-is-not-an-option"])
        XCTAssertEqual(drafts.status, 2)
        let row = try cli.run(["report", "drafts"]).lines.first { $0.hasPrefix("9.0") }
        XCTAssertTrue(row?.contains("1 of 4 done") == true && row?.hasSuffix("  ██░░░░░░░░") == true, row ?? "no row")
        XCTAssertFalse(try cli.run(["report", "drafts", "--format", "csv"]).stdout.contains("progress"))
    }

    func testReportsOnTheFixture() throws {
        let cli = try CLIHarness()
        let (_, history) = try FixtureData.load(into: cli)
        let weeks = try cli.run(["report", "history", "--format", "csv"])
        XCTAssertEqual(weeks.status, 0, weeks.stderr)
        XCTAssertEqual(weeks.lines.first, "period,activeDays,exercises,distinctExercises,topExercise\r")
        // Independently: ISO weeks of the fixture's days.
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var exercisesPerWeek: [String: Int] = [:]
        for day in history {
            let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: day.day.start(in: calendar.timeZone))
            exercisesPerWeek[String(format: "%04d-W%02d", parts.yearForWeekOfYear!, parts.weekOfYear!), default: 0] += day.exercises.count
        }
        let rows = weeks.lines.dropFirst().map { $0.dropLast().split(separator: ",", omittingEmptySubsequences: false) }
        XCTAssertEqual(rows.count, 9)
        for row in rows { XCTAssertEqual(Int(row[2]), exercisesPerWeek[String(row[0])], String(row[0])) }
        XCTAssertEqual(rows.map { Int($0[2]) ?? 0 }.reduce(0, +), 106)

        let exercises = try cli.run(["report", "exercises", "--format", "json"])
        let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(exercises.stdout.utf8)) as? [[String: Any]])
        let allNames = history.flatMap(\.exercises)
        XCTAssertEqual(objects.first?["exercise"] as? String, "Burpee")
        XCTAssertEqual(objects.first?["count"] as? Int, allNames.filter { $0 == "Burpee" }.count)
        XCTAssertEqual(objects.map { $0["count"] as? Int ?? 0 }.reduce(0, +), allNames.count)

        let streaks = try cli.run(["report", "streaks", "--as-of", "2025-03-30", "--format", "ndjson"])
        XCTAssertEqual(streaks.stdout, #"{"currentStreak":1,"longestStreak":4,"longestStart":"2025-02-28","longestEnd":"2025-03-03","asOf":"2025-03-30"}"# + "\n")

        let drafts = try cli.run(["report", "drafts"])
        XCTAssertTrue(drafts.lines[0].hasPrefix("version"), drafts.stdout)
        XCTAssertEqual(drafts.lines.count, 11)
    }

    func testEmptyDatabaseGivesWellFormedOutput() throws {
        let cli = try CLIHarness()
        try cli.run(["init"])
        XCTAssertEqual(try cli.run(["report", "history", "--format", "json"]).stdout, "[]\n")
        XCTAssertEqual(try cli.run(["report", "exercises", "--format", "csv"]).stdout, "exercise,count,days,firstDay,lastDay\r\n")
        XCTAssertEqual(try cli.run(["report", "drafts", "--format", "ndjson"]).stdout, "")
        XCTAssertEqual(try cli.run(["report", "streaks", "--as-of", "2026-01-01", "--format", "json"]).stdout,
                       #"[{"currentStreak":0,"longestStreak":0,"longestStart":null,"longestEnd":null,"asOf":"2026-01-01"}]"# + "\n")
        let zeros = try cli.run(["report", "history", "--by", "month", "--from", "2026-01-01", "--to", "2026-02-28", "--format", "csv"])
        XCTAssertEqual(zeros.stdout, "period,activeDays,exercises,distinctExercises,topExercise\r\n2026-01,0,0,0,\r\n2026-02,0,0,0,\r\n")
    }

    func testReportUsageErrors() throws {
        let cli = try CLIHarness()
        XCTAssertFailure(try cli.run(["report", "histroy"]), status: 2,
                         mentioning: "unknown report 'histroy': expected one of history, exercises, streaks, drafts", "did you mean 'history'")
        XCTAssertFailure(try cli.run(["report", "history", "--by", "fortnight"]), status: 2, mentioning: "day, week, month, year")
        XCTAssertFailure(try cli.run(["report", "history", "--from", "2026-02-01", "--to", "2026-01-01"]), status: 2,
                         mentioning: "the range starts on 2026-02-01, after its end 2026-01-01")
        XCTAssertFailure(try cli.run(["report", "streaks", "--as-of", "2026-13-01"]), status: 2, mentioning: "invalid date '2026-13-01'")
        XCTAssertFailure(try cli.run(["report", "streaks", "--as-of", "2026-11"]), status: 2,
                         mentioning: "'--as-of' takes one day, not 2026-11-01 to 2026-11-30")
        XCTAssertFailure(try cli.run(["report", "exercises", "--by", "week"]), status: 2, mentioning: "history report only")
    }

    func testQueryIsReadOnlyWithNamedParameters() throws {
        let cli = try CLIHarness()
        _ = try FixtureData.load(into: cli)
        let result = try cli.run(["query", "SELECT day, date FROM exercise_days WHERE day BETWEEN :from AND :to ORDER BY day",
                                  "-p", "from=2025-03-01", "--param", ":to=2025-03-05", "--format", "csv"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.first, "day,date\r")
        XCTAssertTrue(result.lines.dropFirst().allSatisfy { $0 >= "2025-03-01" && $0 < "2025-03-06" }, result.stdout)
        let limited = try cli.run(["query", "SELECT version FROM drafts ORDER BY pk LIMIT :n", "-p", "n=2", "--format", "json"])
        XCTAssertEqual(limited.stdout, #"[{"version":"1.0"},{"version":"1.0.1"}]"# + "\n")

        let before = cli.snapshot()
        for sql in ["DELETE FROM drafts", "UPDATE drafts SET version = 'x'", "DROP TABLE drafts", "PRAGMA user_version = 9",
                    "INSERT INTO drafts (id) VALUES ('x')", "SELECT 1; DELETE FROM drafts", "ATTACH 'other.sqlite' AS other"] {
            let refused = try cli.run(["query", sql])
            XCTAssertEqual(refused.status, 1, "\(sql): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.hasPrefix("logbook: error: "), refused.stderr)
        }
        XCTAssertFailure(try cli.run(["query", "SELECT 1; SELECT 2"]), status: 1,
                         mentioning: "query refused (it holds more than one statement; run one at a time)")
        XCTAssertFailure(try cli.run(["query", " -- nothing"]), status: 1, mentioning: "query refused (it holds no statement)")
        XCTAssertFailure(try cli.run(["query", "SELECT :missing"]), status: 1, mentioning: "no value for parameter :missing")
        // A value for a parameter the statement lacks is a mistyped name, refused rather than ignored (helper-18).
        XCTAssertFailure(try cli.run(["query", "SELECT :from + 1", "-p", "from=1", "-p", "form=2"]), status: 1,
                         mentioning: "a value was given for :form, a parameter it does not have (it has :from)")
        XCTAssertFailure(try cli.run(["query", "SELECT 1", "-p", "b=3"]), status: 1, mentioning: "(it has none)")
        // SQLite's "datatype mismatch" names no value: the values that could be at fault are named (helper-18).
        let paging = "SELECT version FROM drafts LIMIT :n OFFSET :skip"
        for (value, named) in [("9223372036854775808", ":n is the text '9223372036854775808' (a whole number beyond SQLite's"),
                               ("abc", ":n is the text 'abc'"), ("1.5", ":n is the real number 1.5")] {
            XCTAssertFailure(try cli.run(["query", paging, "-p", "n=\(value)", "-p", "skip=1"]), status: 1,
                             mentioning: "query refused (SQLite's datatype mismatch: a value is not the whole number its place needs, "
                                 + "as a LIMIT or OFFSET does; of the values given, these are not: \(named)")
        }
        XCTAssertEqual(try cli.run(["query", paging, "-p", "n=2.0", "-p", "skip=0", "--format", "csv"]).stdout, "version\r\n1.0\r\n1.0.1\r\n",
                       "a real number that is whole is SQLite's to take")
        // Only the values SQLite would not take are named (`2.0` was too; helper-97).
        let named = try cli.run(["query", paging, "-p", "n=2.0", "-p", "skip=abc"])
        XCTAssertFailure(named, status: 1, mentioning: "these are not: :skip is the text 'abc')")
        XCTAssertEqual(try cli.run(["query", "SELECT @a + $b AS n", "-p", "a=1", "-p", "b=2", "--format", "csv"]).stdout, "n\r\n3\r\n")
        // A decimal is a number only in its own plain spelling: `2.10` stays the text a version is (helper-66).
        for (value, type) in [("2.5", "real"), ("-12.75", "real"), ("100.0", "real"), ("0.1", "real"), ("2.10", "text"), ("+2.5", "text"),
                              ("007.5", "text"), ("1.5e3", "text"), ("0x1.8p1", "text"), ("1.5e+16", "text"), ("2.", "text"), (".5", "text"),
                              ("2.0", "real"), ("-0.0", "text"), ("1.2345678901234567", "text"), ("0.30000000000000004", "text"),
                              ("100000000000000.5", "text"), ("12345678901234.5", "real"), ("0.001", "real"),
                              ("123456789012345.0", "real"), ("1000000000000000.0", "text")] {
            XCTAssertEqual(try cli.run(["query", "SELECT typeof(:v) AS t", "-p", "v=\(value)", "--format", "csv"]).lines.dropFirst().first,
                           type + "\r", value)
        }
        // A value bound as a real is one SQLite gives back as the same text, so a text column
        // holding it matches: seeded decimals in Swift's spelling, rounded to 1 to 17 digits.
        let seed = PropertyTestSettings.seed("LOGBOOK_QUERY_DECIMAL_SEED", default: 0x2_10)
        var random = SplitMix64(seed: seed)
        let decimals = (0..<60).map { _ -> String in
            let magnitude = pow(10, Double(random.int(-6...16))) * Double.random(in: 0.1...1, using: &random)
            let rounded = Double(String(format: "%.\(random.int(1...17))g", magnitude * (random.chance(0.3) ? -1 : 1)))!
            return String(rounded)
        }
        let columns = decimals.indices.map { "typeof(:v\($0)) || ' ' || CAST(:v\($0) AS TEXT) AS c\($0)" }.joined(separator: ", ")
        let bound = try cli.run(["query", "SELECT \(columns)", "--format", "json"] + decimals.enumerated().flatMap { ["-p", "v\($0.offset)=\($0.element)"] })
        let row = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(bound.stdout.utf8)) as? [[String: String]])?.first, bound.stderr)
        for (index, decimal) in decimals.enumerated() {
            let answer = try XCTUnwrap(row["c\(index)"])
            XCTAssertTrue(answer == "text \(decimal)" || answer == "real \(decimal)", "seed \(seed): \(decimal) bound as \(answer)")
        }
        XCTAssertTrue(row.values.contains { $0.hasPrefix("real") } && row.values.contains { $0.hasPrefix("text") }, "seed \(seed): \(row)")
        XCTAssertFailure(try cli.run(["query", "SELECT 1", "-p", "novalue"]), status: 2, mentioning: "expected NAME=VALUE")
        XCTAssertFailure(try cli.run(["query", "SELECT :n", "-p", "n=1", "-p", ":n=2"]), status: 2, mentioning: "parameter 'n' is given twice")
        XCTAssertFailure(try cli.run(["query", "SELECT 1 AS a, 2 AS a", "--format", "json"]), status: 1, mentioning: "two columns are named 'a'")
        XCTAssertEqual(try cli.run(["query", "SELECT 1 AS a, 2 AS a", "--format", "csv"]).stdout, "a,a\r\n1,2\r\n")
        XCTAssertEqual(cli.snapshot(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("other.sqlite").path))
    }

    /// Text a query returns comes out byte for byte (U+FFFD itself included), and text whose bytes
    /// are not UTF-8 is refused, naming its row and column, as every other read refuses it: it was
    /// printed with U+FFFD in place of the bytes, exit 0 (helper-24); an infinity in JSON is
    /// refused too. Seeded adversarial text,
    /// each made invalid or not at a random byte. `LOGBOOK_QUERY_TEXT_SEED` repeats a run.
    func testQueryTextIsByteForByteOrRefusedWhenItIsNotUTF8() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_QUERY_TEXT_SEED", default: 0xFFFD))
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Run"]).status, 0)
        var (kept, refused) = (0, 0)
        for round in 0..<PropertyTestSettings.scaled(24, by: "LOGBOOK_PROPERTY_SCALE") {
            var bytes = Array((round % 4 == 0 ? "x\u{FFFD}y" : AdversarialText.string(using: &random, nonEmpty: true)).utf8)
            if random.chance(0.5) { bytes.insert(random.pick([0xFF, 0xC0, 0x80, 0xF5, 0xED, 0xE2]), at: random.int(0...bytes.count)) }
            let hex = bytes.map { String(format: "%02X", $0) }.joined()
            let result = try cli.run(["query", "SELECT 1 AS n, CAST(X'\(hex)' AS TEXT) AS t", "--format", "ndjson"])
            if let text = String(validating: bytes, as: UTF8.self) {
                XCTAssertEqual(result.status, 0, "round \(round): \(hex): \(result.stderr)")
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                XCTAssertEqual((object?["t"] as? String).map { Array($0.utf8) }, Array(text.utf8), "round \(round): \(hex)")
                kept += 1
            } else {
                XCTAssertFailure(result, status: 1, mentioning: "row 1, column t, holds text that is not UTF-8")
                refused += 1
            }
        }
        XCTAssertGreaterThan(kept, 0)
        XCTAssertGreaterThan(refused, 0)
        // JSON has no number for an infinity: refused, naming it, where it printed null (helper-24).
        for format in ["json", "ndjson"] {
            XCTAssertFailure(try cli.run(["query", "SELECT 1 AS n, -1e999 AS low", "--format", format]), status: 1,
                             mentioning: "row 1, column low, is -inf, which JSON has no number for")
        }
        XCTAssertEqual(try cli.run(["query", "SELECT 1e999 AS high", "--format", "csv"]).stdout, "high\r\ninf\r\n")
    }

    /// `query` reads and nothing else (issue 15, item 10): no native pointers, no extensions, no
    /// pragma that sets anything; the pragmas that describe the schema still answer.
    func testQueryCannotReachOutsideTheDatabase() throws {
        let cli = try CLIHarness()
        _ = try FixtureData.load(into: cli)
        let before = cli.snapshot()
        for sql in ["SELECT hex(fts3_tokenizer('simple'))", "SELECT fts3_tokenizer('simple', x'0000000000000000')",
                    "SELECT load_extension('/lib/x86_64-linux-gnu/libc.so.6')", "PRAGMA writable_schema = 1",
                    "PRAGMA user_version = 3", "SELECT * FROM pragma_writable_schema", "PRAGMA journal_mode = DELETE",
                    "WITH x AS (SELECT 1) SELECT fts3_tokenizer('porter') FROM x", "SELECT writefile('/tmp/x', 'y')",
                    "UPDATE sqlite_master SET name = 'x'", "SELECT * FROM pragma_journal_mode('delete')"] {
            let refused = try cli.run(["query", sql])
            XCTAssertEqual(refused.status, 1, "\(sql): \(refused.stdout)")
            XCTAssertEqual(refused.stdout, "", sql)
            XCTAssertTrue(refused.stderr.hasPrefix("logbook: error: "), refused.stderr)
        }
        // Each says why, where a pragma as a table and an extension gave SQLite's bare "not
        // authorized" (helper-24).
        for sql in ["SELECT * FROM pragma_journal_mode", "SELECT * FROM pragma_optimize", "SELECT load_extension('x')",
                    "PRAGMA journal_mode = DELETE", "PRAGMA encoding = 'UTF-16le'", "PRAGMA schema_version = 1"] {
            XCTAssertFailure(try cli.run(["query", sql]), status: 1,
                             mentioning: "query refused (it would change the database or reach outside it)")
        }
        XCTAssertEqual(cli.snapshot(), before)
        let described = try cli.run(["query", "PRAGMA table_info(drafts)", "--format", "csv"])
        XCTAssertEqual(described.status, 0, described.stderr)
        XCTAssertTrue(described.stdout.contains("version_key"), described.stdout)
        // The same pragma as a table (which SQLite enters in the connection's schema on first use).
        let asTable = try cli.run(["query", "SELECT name FROM pragma_table_info('drafts') WHERE name LIKE '%key'", "--format", "csv"])
        XCTAssertEqual(asTable.stdout, "name\r\nversion_key\r\n", asTable.stderr)
        for check in ["SELECT * FROM pragma_integrity_check", "SELECT * FROM pragma_quick_check(5)", "PRAGMA foreign_key_check(drafts)",
                      "SELECT name FROM pragma_database_list"] {
            XCTAssertEqual(try cli.run(["query", check]).status, 0, check)
        }
        XCTAssertEqual(cli.snapshot(), before)
        let version = try cli.run(["query", "PRAGMA user_version", "--format", "csv"])
        XCTAssertEqual(version.status, 0, version.stderr)
        // Pragmas that only read when given no value (they were refused; helper-97).
        for (pragma, value) in [("encoding", "UTF-8"), ("auto_vacuum", "0")] {
            XCTAssertEqual(try cli.run(["query", "PRAGMA \(pragma)", "--format", "csv"]).lines.last, value + "\r", pragma)
        }
        XCTAssertEqual(try cli.run(["query", "PRAGMA compile_options"]).status, 0)
        XCTAssertEqual(cli.snapshot(), before)
    }
}
