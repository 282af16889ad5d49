import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// `export --format postgres` and `changes` against a real PostgreSQL server (a throwaway cluster
/// per test): two logbooks' exports load side by side with nothing but `psql`, change feeds keep
/// PostgreSQL equal to each logbook through adds, edits, renames and deletes (the `sqlite3`
/// shell's included), and PostgreSQL's answers to the report questions equal `logbook report`.
final class PostgresCLITests: XCTestCase {
    /// Two logbooks of seeded adversarial text, exported and loaded (twice: idempotent); every
    /// record byte for byte and every report equal, each under its own source.
    func testTwoLogbooksLoadSideBySideAndAnswerAsTheirReports() throws {
        let postgres = try PostgresCluster()
        let seed = PropertyTestSettings.seed("LOGBOOK_POSTGRES_SEED", default: 0x5047)
        let logbooks = try (0..<2).map { index in try Self.logbook(seed: seed &+ UInt64(index)) }
        for cli in logbooks {
            for _ in 0..<2 {
                for kind in ["drafts", "history"] {
                    let script = cli.folder.appendingPathComponent("\(kind).sql")
                    let result = try cli.run(["export", kind, "--format", "postgres", "-o", script.path])
                    XCTAssertEqual(result.status, 0, result.stderr)
                    try postgres.load(script)
                }
            }
        }
        XCTAssertEqual(try postgres.query("SELECT count(DISTINCT source) FROM logbook_exercise_days"), ["2"])
        for cli in logbooks { try Self.assertEqual(postgres, cli, seed: seed) }

        // A filtered export only adds and updates; an unfiltered one also deletes what is gone.
        let cli = logbooks[0]
        let source = try Self.source(cli)
        XCTAssertEqual(try cli.run(["history", "delete", "--day", try Self.firstDay(cli)]).status, 0)
        let partial = cli.folder.appendingPathComponent("partial.sql")
        XCTAssertEqual(try cli.run(["export", "history", "--format", "postgres", "--limit", "3", "-o", partial.path]).status, 0)
        try postgres.load(partial)
        let stored = try postgres.query("SELECT count(*) FROM logbook_exercise_days WHERE source = '\(source)'")
        XCTAssertEqual(stored, [String(try Self.dayCount(cli) + 1)], "the deleted day stays after a filtered export")
        let full = cli.folder.appendingPathComponent("full.sql")
        XCTAssertEqual(try cli.run(["export", "history", "--format", "postgres", "-o", full.path]).status, 0)
        try postgres.load(full)
        try Self.assertEqual(postgres, cli, seed: seed)
        try Self.assertEqual(postgres, logbooks[1], seed: seed)

        // A filtered export that gives a day to a record while PostgreSQL keeps another there (one
        // moved to a day the export leaves out) stops the load, PostgreSQL as it was: the script
        // deleted the moved record, which the logbook still has (helper-7). The full export then loads.
        let moving = try CLIHarness()
        for (name, day) in [("Squat", "2026-03-01"), ("Row", "2026-03-03")] {
            XCTAssertEqual(try moving.run(["-q", "history", "add", name, "--at", "\(day)T10:00:00Z"]).status, 0)
        }
        let first = moving.folder.appendingPathComponent("first.sql")
        XCTAssertEqual(try moving.run(["export", "history", "--format", "postgres", "-o", first.path]).status, 0)
        try postgres.load(first)
        XCTAssertEqual(try moving.run(["-q", "history", "move", "--day", "2026-03-01", "--to", "2026-03-02"]).status, 0)
        XCTAssertEqual(try moving.run(["-q", "history", "add", "Plank", "--at", "2026-03-01T09:00:00Z"]).status, 0)
        let movingSource = try Self.source(moving)
        let before = try postgres.query("SELECT id, day FROM logbook_exercise_days WHERE source = '\(movingSource)' ORDER BY day")
        let filtered = moving.folder.appendingPathComponent("filtered.sql")
        XCTAssertEqual(try moving.run(["export", "history", "--format", "postgres", "--from", "2026-03-01", "--to", "2026-03-01",
                                       "-o", filtered.path]).status, 0)
        XCTAssertThrowsError(try postgres.load(filtered)) { error in
            XCTAssertTrue("\(error)".contains("holds day 2026-03-01 here"), "\(error)")
        }
        XCTAssertEqual(try postgres.query("SELECT id, day FROM logbook_exercise_days WHERE source = '\(movingSource)' ORDER BY day"), before)
        let whole = moving.folder.appendingPathComponent("whole.sql")
        XCTAssertEqual(try moving.run(["export", "history", "--format", "postgres", "-o", whole.path]).status, 0)
        try postgres.load(whole)
        try Self.assertEqual(postgres, moving, seed: seed)

        // Text PostgreSQL cannot hold (U+0000) is refused by name, writing nothing.
        let nul = try CLIHarness()
        _ = try Logbook(path: nul.database.path).history.addDoneExercise("Nul\u{0}Name", at: Date(timeIntervalSinceReferenceDate: 0))
        let refused = try nul.run(["export", "history", "--format", "postgres", "-o", "nul.sql"])
        XCTAssertFailure(refused, status: 1, mentioning: "exercises[0] of the day 2001-01-01 (", "U+0000")
        XCTAssertFalse(FileManager.default.fileExists(atPath: nul.folder.appendingPathComponent("nul.sql").path))
    }

    /// A `--source` of any text is one string literal in the script: a quote that a combining
    /// mark follows, or that comes after a prepended mark, is doubled too (it was left single, and
    /// the text after it ran as SQL: helper-61). Seeded; each source loads as itself, byte for
    /// byte, in both scripts (`export` and `changes`), and nothing else runs.
    func testASourceOfAnyTextIsOneLiteral() throws {
        let postgres = try PostgresCluster()
        let seed = PropertyTestSettings.seed("LOGBOOK_POSTGRES_SEED", default: 0x5047)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Squat", "--at", "2026-01-05T10:00:00Z"]).status, 0)
        _ = try postgres.query("CREATE TABLE victims (x int)")
        let pieces = ["'", "'\u{301}", "\u{600}'", "'\u{200D}", "'\u{FE0F}", ";", "--", " ", "DROP TABLE victims;", "COMMIT;",
                      "\\", "\"", "e\u{301}", "\u{1F600}", "$$", "E'", "\u{5B0}", "x"]
        var sources = ["O'\u{301}Brien", "x\u{600}' OR true; DROP TABLE victims; COMMIT; --"]
        for _ in 0..<12 { sources.append((0..<random.int(1...8)).map { _ in random.pick(pieces) }.joined()) }
        let hex = { (text: String) in text.utf8.map { String(format: "%02x", $0) }.joined() }
        for (index, source) in sources.enumerated() {
            let command = index % 2 == 0 ? ["export", "history", "--format", "postgres"] : ["changes", "--format", "postgres"]
            let script = cli.folder.appendingPathComponent("source-\(index).sql")
            let result = try cli.run(command + ["--source", source, "-o", script.path])
            XCTAssertEqual(result.status, 0, "seed \(seed): \(result.stderr)")
            try postgres.load(script)
            XCTAssertEqual(try postgres.query("""
                SELECT count(*) FROM logbook_exercise_days WHERE encode(convert_to(source, 'UTF8'), 'hex') = '\(hex(source))'
                """), ["1"], "seed \(seed): source \(source.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        XCTAssertEqual(try postgres.query("SELECT count(*) FROM victims"), ["0"], "seed \(seed)")
        XCTAssertEqual(try postgres.query("SELECT count(DISTINCT source) FROM logbook_exercise_days"), [String(Set(sources).count)])
    }

    /// `export drafts --format csv --csv-header snake_case` loads with the server's own
    /// `COPY … FROM 'file' (FORMAT csv, HEADER match)`: every cell as the logbook's camelCase
    /// export holds it, `""` as empty text, an empty field as NULL, a What's New holding a line
    /// that is `\.` alone whole; and `import` reads the snake_case file back to the camelCase
    /// export's bytes (seeded adversarial text, `LOGBOOK_POSTGRES_SEED`).
    func testASnakeCaseCSVLoadsWithCopyHeaderMatchAndImportsBack() throws {
        let postgres = try PostgresCluster()
        let seed = PropertyTestSettings.seed("LOGBOOK_POSTGRES_SEED", default: 0x5047)
        let cli = try Self.logbook(seed: seed)
        let store = try Logbook(path: cli.database.path, timeZone: TimeZone(identifier: "UTC")!)
        try store.drafts.save(ReleaseDraft(version: "", whatsNew: "first\n\\.\nlast\r\n\\.", checklist: []))
        try store.drafts.save(ReleaseDraft(version: "\\.", whatsNew: "", checklist: [ChecklistItem(title: "", isDone: true)]))
        let camelCase = try cli.run(["export", "drafts", "--format", "csv"])
        XCTAssertEqual(camelCase.status, 0, camelCase.stderr)
        // The server runs as another user (`nobody` under root): the file must be readable by it.
        let folder = try TemporaryFolder("logbook-snake-case")
        XCTAssertEqual(chmod(folder.url.path, 0o755), 0)
        let file = folder.file("drafts.csv")
        let snakeCase = try cli.run(["export", "drafts", "--format", "csv", "--csv-header", "snake_case", "-o", file.path])
        XCTAssertEqual(snakeCase.status, 0, snakeCase.stderr)
        XCTAssertEqual(chmod(file.path, 0o644), 0)

        let records = try CSVRecords.parse(Array(try Data(contentsOf: file)))
        let header = try XCTUnwrap(records.first).map { $0 ?? "" }
        XCTAssertTrue(header.contains("whats_new") && header.contains("submitted_at"), "\(header)")
        XCTAssertEqual(try CSVRecords.parse(Array(camelCase.output)).dropFirst(), records.dropFirst(), "only the header differs")
        _ = try postgres.query("CREATE TABLE drafts_csv (" + header.map { "\($0) text" }.joined(separator: ", ") + ")")
        _ = try postgres.query("COPY drafts_csv FROM '\(file.path)' (FORMAT csv, HEADER match)")
        // PostgreSQL's text format: NULL as \N, and a backslash, BS, FF, LF, CR, TAB and VT escaped.
        func text(_ cell: String?) -> String {
            guard let cell else { return "\\N" }
            let escapes: [Unicode.Scalar: String] = ["\\": "\\\\", "\u{8}": "\\b", "\u{C}": "\\f", "\n": "\\n", "\r": "\\r",
                                                     "\t": "\\t", "\u{B}": "\\v"]
            return cell.unicodeScalars.map { escapes[$0] ?? String($0) }.joined()
        }
        XCTAssertEqual(try postgres.copy("SELECT * FROM drafts_csv"), records.dropFirst().map { $0.map(text).joined(separator: "\t") })
        XCTAssertEqual(try postgres.query("SELECT count(*) FROM drafts_csv WHERE whats_new = E'first\\n\\\\.\\nlast\\r\\n\\\\.'"), ["1"])
        XCTAssertEqual(try postgres.query("SELECT count(*) FROM drafts_csv WHERE submitted_at IS NULL AND whats_new = ''"), ["1"])

        let copy = try CLIHarness()
        let imported = try copy.run(["import", file.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let again = try copy.run(["export", "drafts", "--format", "csv"])
        XCTAssertTrue(again.output == camelCase.output, "the snake_case file imported exports the camelCase bytes again")
    }

    /// A script cut short loads nothing, wherever it is cut: seeded cuts (`LOGBOOK_POSTGRES_CUT_SEED`)
    /// of an unfiltered history export (which deletes, adds and updates), a drafts export and a
    /// change feed, each loaded over PostgreSQL holding an earlier load, leave every table as it
    /// was, until the cut reaches the final `COMMIT` (with it whole, the script is complete: psql
    /// runs a last statement without its `;`). Then the whole scripts load what the logbook holds.
    func testAScriptCutShortLoadsNothing() throws {
        let postgres = try PostgresCluster()
        let seed = PropertyTestSettings.seed("LOGBOOK_POSTGRES_CUT_SEED", default: 0x4355_5453)
        var random = SplitMix64(seed: seed)
        let cli = try Self.logbook(seed: seed)
        let state = cli.folder.appendingPathComponent("state")
        for command in [["export", "history"], ["export", "drafts"], ["changes", "--state", state.path]] {
            let script = cli.folder.appendingPathComponent("first.sql")
            XCTAssertEqual(try cli.run(command + ["--format", "postgres", "-o", script.path]).status, 0)
            try postgres.load(script)
        }
        XCTAssertEqual(try cli.run(["history", "delete", "--day", try Self.firstDay(cli)]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "Cut", "--at", "2030-01-01T10:00:00Z"]).status, 0)
        XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "cut"]).status, 0)
        let tables = ["logbook_sources", "logbook_drafts", "logbook_checklist_items", "logbook_exercise_days", "logbook_exercises"]
        func snapshot() throws -> [[String]] { try tables.map { try postgres.copy("SELECT * FROM \($0) ORDER BY \($0)::text") } }
        var cuts = 0
        for command in [["export", "history"], ["export", "drafts"], ["changes", "--state", state.path]] {
            let before = try snapshot()
            let script = try cli.run(command + ["--format", "postgres"]).output
            let commit = try XCTUnwrap(script.range(of: Data("COMMIT".utf8), options: .backwards), "\(command)").upperBound
            let offsets = (0..<PropertyTestSettings.scaled(10, by: "LOGBOOK_PROPERTY_SCALE")).map { _ in random.int(0...(commit - 1)) }
                + [0, commit - 7, commit - 1]
            for offset in offsets {
                let cut = cli.folder.appendingPathComponent("cut.sql")
                try script.prefix(offset).write(to: cut)
                try? postgres.load(cut)
                XCTAssertEqual(try snapshot(), before, "seed \(seed): \(command) cut after \(offset) of \(script.count) bytes loaded something")
                cuts += 1
            }
            let whole = cli.folder.appendingPathComponent("whole.sql")
            try script.write(to: whole)
            try postgres.load(whole)
        }
        try Self.assertEqual(postgres, cli, seed: seed, step: "after the whole scripts")
        print("PostgresCLITests (LOGBOOK_POSTGRES_CUT_SEED=\(seed)): \(cuts) scripts cut short, none loaded anything")
    }

    /// A nightly `logbook changes --state FILE --format postgres | psql` keeps PostgreSQL equal to
    /// the logbook through every kind of change, by Logbook and by the sqlite3 shell; a repeated
    /// run changes nothing; a failed run leaves the token; an expired token is refused.
    func testChangeFeedKeepsPostgresEqualThroughEveryKindOfChange() throws {
        let postgres = try PostgresCluster()
        let seed = PropertyTestSettings.seed("LOGBOOK_POSTGRES_SEED", default: 0x5047)
        let cli = try Self.logbook(seed: seed)
        let state = cli.folder.appendingPathComponent("sync.token")
        let pipeline = ([CLIHarness.executable.path, "--db", cli.database.path, "changes", "--state", state.path, "--format", "postgres"]
                        .map(Self.shellQuoted).joined(separator: " ")) + " | " + (["/usr/bin/psql"] + postgres.psqlArguments).map(Self.shellQuoted)
                        .joined(separator: " ")
        func sync(_ step: String) throws {
            // The same changes as NDJSON first: a line per record, positions in commit order, the token last.
            let since = (try? String(contentsOf: state, encoding: .utf8)).map { ["--since", $0.trimmingCharacters(in: .newlines)] } ?? []
            let lines = try cli.run(["changes", "--format", "ndjson"] + since).lines
            let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
            let positions = objects.dropLast().compactMap { $0["position"] as? Int }
            XCTAssertEqual(positions, positions.sorted(), "\(step): commit order")
            XCTAssertEqual(positions.count, objects.count - 1, "\(step): every line but the last is a change")
            let result = try Self.shell("set -o pipefail; " + pipeline)
            XCTAssertEqual(result.status, 0, "\(step): \(result.errors)")
            try Self.assertEqual(postgres, cli, seed: seed, step: step)
            // The script records the token it ends with, as the state file does (the exactly-once recipe).
            let token = try String(contentsOf: state, encoding: .utf8).trimmingCharacters(in: .newlines)
            XCTAssertEqual(objects.last?["token"] as? String, token, "\(step): the NDJSON feed ends with the same token")
            XCTAssertEqual(try postgres.query("SELECT token FROM logbook_sources WHERE source = '\(try Self.source(cli))'"), [token], step)
        }
        try sync("the first run: every record")
        let sqlite3 = "/usr/bin/sqlite3"
        let steps: [(String, () throws -> Void)] = [
            ("history add", { XCTAssertEqual(try cli.run(["history", "add", "Plank", "Row"]).status, 0) }),
            ("drafts add", { XCTAssertEqual(try cli.run(["drafts", "add", "--version", "9.9", "--item", "A", "--item", "B"]).status, 0) }),
            ("item check", { XCTAssertEqual(try cli.run(["drafts", "item", "check", "9.9", "1"]).status, 0) }),
            ("history rename", { XCTAssertEqual(try cli.run(["history", "rename", "Plank", "Plank (side)"]).status, 0) }),
            ("history move", {
                let day = try Self.firstDay(cli)
                XCTAssertEqual(try cli.run(["history", "move", "--day", day, "--to", "1999-12-31"]).status, 0)
            }),
            ("drafts delete", { XCTAssertEqual(try cli.run(["drafts", "delete", "9.9"]).status, 0) }),
            ("sqlite3 deletes a day, foreign keys off", {
                // Not the newest row: its row key would be reused by the next insert, which would adopt the orphans.
                try Self.run(sqlite3, [cli.database.path, "DELETE FROM exercise_days WHERE pk = (SELECT pk FROM exercise_days ORDER BY day LIMIT 1 OFFSET 5)"])
            }),
            ("sqlite3 inserts a day", {
                try Self.run(sqlite3, [cli.database.path, """
                    PRAGMA foreign_keys = ON;
                    INSERT INTO exercise_days (id, day, date) VALUES ('0F0F0F0F-0000-4000-8000-000000000001', '2031-01-01', 915148800);
                    INSERT INTO exercises (day_pk, position, name, name_key)
                        SELECT pk, 1, 'Swim', 'Swim' FROM exercise_days WHERE day = '2031-01-01';
                    INSERT INTO exercises (day_pk, position, name, name_key)
                        SELECT pk, 2, 'Run', 'Run' FROM exercise_days WHERE day = '2031-01-01';
                    """])
            }),
            ("sqlite3 adds an exercise to an old day", {
                try Self.run(sqlite3, [cli.database.path, """
                    INSERT INTO exercises (day_pk, position, name, name_key)
                        SELECT pk, 99, 'Stretch', 'Stretch' FROM exercise_days ORDER BY day LIMIT 1;
                    """])
            }),
            ("sqlite3 renames a checklist item", {
                try Self.run(sqlite3, [cli.database.path, "UPDATE checklist_items SET title = title || ' (edited)' WHERE position = 1"])
            }),
        ]
        for (name, step) in steps {
            try step()
            try sync(name)
        }
        // A second run with nothing new changes nothing (the record at the token comes again).
        try sync("a repeated run")

        // The README's exactly-once recipe: the token PostgreSQL recorded, not the state file.
        XCTAssertEqual(try cli.run(["history", "add", "Swim"]).status, 0)
        let psql = Self.psqlCommand(postgres)
        let recipe = try Self.shell("set -o pipefail; " + Self.shellQuoted(CLIHarness.executable.path) + " --db "
                                    + Self.shellQuoted(cli.database.path) + " changes --since \"$(" + psql
                                    + " -At -c \"SELECT token FROM logbook_sources WHERE source = '" + (try Self.source(cli))
                                    + "'\")\" --format postgres | " + psql)
        XCTAssertEqual(recipe.status, 0, recipe.errors)
        try Self.assertEqual(postgres, cli, seed: seed, step: "the exactly-once recipe")

        // A run whose output cannot be written keeps the token: the next run ships it all again.
        let token = try String(contentsOf: state, encoding: .utf8)
        XCTAssertEqual(try cli.run(["history", "add", "Lunge"]).status, 0)
        let failed = try Self.shell("\(Self.shellQuoted(CLIHarness.executable.path)) --db \(Self.shellQuoted(cli.database.path)) "
                                    + "changes --state \(Self.shellQuoted(state.path)) --format postgres > /dev/full")
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertEqual(try String(contentsOf: state, encoding: .utf8), token, "the token moves only after a complete output")
        try sync("after a failed run")

        // An expired token is refused with the way out.
        XCTAssertEqual(try cli.run(["changes", "--set-retention", "1"]).status, 0)
        // The newest entry is always kept, so the token's own entry goes only once newer ones are old too.
        for _ in 0..<2 {
            try Self.run(sqlite3, [cli.database.path, "UPDATE change_log SET at = at - 10 * 86400"])
            XCTAssertEqual(try cli.run(["history", "add", "Squat"]).status, 0, "a writer prunes the log on open")
        }
        XCTAssertFailure(try cli.run(["changes", "--state", state.path]), status: 1, mentioning: "start again with every record")
    }

    /// Feed scripts loaded out of order, as two nightly runs that overlap, an old file loaded
    /// again, or a load that failed while `--state` moved on give them: a script that ends before
    /// the token PostgreSQL holds (it would take records back; helper-99) or starts after it (the
    /// changes between would be lost) stops with an error, PostgreSQL unchanged; every other
    /// brings PostgreSQL to the logbook as the script read it. Seeded: random writes (Logbook's
    /// and the `sqlite3` shell's unlogged inserts) between the scripts, each begun after the one
    /// before or an older one, then loaded in a random order. A logbook restored from a backup
    /// loads a feed of every record made after the restore, an old one is refused; the feeds are
    /// made with the logbook's clock an hour ahead of the server's (the first form of the check
    /// compared the two clocks, and let the old one through; helper-100). A feed that starts
    /// after a token into a PostgreSQL that holds none of the logbook is refused.
    func testAFeedScriptOutOfOrderIsRefusedAndNoneTakesRecordsBack() throws {
        let postgres = try PostgresCluster()
        let seed = PropertyTestSettings.seed("LOGBOOK_POSTGRES_ORDER_SEED", default: 0x4F52_4452)
        var random = SplitMix64(seed: seed)
        let cli = try Self.logbook(seed: seed)
        let source = try Self.source(cli)
        let tables = ["logbook_drafts", "logbook_checklist_items", "logbook_exercise_days", "logbook_exercises"]
        func records() throws -> [[String]] { try tables.map { try postgres.copy("SELECT * FROM \($0) ORDER BY \($0)::text") } }
        func heldToken() throws -> String? { try postgres.query("SELECT token FROM logbook_sources WHERE source = '\(source)'").first }
        // `logbook changes` with the logbook's clock an hour ahead, where faketime is installed.
        let faketime = FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime") ? ["/usr/bin/faketime", "-f", "+3600"] : []
        func changes(_ arguments: [String]) throws -> ExternalProgram.Result {
            let command = faketime + [CLIHarness.executable.path, "--db", cli.database.path, "changes"] + arguments
            return try ExternalProgram.run(command[0], Array(command.dropFirst()), environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"])
        }

        // A feed after a token, into a PostgreSQL that holds no feed of the logbook: all before it would be missing.
        let token = try XCTUnwrap(cli.run(["changes"]).lines.last.flatMap { $0.split(separator: "\"").dropLast().last.map(String.init) })
        let partial = cli.folder.appendingPathComponent("partial.sql")
        XCTAssertEqual(try changes(["--since", token, "--format", "postgres", "-o", partial.path]).status, 0)
        XCTAssertThrowsError(try postgres.load(partial)) { XCTAssertTrue("\($0)".contains("PostgreSQL holds no feed of this logbook"), "\($0)") }

        // The README's exactly-once recipe from nothing: no table yet, so the token is empty, and an
        // empty --since is every record (it was refused as no token, exit 2; helper-99).
        let psql = Self.psqlCommand(postgres)
        let recipe = try Self.shell("set -o pipefail; " + Self.shellQuoted(CLIHarness.executable.path) + " --db "
                                    + Self.shellQuoted(cli.database.path) + " changes --since \"$(" + psql
                                    + " -At -c \"SELECT token FROM logbook_sources WHERE source = '" + source + "'\" 2>/dev/null)\""
                                    + " --format postgres | " + psql)
        XCTAssertEqual(recipe.status, 0, recipe.errors)
        try Self.assertEqual(postgres, cli, seed: seed, step: "the recipe's first run")
        let oldExport = cli.folder.appendingPathComponent("old-export.sql")
        XCTAssertEqual(try cli.run(["export", "history", "--format", "postgres", "-o", oldExport.path]).status, 0)

        // The scripts, each loaded as it is made: PostgreSQL's records then are the logbook's.
        struct Script { let file: URL, since: String?, end: String, records: [[String]] }
        var scripts: [Script] = []
        let state = cli.folder.appendingPathComponent("state")
        var count = 0
        for index in 0..<8 {
            switch random.int(0...4) {
            case 0: XCTAssertEqual(try cli.run(["-q", "history", "add", "Row \(index)", "--at", "20\(30 + index)-01-01T10:00:00Z"]).status, 0)
            case 1: XCTAssertEqual(try cli.run(["-q", "drafts", "add", "--version", "order \(index)", "--item", "A"]).status, 0)
            case 2: XCTAssertEqual(try cli.run(["-q", "history", "delete", "--day", try Self.firstDay(cli)]).status, 0)
            case 3:
                // An insert no trigger logs: only the day mark tells the tokens apart.
                try Self.run("/usr/bin/sqlite3", [cli.database.path, """
                    INSERT INTO exercise_days (id, day, date) VALUES ('0F0F0F0F-0000-4000-8000-00000000000\(index)', '20\(40 + index)-01-01', 1000000000);
                    INSERT INTO exercises (day_pk, position, name, name_key) SELECT pk, 1, 'Swim', 'Swim' FROM exercise_days WHERE day = '20\(40 + index)-01-01';
                    """])
            default: break
            }
            // Mostly from the token before, sometimes from an older one (a state file restored), or every record.
            let since: String? = index == 0 || random.int(0...5) == 0 ? nil
                : random.int(0...2) == 0 ? scripts[random.int(0...(scripts.count - 1))].end : scripts.last!.end
            try? FileManager.default.removeItem(at: state)
            if let since { try (since + "\n").write(to: state, atomically: true, encoding: .utf8) }
            let file = cli.folder.appendingPathComponent("feed-\(index).sql")
            XCTAssertEqual(try changes(["--state", state.path, "--format", "postgres", "-o", file.path]).status, 0)
            try postgres.load(file)
            try Self.assertEqual(postgres, cli, seed: seed, step: "feed \(index)")
            let end = try String(contentsOf: state, encoding: .utf8).trimmingCharacters(in: .newlines)
            XCTAssertEqual(try heldToken(), end)
            scripts.append(Script(file: file, since: since, end: end, records: try records()))
        }

        // Loaded again into an empty PostgreSQL, the first first, then in a random order: the model
        // says which load stops.
        _ = try postgres.query("DELETE FROM logbook_drafts; DELETE FROM logbook_exercise_days; DELETE FROM logbook_sources")
        func order(_ token: String) -> (Int64, Int64) {
            let parts = token.split(separator: ":")
            return (Int64(parts[1])!, Int64(parts[2])!)
        }
        try postgres.load(scripts[0].file)
        var held = scripts[0].end
        var refused = 0
        for _ in 0..<16 {
            let script = scripts[random.int(0...(scripts.count - 1))]
            let before = try records()
            let isOlder = order(held) > order(script.end)
            let leavesAGap = script.since.map { order(held) < order($0) } ?? false
            let load = Result { try postgres.load(script.file) }
            count += 1
            if isOlder || leavesAGap {
                refused += 1
                guard case .failure(let error) = load else {
                    XCTFail("seed \(seed): \(script.file.lastPathComponent) (\(script.since ?? "every record") to \(script.end)) loaded over \(held)")
                    continue
                }
                XCTAssertTrue("\(error)".contains(isOlder ? "would take records back" : "the changes between would be lost"), "\(error)")
                XCTAssertEqual(try records(), before, "seed \(seed): a refused load changed PostgreSQL")
                XCTAssertEqual(try heldToken(), held)
            } else {
                if case .failure(let error) = load { XCTFail("seed \(seed): \(script.file.lastPathComponent) refused over \(held): \(error)") }
                XCTAssertEqual(try records(), script.records, "seed \(seed): \(script.file.lastPathComponent) over \(held)")
                held = script.end
            }
        }

        // Restored from a backup taken before the newest feed: the old token is refused by the
        // logbook, an old feed by PostgreSQL, and a feed of every record made now loads.
        let copy = cli.folder.appendingPathComponent("copy.sqlite")
        XCTAssertEqual(try cli.run(["backup", copy.path]).status, 0)
        // Two writes after the backup, one after the restore: the restored log ends before the token PostgreSQL holds.
        for day in ["2050-06-01", "2050-06-02"] {
            XCTAssertEqual(try cli.run(["-q", "history", "add", "After the backup", "--at", "\(day)T10:00:00Z"]).status, 0)
        }
        let newest = cli.folder.appendingPathComponent("newest.sql")
        XCTAssertEqual(try changes(["--since", scripts.last!.end, "--format", "postgres", "-o", newest.path]).status, 0)
        try postgres.load(newest)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cli.database.path + suffix) }
        try FileManager.default.copyItem(at: copy, to: cli.database)
        XCTAssertEqual(try cli.run(["-q", "history", "add", "After the restore", "--at", "2050-07-01T10:00:00Z"]).status, 0)
        XCTAssertNotEqual(try cli.run(["changes", "--since", try XCTUnwrap(heldToken())]).status, 0, "the token of the lost history")
        XCTAssertThrowsError(try postgres.load(scripts[0].file), "a feed of every record read before the last load")
        let restored = cli.folder.appendingPathComponent("restored.sql")
        XCTAssertEqual(try changes(["--format", "postgres", "-o", restored.path]).status, 0)
        try postgres.load(restored)
        try Self.assertEqual(postgres, cli, seed: seed, step: "after the restore")

        // An export read before the feed PostgreSQL holds is refused as an older feed is (it took
        // records back for good, exit 0; helper-101); one read now loads.
        XCTAssertThrowsError(try postgres.load(oldExport)) { XCTAssertTrue("\($0)".contains("would take records back"), "\($0)") }
        let newExport = cli.folder.appendingPathComponent("new-export.sql")
        XCTAssertEqual(try cli.run(["export", "history", "--format", "postgres", "-o", newExport.path]).status, 0)
        try postgres.load(newExport)
        try Self.assertEqual(postgres, cli, seed: seed, step: "after an export read now")

        // Another logbook under this one's source is refused, naming the way out (it replaced the
        // first's records, exit 0; helper-101).
        let other = try Self.logbook(seed: seed &+ 1)
        let intruder = other.folder.appendingPathComponent("intruder.sql")
        XCTAssertEqual(try other.run(["changes", "--format", "postgres", "--source", source, "-o", intruder.path]).status, 0)
        XCTAssertThrowsError(try postgres.load(intruder)) { XCTAssertTrue("\($0)".contains("for another logbook"), "\($0)") }
        try Self.assertEqual(postgres, cli, seed: seed, step: "after another logbook's feed under its source")
        print("PostgresCLITests (LOGBOOK_POSTGRES_ORDER_SEED=\(seed)): \(count) loads out of order, \(refused) refused")
    }

    /// Two loads at once, of the same logbook or of two, wait for each other: each script takes
    /// one lock before anything else (two deadlocked on the schema's indexes, and the newer one
    /// was lost; helper-100). The scripts here sleep before their check, so that the loads overlap.
    func testLoadsAtOnceWaitForEachOther() throws {
        let postgres = try PostgresCluster()
        let seed = PropertyTestSettings.seed("LOGBOOK_POSTGRES_SEED", default: 0x5047)
        let logbooks = try (0..<2).map { index in try Self.logbook(seed: seed &+ UInt64(index)) }
        let psql = Self.psqlCommand(postgres)
        for cli in logbooks {
            let first = cli.folder.appendingPathComponent("first.sql")
            XCTAssertEqual(try cli.run(["changes", "--state", cli.folder.appendingPathComponent("state").path, "--format", "postgres",
                                        "-o", first.path]).status, 0)
            try postgres.load(first)
        }
        for round in 0..<3 {
            var scripts: [URL] = []
            for (index, cli) in logbooks.enumerated() {
                let state = cli.folder.appendingPathComponent("state")
                let since = try String(contentsOf: state, encoding: .utf8).trimmingCharacters(in: .newlines)
                // Two feeds of one logbook from one token, the second newer, and one of the other logbook.
                for name in index == 0 ? ["older", "newer"] : ["other"] {
                    XCTAssertEqual(try cli.run(["-q", "history", "add", "\(name) \(round)", "--at", "20\(40 + round)-01-0\(index + 1)T10:00:00Z"]).status, 0)
                    let script = cli.folder.appendingPathComponent("\(name)-\(round).sql")
                    XCTAssertEqual(try cli.run(["changes", "--since", since, "--format", "postgres", "-o", script.path]).status, 0)
                    let text = try String(contentsOf: script, encoding: .utf8)
                    let check = try XCTUnwrap(text.range(of: "CREATE TEMPORARY TABLE logbook_load_token"))
                    try (String(text[..<check.lowerBound]) + "SELECT pg_sleep(0.5);\n" + String(text[check.lowerBound...]))
                        .write(to: script, atomically: true, encoding: .utf8)
                    scripts.append(script)
                }
                _ = try cli.run(["changes", "--state", state.path, "-o", "/dev/null"])
            }
            let run = scripts.map { "\(psql) -f \(Self.shellQuoted($0.path)) > /dev/null 2> \(Self.shellQuoted($0.path + ".err")); echo $? >> \(Self.shellQuoted($0.path + ".err"))" }
            XCTAssertEqual(try Self.shell(run.map { "(\($0)) &" }.joined(separator: " ") + " wait").status, 0)
            let results = try scripts.map { try String(contentsOf: URL(fileURLWithPath: $0.path + ".err"), encoding: .utf8) }
            for (script, result) in zip(scripts, results) {
                XCTAssertFalse(result.contains("deadlock"), "round \(round): \(script.lastPathComponent): \(result)")
            }
            // The older feed either loads first or is refused as older; the newer and the other load.
            XCTAssertTrue(results[1] == "0\n", "round \(round): the newer feed: \(results[1])")
            XCTAssertTrue(results[2] == "0\n", "round \(round): the other logbook's feed: \(results[2])")
            XCTAssertTrue(results[0] == "0\n" || results[0].contains("would take records back"), "round \(round): \(results[0])")
            for cli in logbooks { try Self.assertEqual(postgres, cli, seed: seed, step: "round \(round)") }
        }
    }

    /// A record PostgreSQL cannot hold writes none of its rows, however many there are: a day of
    /// 20,000 exercises and a draft of 20,000 items, each with U+0000 in its last, leave stdout with
    /// no row of theirs (their first rows went out in pieces of 64 KiB before the error; helper-70).
    /// No server needed.
    func testARecordPostgreSQLCannotHoldWritesNoneOfItsRows() throws {
        let cli = try CLIHarness()
        let store = try Logbook(path: cli.database.path, timeZone: TimeZone(identifier: "UTC")!)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let good = ExerciseDay(date: start, day: CalendarDay(start, in: .gmt), exercises: ["Squat"])
        let next = start.addingTimeInterval(86_400)
        let bad = ExerciseDay(date: next, day: CalendarDay(next, in: .gmt),
                              exercises: (0..<20_000).map { "Exercise \($0) of a long day" } + ["Nul\u{0}Name"])
        try store.history.save([good, bad])
        let goodDraft = ReleaseDraft(version: "1.0", checklist: [ChecklistItem(title: "Ship")], createdAt: start, updatedAt: start)
        let badDraft = ReleaseDraft(version: "2.0", checklist: (0..<20_000).map { ChecklistItem(title: "Item \($0) of a long list") }
                                        + [ChecklistItem(title: "Nul\u{0}Item")], createdAt: next, updatedAt: next)
        try store.drafts.save(contentsOf: [goodDraft, badDraft])
        for (kind, badID, field) in [("history", bad.id, "exercises[20000] of the day \(bad.day) (\(bad.id.uuidString))"),
                                     ("drafts", badDraft.id, "checklist[20000].title of the draft \(badDraft.id.uuidString)")] {
            let refused = try cli.run(["export", kind, "--format", "postgres"])
            XCTAssertFailure(refused, status: 1, mentioning: field, "U+0000")
            XCTAssertFalse(refused.stdout.contains(badID.text), "\(kind): a row of the record refused was written")
            // The script ends in a statement that fails, so that `… | psql` fails too (it read no COMMIT and exited 0; helper-99).
            XCTAssertTrue(refused.stdout.hasSuffix(Self.abandoned), "\(kind)")
        }
        // So does a feed whose first record cannot be read (it wrote nothing, and psql read nothing, exit 0; helper-100).
        try Connection(path: cli.database.path).execute("UPDATE drafts SET created_at = 'abc' WHERE pk = (SELECT min(pk) FROM drafts)")
        let unreadable = try cli.run(["changes", "--format", "postgres"])
        XCTAssertEqual(unreadable.status, 1, unreadable.stderr)
        XCTAssertTrue(unreadable.stdout.hasPrefix("-- Logbook changes of ") && unreadable.stdout.hasSuffix(Self.abandoned), unreadable.stdout)
        // A refused token writes nothing.
        XCTAssertEqual(try cli.run(["changes", "--since", "00000000-0000-4000-8000-000000000000:1:1", "--format", "postgres"]).stdout, "")
    }

    /// How a script Logbook stopped writing ends.
    private static let abandoned = "RAISE EXCEPTION 'logbook stopped before the end of this script (its error says why): "
        + "nothing was loaded'; END $logbook$;\n"

    /// The README shows the schema the scripts create, as they create it.
    func testReadmeShowsTheSchema() throws {
        let readme = try Fixtures.readme()
        XCTAssertTrue(readme.utf8.firstRange(of: ("```sql\n" + PostgresScript.schema + "```").utf8) != nil,
                      "README's PostgreSQL schema differs from PostgresScript.schema")
    }

    // MARK: - Comparing PostgreSQL with a logbook

    /// Every record of `cli` byte for byte in PostgreSQL under its source, nothing else there, and
    /// PostgreSQL's answers to the report questions equal to `logbook report`.
    private static func assertEqual(_ postgres: PostgresCluster, _ cli: CLIHarness, seed: UInt64, step: String = "",
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let context = "seed \(seed) \(step)"
        let source = try source(cli)
        let store = try Logbook.openForReading(path: cli.database.path, timeZone: TimeZone(identifier: "UTC")!)
        let days = try store.history.fetch(RecordQuery())
        let expectedDays = days.sorted { $0.day < $1.day }.flatMap { day -> [[String]] in
            let fields = [day.id.uuidString, day.day.description, String(day.date.timeIntervalSinceReferenceDate), day.date.iso8601Microseconds]
            guard !day.exercises.isEmpty else { return [fields + ["\\N", "\\N", "\\N"]] }
            return day.exercises.enumerated().map { fields + [String($0.offset + 1), copyText($0.element), copyText($0.element.comparisonKey)] }
        }
        let storedDays = try postgres.copy("""
            SELECT upper(d.id::text), d.day, d.date_seconds, to_char(d.date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                   e.position, e.name, e.name_key
            FROM logbook_exercise_days AS d LEFT JOIN logbook_exercises AS e ON e.source = d.source AND e.day_id = d.id
            WHERE d.source = '\(source)' ORDER BY d.day, e.position
            """).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        // The seconds compare as numbers (PostgreSQL and Swift both print the shortest exact text, spelled differently).
        XCTAssertEqual(storedDays.map { Double($0[2]) }, expectedDays.map { Double($0[2]) }, "\(context): date_seconds", file: file, line: line)
        let withoutSeconds = { (rows: [[String]]) in rows.map { $0.enumerated().filter { $0.offset != 2 }.map(\.element).joined(separator: "\t") } }
        assertSameBytes(withoutSeconds(storedDays), withoutSeconds(expectedDays), "\(context): exercise rows", file: file, line: line)
        let drafts = try store.drafts.fetch(RecordQuery())
        let expectedDrafts = drafts.sorted { $0.id.uuidString < $1.id.uuidString }.flatMap { draft -> [[String]] in
            let fields = [draft.id.uuidString, copyText(draft.version), copyText(draft.version.comparisonKey), copyText(draft.whatsNew),
                          draft.submittedAt?.iso8601Microseconds ?? "\\N", draft.createdAt.iso8601Microseconds, draft.updatedAt.iso8601Microseconds]
            guard !draft.checklist.isEmpty else { return [fields + ["\\N", "\\N", "\\N", "\\N"]] }
            return draft.checklist.enumerated().map {
                fields + [String($0.offset + 1), $0.element.id.uuidString, copyText($0.element.title), $0.element.isDone ? "t" : "f"]
            }
        }
        let time = { (column: String) in "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')" }
        let storedDrafts = try postgres.copy("""
            SELECT upper(d.id::text), d.version, d.version_key, d.whats_new, \(time("d.submitted_at")), \(time("d.created_at")),
                   \(time("d.updated_at")), i.position, upper(i.id::text), i.title, i.is_done
            FROM logbook_drafts AS d LEFT JOIN logbook_checklist_items AS i ON i.source = d.source AND i.draft_id = d.id
            WHERE d.source = '\(source)' ORDER BY upper(d.id::text), i.position
            """)
        assertSameBytes(storedDrafts, expectedDrafts.map { $0.joined(separator: "\t") }, "\(context): drafts", file: file, line: line)
        let exactSeconds = try postgres.query("""
            SELECT count(*) FROM logbook_drafts WHERE source = '\(source)'
            AND (created_at_seconds IS NULL OR updated_at_seconds IS NULL OR (submitted_at IS NULL) <> (submitted_at_seconds IS NULL))
            """)
        XCTAssertEqual(exactSeconds, ["0"], context, file: file, line: line)

        // The report questions, asked of PostgreSQL.
        let exercises = try JSONDecoder().decode([ExerciseReportRow].self, from: try cli.run(["report", "exercises", "--format", "json"]).output)
        let storedExercises = try postgres.copy("""
            SELECT min(e.name COLLATE "C"), count(*), count(DISTINCT d.day), min(d.day), max(d.day)
            FROM logbook_exercises AS e JOIN logbook_exercise_days AS d ON d.source = e.source AND d.id = e.day_id
            WHERE e.source = '\(source)' GROUP BY e.name_key ORDER BY min(e.name COLLATE "C")
            """)
        assertSameBytes(storedExercises,
                        exercises.sorted { Array($0.exercise.utf8).lexicographicallyPrecedes(Array($1.exercise.utf8)) }
                            .map { [copyText($0.exercise), String($0.count), String($0.days), $0.firstDay.description,
                                    $0.lastDay.description].joined(separator: "\t") },
                        "\(context): report exercises", file: file, line: line)
        let months = try JSONDecoder().decode([HistoryReportRow].self,
                                              from: try cli.run(["report", "history", "--by", "month", "--format", "json"]).output)
        let storedMonths = try postgres.query("""
            SELECT to_char(d.day, 'YYYY-MM'), count(DISTINCT d.id), count(e.position), count(DISTINCT e.name_key)
            FROM logbook_exercise_days AS d JOIN logbook_exercises AS e ON e.source = d.source AND e.day_id = d.id
            WHERE d.source = '\(source)' GROUP BY 1 ORDER BY 1
            """)
        XCTAssertEqual(storedMonths, months.filter { $0.exercises > 0 }.map { "\($0.period)|\($0.activeDays)|\($0.exercises)|\($0.distinctExercises)" },
                       "\(context): report history --by month", file: file, line: line)
        if let asOf = days.filter({ !$0.exercises.isEmpty }).map(\.day).max() {
            let streaks = try JSONDecoder().decode([StreakReport].self,
                                                   from: try cli.run(["report", "streaks", "--as-of", asOf.description, "--format", "json"]).output)
            let storedLongest = try postgres.query("""
                WITH active AS (SELECT DISTINCT d.day FROM logbook_exercise_days AS d
                                JOIN logbook_exercises AS e ON e.source = d.source AND e.day_id = d.id WHERE d.source = '\(source)'),
                     runs AS (SELECT min(day) AS first, max(day) AS last, count(*) AS length
                              FROM (SELECT day, day - (row_number() OVER (ORDER BY day))::integer AS run FROM active) AS numbered
                              GROUP BY run)
                SELECT length || '|' || first || '|' || last || '|' ||
                       coalesce((SELECT length FROM runs WHERE last = DATE '\(asOf)'), 0) FROM runs ORDER BY length DESC, last DESC LIMIT 1
                """)
            XCTAssertEqual(storedLongest, streaks.map {
                "\($0.longestStreak)|\($0.longestStart?.description ?? "")|\($0.longestEnd?.description ?? "")|\($0.currentStreak)"
            }, "\(context): report streaks", file: file, line: line)
        }
        struct DraftRow: Decodable { let version: String, isSubmitted: Bool, done: Int, total: Int }
        let draftReport = try JSONDecoder().decode([DraftRow].self, from: try cli.run(["report", "drafts", "--format", "json"]).output)
        let storedCompletion = try postgres.copy("""
            SELECT d.version, d.submitted_at IS NOT NULL, count(i.position) FILTER (WHERE i.is_done), count(i.position)
            FROM logbook_drafts AS d LEFT JOIN logbook_checklist_items AS i ON i.source = d.source AND i.draft_id = d.id
            WHERE d.source = '\(source)' GROUP BY d.source, d.id
            """)
        let byBytes = { (rows: [String]) in rows.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } }
        assertSameBytes(byBytes(storedCompletion), byBytes(draftReport.map { "\(copyText($0.version))\t\($0.isSubmitted ? "t" : "f")\t\($0.done)\t\($0.total)" }),
                        "\(context): report drafts", file: file, line: line)
    }

    /// How `COPY … TO STDOUT` spells `text`: backslash, backspace, tab, line feed, vertical tab,
    /// form feed and carriage return escaped.
    private static func copyText(_ text: String) -> String {
        let escapes: [UInt8: String] = [0x5C: #"\\"#, 0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0B: #"\v"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
        var bytes: [UInt8] = []
        for byte in text.utf8 { bytes += escapes[byte].map { Array($0.utf8) } ?? [byte] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Asserts `stored` and `expected` hold the same lines byte for byte, naming the first that differs.
    private static func assertSameBytes(_ stored: [String], _ expected: [String], _ context: String,
                                        file: StaticString, line: UInt) {
        XCTAssertEqual(stored.count, expected.count, "\(context): rows", file: file, line: line)
        if let index = zip(stored, expected).enumerated().first(where: { !$0.element.0.utf8.elementsEqual($0.element.1.utf8) })?.offset {
            XCTFail("\(context): row \(index): \(stored[index].debugDescription) in PostgreSQL, \(expected[index].debugDescription) expected",
                    file: file, line: line)
        }
    }

    // MARK: - Making logbooks

    /// A logbook of a few hundred days and drafts with adversarial text (no U+0000, which
    /// PostgreSQL refuses), written through the library, in a CLI harness.
    private static func logbook(seed: UInt64) throws -> CLIHarness {
        var random = SplitMix64(seed: seed)
        func text(nonEmpty: Bool = false) -> String {
            var value = ""
            repeat { value = AdversarialText.string(using: &random, maxPieces: 4, nonEmpty: nonEmpty) } while value.unicodeScalars.contains("\0")
            return value
        }
        func instant(_ random: inout SplitMix64) -> Date {
            let range = Date.supportedRange
            return Date(timeIntervalSinceReferenceDate: AdversarialDates.seconds(
                in: range.lowerBound.timeIntervalSinceReferenceDate...range.upperBound.timeIntervalSinceReferenceDate, using: &random))
        }
        // A name of 1,500 random CJK letters (4,500 bytes PostgreSQL cannot compress) is longer
        // than a B-tree index entry may be (2,704 bytes; its load failed, helper-34).
        let long = String(String.UnicodeScalarView((0..<1_500).map { _ in Unicode.Scalar(0x4E00 + UInt32(random.next() % 0x5200))! }))
        let names = (0..<12).map { _ in text(nonEmpty: true) } + ["Burpee", "Squat", "Café", "Cafe\u{301}", long]
        let cli = try CLIHarness()
        let store = try Logbook(path: cli.database.path, timeZone: TimeZone(identifier: "UTC")!)
        var days: [ExerciseDay] = []
        var day = CalendarDay(year: 2025, month: 12, day: 1)!.adding(days: Int(random.next() % 30))!
        for _ in 0..<150 {
            let exercises = (0...Int(random.next() % 4)).map { _ in names[Int(random.next() % UInt64(names.count))] }
            days.append(ExerciseDay(date: instant(&random), day: day, exercises: exercises))
            day = day.adding(days: 1 + Int(random.next() % 3))!
        }
        try store.history.save(days)
        for _ in 0..<12 {
            let checklist = (0..<Int(random.next() % 5)).map { _ in ChecklistItem(title: text(), isDone: random.next() % 2 == 0) }
            _ = try store.drafts.save(ReleaseDraft(version: text(), whatsNew: text(), checklist: checklist,
                                                   submittedAt: random.next() % 3 == 0 ? instant(&random) : nil))
        }
        return cli
    }

    private static func source(_ cli: CLIHarness) throws -> String {
        try Logbook.openForReading(path: cli.database.path).logbookID()
    }

    private static func firstDay(_ cli: CLIHarness) throws -> String {
        try Logbook.openForReading(path: cli.database.path).history.fetch(RecordQuery()).map(\.day).min()!.description
    }

    private static func dayCount(_ cli: CLIHarness) throws -> Int {
        try Logbook.openForReading(path: cli.database.path).history.fetchCount()
    }

    /// `psql` connected to `postgres`, as a shell command line.
    private static func psqlCommand(_ postgres: PostgresCluster) -> String {
        (["/usr/bin/psql"] + postgres.psqlArguments).map(shellQuoted).joined(separator: " ")
    }

    private static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    private static func shell(_ command: String) throws -> ExternalProgram.Result {
        try ExternalProgram.run("/bin/bash", ["-c", command])
    }

    private static func run(_ program: String, _ arguments: [String]) throws {
        let result = try ExternalProgram.run(program, arguments)
        XCTAssertEqual(result.status, 0, result.errors)
    }
}
