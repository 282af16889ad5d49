import Foundation
import LogbookTestSupport
import XCTest

/// A bulk write's exercise rows (several a statement, migration 0017) and its derived rows (the day
/// totals, the week, month and year totals, and the tally rows of months and years that have none
/// yet) are written by statements that need no statement journal. SQLite keeps one for a statement that may write several rows and may abort half-way,
/// and once a bulk write outgrows its page cache that journal is a temporary file: a save of a
/// million exercises wrote to it about 100,000 times before these statements were made
/// journal-free (*Performance*).
///
/// Checked in SQLite itself: the `logbook` binary runs with a small C library preloaded
/// (`LD_PRELOAD`, compiled here with the toolchain's C compiler) that sets SQLite's threshold for
/// keeping a statement journal in memory to 0 bytes, so that every statement journal is a file from
/// its first page, and counts each statement's writes to SQLite's temporary files (`etilqs_…`).
final class StatementJournalCLITests: XCTestCase {
    func testExerciseAndDerivedRowsOfABulkImportNeedNoStatementJournal() throws {
        #if !os(Linux)
        throw XCTSkip("the preloaded library needs LD_PRELOAD and /proc (Linux)")
        #endif
        let seed = PropertyTestSettings.seed("STATEMENT_JOURNAL_SEED", default: 2612)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        let shim = try Self.compileShim(in: cli.folder)
        // Two days in three over a few years, in order (every month's and year's tally rows new:
        // plain inserts), then the days between them (the same months and years, now stored: upserts).
        let first = Date(timeIntervalSince1970: 1_546_300_800 + 86_400 * Double(Int.random(in: 0..<365, using: &random)))
        let days = (0..<1_400).map { Self.dayText(first.addingTimeInterval(86_400 * Double($0))) }
        let names = ["Squat", "Row", "Caf\u{E9}", "Cafe\u{301}", "Élan", "Run", "Plank", "Swim"]
        func ndjson(_ days: [String]) -> String {
            var lines: [String] = []
            for day in days {
                let exercises = (0..<Int.random(in: 1...6, using: &random)).map { _ in "\"\(names.randomElement(using: &random)!)\"" }
                lines.append("{\"id\":\"\(UUID().uuidString)\",\"day\":\"\(day)\",\"date\":\"\(day)T08:00:00Z\",\"exercises\":[\(exercises.joined(separator: ","))]}")
            }
            return lines.joined(separator: "\n")
        }
        let inOrder = days.indices.filter { $0 % 3 != 1 }.map { days[$0] }
        let between = days.indices.filter { $0 % 3 == 1 }.map { days[$0] }
        var reports: [[String: Int]] = []
        for (index, part) in [inOrder, between].enumerated() {
            let file = cli.folder.appendingPathComponent("part\(index).ndjson")
            try Data(ndjson(part).utf8).write(to: file)
            let report = cli.folder.appendingPathComponent("journal\(index).txt")
            let result = try cli.run(["import", file.path], environment: ["LD_PRELOAD": shim.path, "LOGBOOK_JOURNAL_REPORT": report.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            reports.append(try Self.journalWrites(in: report))
        }
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)

        // The first import writes every exercise and derived row new: none of its statements may journal. The
        // second adds to stored tally rows by upserts, which must (an upsert's update may abort):
        // that they are seen shows the preloaded library at work; nothing else may.
        let checked = reports.map { $0.filter { Self.journalFreeTables.contains(where: $0.key.contains) } }
        XCTAssertEqual(checked[0], [:], "seed \(seed): exercise or derived-row statements kept a statement journal")
        XCTAssertEqual(checked[1].filter { !$0.key.contains("DO UPDATE") }, [:],
                       "seed \(seed): exercise or derived-row statements other than upserts kept a statement journal")
        XCTAssertTrue(checked[1].keys.contains { $0.contains("DO UPDATE") },
                      "seed \(seed): no upsert journaled; is the library preloaded? \(reports[1])")
    }

    /// The exercises table and the derived tables, as the statements that write them name them.
    private static let journalFreeTables = ["INTO exercises ", "INTO exercise_day_totals ", "INTO exercise_period_totals ", "INTO exercise_months ",
                                        "INTO exercise_years ", "INTO exercise_month_days "]

    /// `date`'s day in UTC, `YYYY-MM-DD`.
    private static func dayText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// The statements that wrote to a statement journal (or another SQLite temporary file) and how
    /// many times each, from the report the preloaded library wrote: a line per statement, the
    /// count, a tab, the SQL (its line breaks as spaces).
    private static func journalWrites(in report: URL) throws -> [String: Int] {
        guard FileManager.default.fileExists(atPath: report.path) else { return [:] }
        var writes: [String: Int] = [:]
        for line in try String(contentsOf: report, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            writes[String(fields[1]), default: 0] += Int(fields[0])!
        }
        return writes
    }

    /// Compiles the preloaded library into `folder` with the C compiler beside `swift` (or `cc`).
    private static func compileShim(in folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("journal-writes.c")
        let library = folder.appendingPathComponent("journal-writes.so")
        try Data(shimSource.utf8).write(to: source)
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        let compiler = ["clang", "cc", "gcc"].lazy.flatMap { name in path.map { "\($0)/\(name)" } }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let found = try XCTUnwrap(compiler, "no C compiler (clang, cc, gcc) on the PATH to build the preloaded library")
        try ExternalProgram.output(of: found, ["-O1", "-shared", "-fPIC", "-o", library.path, source.path, "-lsqlite3", "-ldl"])
        return library
    }

    private static let shimSource = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <sqlite3.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>

        /* Every statement journal a file from its first page. */
        __attribute__((constructor)) static void spillAtOnce(void) { sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, 0); }

        static __thread const char *running;
        static struct { char *sql; long writes; } statements[1024];
        static int statementCount;

        int sqlite3_step(sqlite3_stmt *statement) {
            static int (*step)(sqlite3_stmt *);
            if (!step) step = (int (*)(sqlite3_stmt *))dlsym(RTLD_NEXT, "sqlite3_step");
            const char *outer = running;
            running = sqlite3_sql(statement);
            int result = step(statement);
            running = outer;
            return result;
        }

        static int isTemporaryFile(int descriptor) {
            char link[64], target[512];
            snprintf(link, sizeof link, "/proc/self/fd/%d", descriptor);
            ssize_t length = readlink(link, target, sizeof target - 1);
            if (length < 0) return 0;
            target[length] = 0;
            return strstr(target, "etilqs_") != NULL;
        }

        ssize_t pwrite64(int descriptor, const void *bytes, size_t count, off_t offset) {
            static ssize_t (*write)(int, const void *, size_t, off_t);
            if (!write) write = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
            if (isTemporaryFile(descriptor)) {
                const char *sql = running ? running : "(no statement)";
                int index = 0;
                while (index < statementCount && strcmp(statements[index].sql, sql) != 0) index++;
                if (index == statementCount && statementCount < 1024) statements[statementCount++].sql = strdup(sql);
                if (index < statementCount) statements[index].writes++;
            }
            return write(descriptor, bytes, count, offset);
        }

        __attribute__((destructor)) static void report(void) {
            const char *path = getenv("LOGBOOK_JOURNAL_REPORT");
            FILE *file = path ? fopen(path, "w") : NULL;
            if (!file) return;
            for (int index = 0; index < statementCount; index++) {
                for (char *c = statements[index].sql; *c; c++) if (*c == '\n' || *c == '\t') *c = ' ';
                fprintf(file, "%ld\t%s\n", statements[index].writes, statements[index].sql);
            }
            fclose(file);
        }
        """#
}
