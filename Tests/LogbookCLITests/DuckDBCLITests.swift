import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// The README's DuckDB calls, run by DuckDB (its Python module) on Logbook's exports.
final class DuckDBCLITests: XCTestCase {
    /// Empty text and missing values are told apart in CSV, every day and exercise of the NDJSON
    /// export is read, and names group by `nfc_normalize` as `report exercises` groups them (names
    /// of letters with and without combining accents, NFC and NFD; DuckDB's normalizer has its own
    /// Unicode version, so the newest marks are not part of this claim).
    func testDuckDBReadsTheExportsAsTheReadmeSays() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3")
                || (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains(where: {
                    FileManager.default.isExecutableFile(atPath: "\($0)/python3") }) else {
            throw XCTSkip("python3 is not installed: DuckDB's Python module runs the README's calls")
        }
        guard (try? Self.python("import duckdb")) != nil else {
            throw XCTSkip("DuckDB's Python module is not installed (pip install duckdb); .ci/run installs it when it can")
        }
        let seed = PropertyTestSettings.seed("LOGBOOK_DUCKDB_SEED", default: 0xD0C3)
        var random = SplitMix64(seed: seed)
        let letters = AdversarialText.precomposed
        func name() -> String {
            let word = (0..<random.int(1...3)).map { _ in String(letters[random.int(0...letters.count - 1)]) }.joined() + "x"
            return random.chance(0.5) ? word.decomposedStringWithCanonicalMapping : word
        }
        let names = (0..<15).map { _ in name() } + ["Burpee", "Café", "Cafe\u{301}", "a,b", "quote\"d", "line\nbreak"]
        let cli = try CLIHarness()
        let store = try Logbook(path: cli.database.path, timeZone: TimeZone(identifier: "UTC")!)
        var day = CalendarDay(year: 2026, month: 1, day: 1)!
        var days: [ExerciseDay] = []
        for _ in 0..<120 {
            days.append(ExerciseDay(date: day.start(in: TimeZone(identifier: "UTC")!), day: day,
                                    exercises: (0...random.int(0...4)).map { _ in names[random.int(0...names.count - 1)] }))
            day = day.adding(days: random.int(1...2))!
        }
        try store.history.save(days)
        var drafts: [ReleaseDraft] = []
        for index in 0..<15 {
            let checklist = (0..<random.int(0...3)).map { _ in ChecklistItem(title: random.chance(0.3) ? "" : name(), isDone: random.chance(0.5)) }
            drafts.append(try store.drafts.save(ReleaseDraft(version: random.chance(0.3) ? "" : "1.\(index)", whatsNew: random.chance(0.5) ? "" : name(),
                                                             checklist: checklist, submittedAt: random.chance(0.5) ? Date() : nil)))
        }
        for (kind, format, file) in [("drafts", "csv", "drafts.csv"), ("history", "ndjson", "history.ndjson")] {
            XCTAssertEqual(try cli.run(["export", kind, "--format", format, "-o", file]).status, 0)
        }

        let output = try Self.python("""
            import duckdb, json, sys
            c = duckdb.connect()
            csv = "read_csv('drafts.csv', header = true, allow_quoted_nulls = false)"
            ndjson = "read_json('history.ndjson', format = 'newline_delimited')"
            print(json.dumps({
              "rows": c.execute(f"SELECT count(*) FROM {csv}").fetchone()[0],
              "emptyVersions": c.execute(f"SELECT count(*) FROM {csv} WHERE version = ''").fetchone()[0],
              "missingSubmittedAt": c.execute(f"SELECT count(*) FROM {csv} WHERE submittedAt IS NULL").fetchone()[0],
              "emptyTitles": c.execute(f"SELECT count(*) FROM {csv} WHERE itemTitle = ''").fetchone()[0],
              "missingTitles": c.execute(f"SELECT count(*) FROM {csv} WHERE itemTitle IS NULL").fetchone()[0],
              "days": c.execute(f"SELECT count(*) FROM {ndjson}").fetchone()[0],
              "exercises": c.execute(f"SELECT sum(len(exercises)) FROM {ndjson}").fetchone()[0],
              "groups": sorted(row[1] for row in c.execute(f"SELECT nfc_normalize(exercise) AS name, count(*) AS done FROM "
                                                       f"(SELECT unnest(exercises) AS exercise FROM {ndjson}) GROUP BY ALL").fetchall()),
            }))
            """, in: cli.folder)
        struct Answers: Decodable {
            let rows, emptyVersions, missingSubmittedAt, emptyTitles, missingTitles, days, exercises: Int
            let groups: [Int]
        }
        let answers = try JSONDecoder().decode(Answers.self, from: Data(output.utf8))
        let rows = drafts.flatMap { draft in draft.checklist.isEmpty ? [(draft, nil)] : draft.checklist.map { (draft, Optional($0)) } }
        XCTAssertEqual(answers.rows, rows.count, "seed \(seed)")
        XCTAssertEqual(answers.emptyVersions, rows.filter { $0.0.version.isEmpty }.count, "seed \(seed): '' is empty text")
        XCTAssertEqual(answers.missingSubmittedAt, rows.filter { $0.0.submittedAt == nil }.count, "seed \(seed): nothing is NULL")
        XCTAssertEqual(answers.emptyTitles, rows.filter { $0.1?.title.isEmpty == true }.count, "seed \(seed)")
        XCTAssertEqual(answers.missingTitles, rows.filter { $0.1 == nil }.count, "seed \(seed)")
        XCTAssertEqual(answers.days, days.count, "seed \(seed)")
        XCTAssertEqual(answers.exercises, days.map(\.exercises.count).reduce(0, +), "seed \(seed)")
        let report = try JSONDecoder().decode([ExerciseReportRow].self, from: try cli.run(["report", "exercises", "--format", "json"]).output)
        XCTAssertEqual(answers.groups, report.map(\.count).sorted(), "seed \(seed): DuckDB's groups are report exercises' groups")
    }

    /// Runs `script` with python3 in `folder`; its stdout, or a thrown error with its stderr.
    @discardableResult
    private static func python(_ script: String, in folder: URL? = nil) throws -> String {
        try ExternalProgram.output(of: "/usr/bin/env", ["python3", "-c", script], in: folder)
    }
}
