import Foundation
import Logbook
import SQLiteQuery
import XCTest

/// `check` sees everything another program or a damaged disk can do to the file, names it, and
/// exits 1; the other commands refuse such a file with words, not a raw SQLite error (issue 15,
/// items 8 and 9).
final class CheckCLITests: XCTestCase {
    private func loaded() throws -> CLIHarness {
        let cli = try CLIHarness()
        _ = try FixtureData.load(into: cli)
        XCTAssertEqual(try cli.run(["check"]).status, 0)
        return cli
    }

    private func checkLine(_ cli: CLIHarness, _ prefix: String) throws -> String {
        let result = try cli.run(["check"])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stderr.hasPrefix("logbook: error: check failed for"), result.stderr)
        return result.lines.first { $0.hasPrefix(prefix) } ?? ""
    }

    func testAMissingMigrationRecordIsNamedByCheckAndEveryCommand() throws {
        let cli = try loaded()
        try Connection(path: cli.database.path).execute("DELETE FROM schema_migrations WHERE version = 4")
        let migrations = try checkLine(cli, "migrations:")
        XCTAssertTrue(migrations.contains("lacks 0004_create_exercise_tallies"), migrations)
        for arguments in [["history", "add", "Squat"], ["history", "list"], ["migrate"], ["report", "history"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1, mentioning: "lacks 0004_create_exercise_tallies")
        }
    }

    func testTablesIndexesAndTriggersDroppedOrChangedByAnotherProgram() throws {
        let cli = try loaded()
        let other = try Connection(path: cli.database.path)
        try other.execute("""
            DROP TRIGGER exercises_deleted_tallies_stale;
            DROP INDEX drafts_by_version;
            CREATE INDEX drafts_by_version ON drafts (version);
            CREATE INDEX my_own_index ON drafts (created_at);
            """)
        let schema = try checkLine(cli, "schema:")
        XCTAssertTrue(schema.contains("trigger exercises_deleted_tallies_stale is missing"), schema)
        XCTAssertTrue(schema.contains("index drafts_by_version differs from what the migrations create"), schema)
        XCTAssertFalse(schema.contains("my_own_index"), "another program's extra index is no problem")

        try other.execute("DROP TABLE exercise_day_totals")
        XCTAssertTrue(try checkLine(cli, "schema:").contains("table exercise_day_totals is missing"))
        XCTAssertFailure(try cli.run(["report", "history", "--by", "day"]), status: 1,
                         mentioning: "its schema is not the one Logbook's migrations made", "exercise_day_totals", "logbook check")
    }

    func testAFileCutByOneByteIsNamedByCheckAndRefusedByEveryCommand() throws {
        let cli = try loaded()
        var bytes = try Data(contentsOf: cli.database)
        bytes.removeLast()
        try bytes.write(to: cli.database)
        let result = try cli.run(["check"])
        XCTAssertEqual(result.status, 1)
        for arguments in [["history", "list"], ["drafts", "list"], ["count", "drafts"], ["export", "drafts"], ["history", "add", "Squat"]] {
            XCTAssertFailure(try cli.run(arguments), status: 1, mentioning: "not a whole number of 4096-byte pages")
        }
        XCTAssertEqual(try Data(contentsOf: cli.database), bytes, "nothing wrote to the damaged file")
    }
}
