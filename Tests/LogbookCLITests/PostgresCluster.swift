import Foundation
import LogbookTestSupport
import XCTest

/// A throwaway PostgreSQL server for one test: `initdb` into a temporary folder, started on a unix
/// socket only (no TCP), trust authentication, fsync off, stopped and deleted at the end. Run as an
/// unprivileged user (`nobody`) when the tests run as root, since PostgreSQL refuses root.
final class PostgresCluster {
    private let folder: TemporaryFolder
    private let bin: URL
    private let runAs: String?
    private var isRunning = false

    /// Starts a cluster, or throws `XCTSkip` saying why when PostgreSQL's server programs are not
    /// installed (`.ci/run` installs them).
    init() throws {
        guard let bin = Self.serverPrograms() else {
            throw XCTSkip("PostgreSQL is not installed (apt-get install postgresql); .ci/run installs it")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/psql") else {
            throw XCTSkip("psql is not installed (apt-get install postgresql-client)")
        }
        self.bin = bin
        folder = try TemporaryFolder("logbook-postgres")
        runAs = getuid() == 0 ? "nobody" : nil
        if let runAs {
            try ExternalProgram.output(of: "/bin/chown", ["-R", runAs, folder.url.path], environment: Self.environment)
            try ExternalProgram.output(of: "/bin/chmod", ["755", folder.url.path], environment: Self.environment)
        }
        try server("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        try server("pg_ctl", ["-D", data, "-l", folder.url.appendingPathComponent("server.log").path, "-w", "-t", "60", "-o",
                              "-k \(folder.url.path) -c listen_addresses='' -c fsync=off -c full_page_writes=off", "start"])
        isRunning = true
    }

    deinit {
        if isRunning { try? server("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]) }
    }

    /// Runs `psql` on `file` (a script Logbook wrote) in database `postgres`, stopping at the first
    /// error; throws with psql's stderr when it fails.
    func load(_ file: URL) throws {
        _ = try psql(["-f", file.path])
    }

    /// The rows `sql` returns, as `psql -At` prints them with `|` between fields.
    func query(_ sql: String) throws -> [String] {
        try psql(["-At", "-c", sql]).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// `COPY (sql) TO STDOUT`: PostgreSQL's text format, every byte of text escaped, one row a line.
    func copy(_ sql: String) throws -> [String] {
        try psql(["-c", "COPY (\(sql)) TO STDOUT"]).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The arguments that connect `psql` to this cluster, for a shell pipeline.
    var psqlArguments: [String] { ["-X", "-q", "-h", folder.url.path, "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1"] }

    private func psql(_ arguments: [String]) throws -> String {
        try ExternalProgram.output(of: "/usr/bin/psql", psqlArguments + arguments, environment: Self.environment)
    }

    private var data: String { folder.url.appendingPathComponent("data").path }

    /// What `psql` and the tools it needs see: no user settings, UTF-8, a bounded wait to connect.
    private static let environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "PGCONNECT_TIMEOUT": "30"]

    /// Runs a server program (initdb, pg_ctl) with `posix_spawn` and `waitpid`, output to a log
    /// file: the server that `pg_ctl start` leaves running inherits descriptors, and Foundation's
    /// `Process` waits for those to close, that is for ever.
    private func server(_ program: String, _ arguments: [String]) throws {
        let path = bin.appendingPathComponent(program).path
        let command = runAs.map { ["/usr/sbin/runuser", "-u", $0, "--", path] } ?? [path]
        let log = folder.url.appendingPathComponent("\(program).log").path
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = (command + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environment: [UnsafeMutablePointer<CChar>?] = [String](["PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"]).map { strdup($0) } + [nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environment)
        guard spawned == 0 else { throw ExternalProgram.Failure(description: "cannot start \(command[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ExternalProgram.Failure(description: "\(program) \(arguments.joined(separator: " ")) failed (status \(status)): \(output.suffix(2_000))")
        }
    }

    /// The newest `/usr/lib/postgresql/N/bin` with `initdb`, else the folder of `initdb` on the PATH.
    private static func serverPrograms() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let bin = root.appendingPathComponent("\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let bin = URL(fileURLWithPath: String(folder))
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path)
                && FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("pg_ctl").path) { return bin }
        }
        return nil
    }
}
