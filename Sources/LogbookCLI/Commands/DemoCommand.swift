import Foundation

/// `logbook demo`: a guided tour on sample data built into the binary. Each step prints its command
/// line, then runs it in this process exactly as if typed.
enum DemoCommand {
    static let command = Command(
        spec: CommandSpec(
            name: "demo",
            abstract: "A guided tour on built-in sample data, in a scratch database.",
            discussion: "Uses a temporary database that is deleted afterwards, unless --db names one to keep.",
            examples: ["logbook demo", "logbook --db /tmp/tour.sqlite demo"]),
        run: { invocation in
            let keep = invocation.arguments.value("--db") != nil
            let path = keep ? invocation.databasePath
                : FileManager.default.temporaryDirectory.appendingPathComponent("logbook-demo-\(UUID().uuidString).sqlite").path
            defer {
                if !keep {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                }
            }
            Console.print("# Logbook demo: a scratch database at \(path)\n")
            for step in steps {
                if let note = step.note { Console.print("# \(note)") }
                Console.print("$ logbook " + step.arguments.map(quoted).joined(separator: " "))
                Console.flush()
                let status = CommandLineTool.run(["--db", path, "--time-zone", "Europe/Paris"] + step.arguments,
                                                 environment: invocation.environment)
                Console.print("")
                guard status == 0 || step.expectsFailure else {
                    throw CommandFailure("demo step failed: logbook \(step.arguments.joined(separator: " "))")
                }
            }
            Console.print("# That was the tour. Try `logbook --help` and `logbook <command> --help` next.")
        })

    private struct Step {
        var note: String? = nil
        let arguments: [String]
        var expectsFailure = false
    }

    private static let steps: [Step] = [
        Step(note: "Create the database (it is also created on first use).", arguments: ["init"]),
        Step(note: "A release draft with a checklist; the command prints the new draft's id.",
             arguments: ["drafts", "add", "--version", "2.5.0", "--whats-new", "Faster sync.\nFixes a crash when offline.",
                         "--item", "Update screenshots", "--item", "Write release notes", "--item", "Tag the build"]),
        Step(note: "Check items off by position, then look at the draft.", arguments: ["drafts", "item", "check", "2.5.0", "2"]),
        Step(arguments: ["drafts", "item", "check", "2.5.0", "1"]),
        Step(arguments: ["drafts", "show", "2.5.0"]),
        Step(note: "A draft without a version cannot be submitted: the app's own rule.",
             arguments: ["drafts", "add", "--version", ""]),
        Step(note: "(An empty version is named by ''.) The refusal is an error line and exit status 1; nothing is written.",
             arguments: ["drafts", "submit", ""], expectsFailure: true),
        Step(arguments: ["drafts", "submit", "2.5.0", "--at", "2026-01-31T16:42:07Z"]),
        Step(note: "Exercise history: one record per calendar day (here Europe/Paris); later exercises the same day append.",
             arguments: ["history", "add", "Squat", "Burpee", "--at", "2026-01-30T07:15:00+01:00"]),
        Step(arguments: ["history", "add", "Sun Salute", "--at", "2026-01-30T23:59:00+01:00"]),
        Step(arguments: ["history", "add", "Step Up", "--at", "2026-01-31T00:00:30+01:00"]),
        Step(note: "The full record, as scripts read it.", arguments: ["drafts", "show", "2.5.0", "--format", "json"]),
        Step(note: "More sample data: two more drafts and a week of workouts.",
             arguments: ["drafts", "add", "--version", "2.6.0", "--whats-new", "Widgets!", "--item", "Screenshots"]),
        Step(arguments: ["drafts", "add", "--version", "3.0.0-beta", "--whats-new", "A crash-free redesign.",
                         "--item", "Design review", "--item", "Beta notes"]),
        Step(arguments: ["history", "add", "Squat", "Plank", "Squat", "--at", "2026-02-02T07:00:00+01:00"]),
        Step(arguments: ["history", "add", "Burpee", "Lunge", "Burpee", "Row", "--at", "2026-02-04T18:30:00+01:00"]),
        Step(arguments: ["history", "add", "Sun Salute", "--at", "2026-02-05T06:45:00+01:00"]),
        Step(note: "List, filter and sort: the same fetch as a Swift FetchDescriptor.", arguments: ["history", "list"]),
        Step(arguments: ["history", "list", "--from", "2026-01-31", "--to", "2026-02-04", "--exercise", "Squat"]),
        Step(arguments: ["history", "list", "--where", "exercises.count >= 3 || exercises contains \"Step Up\"",
                         "--sort", "day:desc", "--limit", "2", "--format", "ndjson"]),
        Step(arguments: ["drafts", "list", "--where", "submittedAt == nil && version hasPrefix \"2.\"", "--sort", "version:desc"]),
        Step(arguments: ["drafts", "list", "--where", "whatsNew icontains \"CRASH\"", "--sort", "checklist.count:desc",
                         "--format", "csv"]),
        Step(note: "Counting is fetchCount: no rows are loaded.",
             arguments: ["count", "history", "--where", "exercises contains \"Squat\""]),
        Step(note: "A mistake in a filter points at itself (exit status 2).",
             arguments: ["drafts", "list", "--where", "verison == \"2.5.0\""], expectsFailure: true),
        Step(note: "Everything is checked: integrity, foreign keys, schema version.", arguments: ["check"]),
    ]

    private static func quoted(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_.:/+=@".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
