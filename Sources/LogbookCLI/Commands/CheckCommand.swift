import Logbook

enum CheckCommand {
    static let command = Command(
        spec: CommandSpec(
            name: "check",
            abstract: "Check integrity, foreign keys, schema version and migration checksums.",
            discussion: "Exits 1 when anything is wrong. Never changes the database.",
            examples: ["logbook check", "logbook --db backup.sqlite check"]),
        run: { invocation in
            let report = try invocation.inspectStore().check()
            try Console.print("integrity: \(report.integrity.joined(separator: "; "))")
            try Console.print("foreign keys: \(report.foreignKeyViolations.isEmpty ? "ok" : report.foreignKeyViolations.joined(separator: "; "))")
            try Console.print("schema version: \(report.schemaVersion) (this logbook knows \(report.latestKnownVersion))")
            try Console.print("migrations: \(report.migrationProblems.isEmpty ? "ok" : report.migrationProblems.joined(separator: "; "))")
            if !report.isHealthy {
                throw CommandFailure("check failed for \(try invocation.databasePath())")
            }
        })
}
