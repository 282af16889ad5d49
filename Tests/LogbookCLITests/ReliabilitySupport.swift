import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Helpers shared by the reliability tests: crash safety, concurrency, fuzzing, damaged databases
/// and backups. `.ci/stress` scales them up through the environment variables read by ``setting``.
enum Reliability {
    /// A whole number from the environment variable `name`, else `fallback`.
    static func setting(_ name: String, default fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? fallback
    }

    /// The instant of day `index` (day 0 is 2020-01-01), at noon UTC.
    static func noon(ofDay index: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: 599_529_600 + 43_200 + Double(index) * 86_400)
    }

    /// `noon(ofDay:)` as the ISO-8601 text `--at` takes.
    static func noonText(ofDay index: Int) -> String {
        noon(ofDay: index).formatted(.iso8601)
    }

    /// Writes a logbook as the release before migration `prefix` (`0017_`) left it: every migration
    /// before that one, the write-ahead log on, and `days` days of five exercises each written with
    /// plain SQL (so its tallies are not kept: for tests of the migration, not of the reports).
    static func writeOlderLogbook(at url: URL, before prefix: String, days: Int) throws {
        let files = Schema.migrationFiles
        let index = try XCTUnwrap(files.firstIndex { $0.fileName.hasPrefix(prefix) }, "no migration \(prefix)")
        let connection = try Connection(path: url.path)
        try connection.execute("PRAGMA journal_mode = WAL")  // as every Logbook file is
        try Migrator(migrations: files[..<index].map { try Migration(fileName: $0.fileName, sql: $0.sql) }).migrate(connection)
        try connection.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(days))
            INSERT INTO exercise_days (pk, id, day, date)
                SELECT i, printf('%08X-0000-4000-8000-%012X', i, i), date('2001-01-01', '+' || i || ' days'), i * 86400.0 FROM n;
            WITH RECURSIVE p(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM p WHERE j < 5)
            INSERT INTO exercises (day_pk, position, name, name_key)
                SELECT pk, j, 'Exercise ' || ((pk * 7 + j) % 23), 'Exercise ' || ((pk * 7 + j) % 23) FROM exercise_days, p;
            """)
    }

    /// Every exercise row's values, quoted, in key order.
    static func exerciseRows(in url: URL) throws -> [String] {
        let statement = try Connection(path: url.path).prepare(
            "SELECT quote(day_pk) || ' ' || quote(position) || ' ' || quote(name) || ' ' || quote(name_key) FROM exercises ORDER BY 1")
        var found: [String] = []
        while try statement.step() { found.append(try statement.column(0)) }
        return found
    }

    /// Writes history as NDJSON: one record per day index, with `exercisesPerDay` names and an id
    /// made from the index, so files with disjoint ranges never share a record.
    static func writeHistory(days: Range<Int>, exercisesPerDay: Int = 3, to url: URL) throws {
        let names = ["Squat", "Burpee", "Step Up", "Sun Salute ☀︎", "Élan"]
        let exercises = (0..<exercisesPerDay).map { "\"\(names[$0 % names.count])\"" }.joined(separator: ",")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var chunk = ""
        for index in days {
            let id = String(format: "00000000-0000-4000-8000-%012d", index)
            chunk += #"{"id":"\#(id)","date":\#(noon(ofDay: index).timeIntervalSinceReferenceDate),"exercises":[\#(exercises)]}"#
                + "\n"
            if chunk.utf8.count > 1 << 16 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.write(contentsOf: Data(chunk.utf8))
    }

    /// `PRAGMA integrity_check`, run by this process through SQLiteQuery (not by `logbook`).
    static func integrity(of url: URL) throws -> [String] {
        var options = Connection.Options()
        options.createIfMissing = false
        let connection = try Connection(path: url.path, options: options)
        let statement = try connection.prepare("PRAGMA integrity_check")
        var lines: [String] = []
        while try statement.step() { lines.append(try statement.column(0)) }
        return lines
    }

    /// A number that `logbook ARGUMENTS` prints alone on stdout (`count`, one-cell `query`).
    static func number(_ cli: CLIHarness, _ arguments: [String], file: StaticString = #filePath,
                       line: UInt = #line) throws -> Int {
        let result = try cli.run(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        let text = result.stdout.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return try XCTUnwrap(Int(text), "\(arguments) printed \(result.stdout)", file: file, line: line)
    }

    /// The number of day records and of exercises stored.
    static func counts(_ cli: CLIHarness, file: StaticString = #filePath, line: UInt = #line) throws -> (days: Int, exercises: Int) {
        (try number(cli, ["count", "history"], file: file, line: line),
         try number(cli, ["query", "SELECT count(*) FROM exercises", "--format", "csv"], file: file, line: line))
    }

    /// Runs `writes` one after the other, and beside them each of `reads` over and over (one process
    /// per lane at a time) until the writes are done; hands every finished run to `inspect`.
    /// Returns how many reads ran.
    @discardableResult
    static func runSideBySide(_ cli: CLIHarness, writes: [[String]], reads: [[String]],
                               inspect: ([String], CLIResult) -> Void) throws -> Int {
        var pending = writes[...]
        var writer = try pending.popFirst().map { try BackgroundRun(cli, $0) }
        var readers = try reads.map { try BackgroundRun(cli, $0) }
        var readCount = 0
        func finish(_ run: BackgroundRun) throws {
            let (result, signal) = try run.wait()
            XCTAssertNil(signal, "\(run.arguments) died of signal \(signal ?? 0)")
            inspect(run.arguments, result)
        }
        while let current = writer {
            if !current.isRunning {
                try finish(current)
                writer = try pending.popFirst().map { try BackgroundRun(cli, $0) }
            }
            for lane in readers.indices where !readers[lane].isRunning {
                try finish(readers[lane])
                readCount += 1
                readers[lane] = try BackgroundRun(cli, reads[lane])
            }
            usleep(2_000)
        }
        for reader in readers {
            try finish(reader)
            readCount += 1
        }
        return readCount
    }

    /// Whether another process is inside a write transaction on `database` (a WAL file), asked
    /// without taking the lock: SQLite's unix VFS holds a write lock on byte 120 of the `-shm`
    /// file (the WAL write lock) from a write transaction's start to its end, and `F_GETLK` names
    /// a process that holds it. So a test that kills a command can tell a kill inside its
    /// transaction from one before it began or after it ended.
    static func isInAWriteTransaction(_ database: URL) -> Bool {
        let descriptor = open(database.path + "-shm", O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 120
        lock.l_len = 1
        return fcntl(descriptor, F_GETLK, &lock) == 0 && lock.l_type != Int16(F_UNLCK)
    }

    /// Puts the database back to `bytes` (a closed database, so without a `-wal` file).
    static func restore(_ cli: CLIHarness, to bytes: Data) throws {
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cli.database.path + suffix) }
        try bytes.write(to: cli.database)
    }
}

/// A `logbook --db <the harness's database> ARGUMENTS` process started in the background, so a
/// test can kill it or run others beside it. `wrapper` runs it through another program
/// (`setpriv …`, `sh -c …`), which must end by running the command line it is given.
final class BackgroundRun {
    let arguments: [String]
    private let process = Process()
    private let output: URL
    private let errors: URL

    init(_ cli: CLIHarness, _ arguments: [String], wrapper: [String] = [], environment: [String: String] = [:]) throws {
        self.arguments = arguments
        let command = [CLIHarness.executable.path, "--db", cli.database.path] + arguments
        if let program = wrapper.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(wrapper.dropFirst()) + command
        } else {
            process.executableURL = CLIHarness.executable
            process.arguments = Array(command.dropFirst())
        }
        process.currentDirectoryURL = cli.folder
        process.environment = ["TZ": "UTC", "HOME": cli.folder.path,
                               "XDG_DATA_HOME": cli.folder.appendingPathComponent("xdg").path,
                               "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            .merging(environment) { _, new in new }
        let name = UUID().uuidString
        output = cli.folder.appendingPathComponent("bg-\(name).out")
        errors = cli.folder.appendingPathComponent("bg-\(name).err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// Sends SIGKILL, if the process is still running.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits for the process; `signal` is the signal that ended it, nil when it exited.
    func wait() throws -> (result: CLIResult, signal: Int32?) {
        process.waitUntilExit()
        try (process.standardOutput as? FileHandle)?.close()
        try (process.standardError as? FileHandle)?.close()
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        let result = CLIResult(output: try Data(contentsOf: output),
                               stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self),
                               status: process.terminationStatus)
        return (result, process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
    }

    /// Runs `logbook ARGUMENTS` through `wrapper` to the end.
    static func run(_ cli: CLIHarness, _ arguments: [String], wrapper: [String]) throws -> CLIResult {
        let run = try BackgroundRun(cli, arguments, wrapper: wrapper)
        let (result, signal) = try run.wait()
        XCTAssertNil(signal, "\(arguments) died of signal \(signal ?? 0): \(result.stderr)")
        return result
    }
}
