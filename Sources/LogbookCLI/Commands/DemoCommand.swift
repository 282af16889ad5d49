import Foundation
import SQLiteQuery

/// `logbook demo`: a guided tour on sample data built into the binary. Each step prints its command
/// line, then runs it in this process exactly as if typed.
enum DemoCommand {
    static let command = Command(
        spec: CommandSpec(
            name: "demo",
            abstract: "A guided tour on built-in sample data, in a scratch database.",
            discussion: "Uses a scratch folder and database that are deleted afterwards, unless --db names a database to keep.",
            examples: ["logbook demo", "logbook --db /tmp/tour.sqlite demo"]),
        run: { invocation in
            let folder = scratchParent(invocation.environment).appendingPathComponent("logbook-demo-\(UUID().uuidString)")
            guard mkdir(folder.path, 0o700) == 0 else {
                throw CommandFailure("cannot make the demo's scratch folder \(folder.path): \(String(cString: strerror(errno)))")
            }
            let previousDirectory = FileManager.default.currentDirectoryPath
            defer {
                _ = FileManager.default.changeCurrentDirectoryPath(previousDirectory)
                try? FileManager.default.removeItem(at: folder)
            }
            // Absolute: the steps run in the scratch folder, where a relative --db would name a
            // file that goes with it.
            let kept = try invocation.arguments.isGiven(GlobalOptions.database) ? URL(fileURLWithPath: invocation.databasePath()).path : nil
            if let kept, FileManager.default.fileExists(atPath: kept) {
                throw CommandFailure("the demo writes its sample records into --db, and \(kept) exists; give a new file, or no --db for a scratch one")
            }
            let path = kept ?? folder.appendingPathComponent("logbook.sqlite").path
            try Data(sampleHistoryJSON.utf8).write(to: folder.appendingPathComponent("history.json"))
            // The sample files live in the scratch folder, so the steps can name them plainly.
            guard FileManager.default.changeCurrentDirectoryPath(folder.path) else {
                throw CommandFailure("cannot enter the demo's scratch folder \(folder.path)")
            }
            try Console.print("# Logbook demo: a scratch database at \(path)\n")
            for step in steps {
                if let note = step.note { try Console.print("# \(note)") }
                if let (first, second) = step.compare {
                    let same = FileManager.default.contentsEqual(atPath: first, andPath: second)
                    try Console.print("# \(first) and \(second) are byte-identical: \(same ? "yes" : "NO")\n")
                    continue
                }
                let database = step.database.map { ["--db", $0] } ?? []
                try Console.print("$ logbook " + (database + step.arguments).map(quoted).joined(separator: " "))
                Console.flush()
                let status = CommandLineTool.run(["--db", step.database ?? path, "--time-zone", "Europe/Paris"] + step.arguments,
                                                 environment: invocation.environment, variablesNotUTF8: invocation.variablesNotUTF8)
                try Console.print("")
                guard status == 0 || step.expectsFailure else {
                    throw CommandFailure("demo step failed: logbook \(step.arguments.joined(separator: " "))")
                }
            }
            try Console.print("# Live queries: `--watch` on list, count and report keeps the output current while other")
            try Console.print("# processes write. Try `logbook count history --watch` in one terminal and")
            try Console.print("# `logbook history add Squat` in another (Ctrl-C stops).\n")
            try Console.print("# That was the tour. Try `logbook --help` and `logbook <command> --help` next.")
        })

    /// The folder the scratch folder goes in: `$TMPDIR` when it names a folder, else `/tmp`, as
    /// the C library chooses (a `$TMPDIR` that is missing, or not UTF-8, is not made).
    private static func scratchParent(_ environment: [String: String]) -> URL {
        var isFolder: ObjCBool = false
        if let given = environment["TMPDIR"], !given.isEmpty,
           FileManager.default.fileExists(atPath: given, isDirectory: &isFolder), isFolder.boolValue {
            return URL(fileURLWithPath: given, isDirectory: true)
        }
        return URL(fileURLWithPath: "/tmp", isDirectory: true)
    }

    private struct Step {
        var note: String? = nil
        var arguments: [String] = []
        var expectsFailure = false
        /// A second scratch database (a file name in the scratch folder) instead of the tour's.
        var database: String? = nil
        /// Instead of a command: say whether two files are the same bytes.
        var compare: (String, String)? = nil
    }

    /// Five days of history as the HIITFit app's `JSONEncoder` writes `[ExerciseDay]`: newest first,
    /// dates in seconds since 2001, no calendar day (the importer computes it in the time zone).
    private static let sampleHistoryJSON = """
        [{"id":"5D2A0E47-0C6B-4E7D-9C1A-2B7F3E9A1C05","date":760341600.25,"exercises":["Squat","Squat","Sun Salute ☀︎"]},\
        {"id":"1B9E4C33-7A2D-4F10-8E55-6C0D9B2A7E04","date":760255200,"exercises":["Burpee","Step Up"]},\
        {"id":"8F3C2D11-5E6A-4B9C-A0D7-1E2F3A4B5C03","date":760168800.5,"exercises":["Élan","Burpee","Burpee"]},\
        {"id":"2A7B9C0D-1E2F-4A3B-8C4D-5E6F7A8B9C02","date":760082400,"exercises":["Sun Salute"]},\
        {"id":"6E5D4C3B-2A19-4887-9766-554433221101","date":759996000.125,"exercises":["Squat","Step Up","Burpee"]}]
        """

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
        Step(note: "Import the history app's own JSON: one transaction; days fall in the time zone; same days merge.",
             arguments: ["import", "history.json"]),
        Step(note: "Importing the same file again changes nothing.", arguments: ["import", "history.json"]),
        Step(note: "Export to the app's own history.plist, import that into a new database, export again.",
             arguments: ["export", "history", "--format", "plist", "-o", "history.plist"]),
        Step(arguments: ["import", "history.plist"], database: "roundtrip.sqlite"),
        Step(arguments: ["export", "history", "--format", "plist", "-o", "history-again.plist"], database: "roundtrip.sqlite"),
        Step(compare: ("history.plist", "history-again.plist")),
        Step(note: "Scripts get every field: JSON, NDJSON or CSV, streamed.",
             arguments: ["export", "history", "--from", "2025-02-01", "--to", "2025-02-28", "--format", "csv"]),
        Step(note: "Reports: one SQL query each, streamed, in every format.",
             arguments: ["report", "history", "--by", "week", "--from", "2025-01-27", "--to", "2025-02-09"]),
        Step(arguments: ["report", "exercises"]),
        Step(arguments: ["report", "streaks", "--as-of", "2026-02-05"]),
        Step(arguments: ["report", "drafts", "--format", "json"]),
        Step(note: "And any read-only SQL, with named parameters:",
             arguments: ["query", "SELECT day, count(*) AS exercises FROM exercise_days JOIN exercises ON day_pk = exercise_days.pk "
                            + "WHERE day >= :from GROUP BY day ORDER BY day", "-p", "from=2026-02-01"]),
        Step(note: "Dates as people say them, in the time zone: yesterday, now, the last week, this year.",
             arguments: ["history", "add", "Burpee", "Row", "--at", "yesterday"]),
        Step(arguments: ["history", "add", "Bupree"]),
        Step(note: "A typo is fixed in one command ('history rename', 'remove', 'move'; --dry-run first).",
             arguments: ["history", "rename", "Bupree", "Burpee", "--since", "7d"]),
        Step(arguments: ["history", "list", "--since", "7d"]),
        Step(note: "The days of a year at a glance (run it in a terminal for colour).", arguments: ["report", "calendar"]),
        Step(note: "Everything is checked: integrity, foreign keys, schema version.", arguments: ["check"]),
    ]

    private static func quoted(_ argument: String) -> String {
        // Scalar by scalar: a Character is a letter by its first scalar, which lets a quote or a
        // space joined to a prepended letter (U+0D4E) through.
        let plain = argument.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.:/+=@".unicodeScalars.contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingEvery("'", with: "'\\''") + "'"
    }
}
