import Foundation

/// Another program a test runs to its exit (a shell, `psql`, `python3`, the `sqlite3` shell) and
/// what it printed. Each stream goes to a file and the wait is for the exit, not for the end of a
/// pipe: a server that `pg_ctl` starts outlives it holding the descriptors it inherited, and a
/// program that fills one pipe while the test reads the other would never exit.
struct ExternalProgram {
    /// What `run` found: the exit status and both streams.
    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The program exited with another status than 0.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the program at `path` with `arguments`, in `folder` and with `environment` when given
    /// (else the test's own), to its exit.
    static func run(_ path: String, _ arguments: [String], in folder: URL? = nil,
                    environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        let files = ["stdout", "stderr"].map { URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("program-\($0)-\(UUID().uuidString)") }
        for file in files { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        let handles = try files.map { try FileHandle(forWritingTo: $0) }
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        try process.run()
        process.waitUntilExit()
        for handle in handles { try handle.close() }
        return Result(status: process.terminationStatus, output: String(decoding: try Data(contentsOf: files[0]), as: UTF8.self),
                      errors: String(decoding: try Data(contentsOf: files[1]), as: UTF8.self))
    }

    /// What the program printed on stdout; throws ``Failure``, naming it and what it wrote on
    /// stderr, unless it exited 0.
    @discardableResult
    static func output(of path: String, _ arguments: [String], in folder: URL? = nil,
                       environment: [String: String]? = nil) throws -> String {
        let result = try run(path, arguments, in: folder, environment: environment)
        guard result.status == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ").prefix(300)) exited \(result.status): "
                            + result.errors.prefix(2_000))
        }
        return result.output
    }
}
