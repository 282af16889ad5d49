import Foundation
import LogbookTestSupport
import XCTest

/// What one run of the `logbook` binary produced.
struct CLIResult {
    /// stdout exactly as written (a binary property list, say).
    let output: Data
    var stdout: String { String(decoding: output, as: UTF8.self) }
    let stderr: String
    let status: Int32

    /// stdout split at each LF (a CSV's CR stays at the end of its line), without the final empty one.
    var lines: [String] {
        stdout.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Runs the built `logbook` executable in a scratch folder with a clean environment, like a user
/// at a terminal: arguments in, stdout, stderr and exit status out.
final class CLIHarness {
    private let scratch: TemporaryFolder
    var folder: URL { scratch.url }
    let database: URL

    init() throws {
        scratch = try TemporaryFolder("logbook-cli")
        database = scratch.file("logbook.sqlite")
    }

    /// The `logbook` binary that `swift build` put beside the test bundle.
    static var executable: URL {
        var directory = Bundle.main.bundleURL
        if directory.pathExtension == "xctest" || !FileManager.default.fileExists(atPath: directory.appendingPathComponent("logbook").path) {
            directory = directory.deletingLastPathComponent()
        }
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("logbook")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return directory.appendingPathComponent("logbook")
    }

    /// Runs `logbook --db <scratch database> ARGUMENTS` (no `--db` when `useDatabase` is false).
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
             useDatabase: Bool = true) throws -> CLIResult {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = (useDatabase ? ["--db", database.path] : []) + arguments
        process.currentDirectoryURL = folder
        var base = ["TZ": "UTC", "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("xdg").path,
                    "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        base.merge(environment) { _, new in new }
        process.environment = base

        let outURL = folder.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errURL = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        return CLIResult(output: try Data(contentsOf: outURL),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                         status: process.terminationStatus)
    }

    /// The bytes of the database file and its write-ahead log: equal snapshots mean nothing was written.
    func snapshot(of url: URL? = nil) -> [Data?] {
        let file = url ?? database
        return [file.path, file.path + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// Path of a fixture from Tests/Fixtures.
    static func fixture(_ name: String) -> URL { Fixtures.url(name) }
}

/// Asserts a failure the way the SPEC states it: the exit status, nothing on stdout, and one
/// `logbook: error:` line on stderr that contains `mentioning`.
func XCTAssertFailure(_ result: CLIResult, status: Int32, mentioning: String..., file: StaticString = #filePath,
                      line: UInt = #line) {
    XCTAssertFailure(result, status: status, mentioning: mentioning, file: file, line: line)
}

/// ``XCTAssertFailure(_:status:mentioning:file:line:)`` with the texts in an array.
func XCTAssertFailure(_ result: CLIResult, status: Int32, mentioning: [String], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(result.status, status, "stderr: \(result.stderr)", file: file, line: line)
    let errorLines = result.stderr.split(separator: "\n")
    XCTAssertEqual(errorLines.count, 1, "expected one error line, got: \(result.stderr)", file: file, line: line)
    XCTAssertTrue(result.stderr.hasPrefix("logbook: error: "), result.stderr, file: file, line: line)
    for text in mentioning {
        XCTAssertTrue(result.stderr.contains(text), "'\(text)' not in: \(result.stderr)", file: file, line: line)
    }
}
