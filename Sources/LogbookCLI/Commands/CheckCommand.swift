import Logbook

enum CheckCommand {
    static let command = Command(
        spec: CommandSpec(
            name: "check",
            abstract: "Check the file, its integrity, foreign keys, migrations, schema and derived data.",
            discussion: """
                Compares the file's length with its header, runs SQLite's integrity and foreign-key checks, the \
                migration history with the migrations this logbook carries, every table, index and trigger with \
                what those migrations create, every value records are read from with what Logbook can read (a day \
                2026-02-30, text where a date belongs), and the derived tallies with a recount. Names each problem and \
                exits 1 when anything is wrong. Also names, without failing, another program's triggers on Logbook's \
                tables, which run inside Logbook's writes, and the days another program changed that Logbook's next \
                history write recounts. Never changes the database.
                """,
            examples: ["logbook check", "logbook --db backup.sqlite check"]),
        usesNoCalendarDay: true,
        run: { invocation in
            let report = try invocation.inspectStore().check()
            // Each line quotes names other programs chose (their triggers and tables): escaped, so
            // that none breaks its line or moves the cursor.
            let printLine = { (line: String) in try Console.print(Console.oneLine(line)) }
            try printLine("integrity: \(report.integrity.joined(separator: "; "))")
            try printLine("foreign keys: \(report.foreignKeyViolations.isEmpty ? "ok" : report.foreignKeyViolations.joined(separator: "; "))")
            try printLine("schema version: \(report.schemaVersion) (this logbook knows \(report.latestKnownVersion))")
            // A file behind this logbook's schema is named as what fails the check (it read "ok").
            let pending = report.latestKnownVersion - report.schemaVersion
            let migrations = !report.migrationProblems.isEmpty ? report.migrationProblems.joined(separator: "; ")
                : pending > 0 && report.schemaVersion > 0
                ? "\(plural(pending, "migration")) to apply (versions \(report.schemaVersion + 1) to \(report.latestKnownVersion)); "
                    + "'logbook migrate' applies them, as the first writing command does"
                : "ok"
            try printLine("migrations: \(migrations)")
            try printLine("file: \(report.fileProblems.isEmpty ? "ok" : report.fileProblems.joined(separator: "; "))")
            let foreignTriggers = report.foreignTriggers.isEmpty ? ""
                : "; another program's triggers run inside Logbook's writes and can change what they store: "
                    + report.foreignTriggers.joined(separator: ", ")
            let schema = !report.schemaChecked
                ? "not checked (a newer Logbook wrote the file: this one cannot tell that version's objects from another program's)"
                : (report.schemaProblems.isEmpty ? "ok" : report.schemaProblems.joined(separator: "; ")) + foreignTriggers
            try printLine("schema: \(schema)")
            let awaiting = report.daysAwaitingRecount == 0 ? ""
                : " (Logbook's next history write recounts \(plural(report.daysAwaitingRecount, "day")) another program changed; "
                    + "reports count from the exercise rows until then)"
            for (name, problems, note) in [("stored values", report.storedValueProblems, ""), ("derived data", report.derivedDataProblems, awaiting)] {
                let why = report.fileProblems.isEmpty ? "the schema is not yet this logbook's" : "see 'file:' above"
                let verdict = !report.recordsAudited ? "not checked (\(why))"
                    : problems.isEmpty ? "ok" : problems.joined(separator: "; ")
                try printLine("\(name): \(verdict)\(note)")
            }
            if !report.isHealthy {
                throw CommandFailure("check failed for \(try invocation.databasePath())")
            }
        })
}
