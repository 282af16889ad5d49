import Logbook

/// `history add|delete|remove|rename|move`.
enum HistoryCommands {
    /// A name typed as an argument, to store: without the ASCII spaces, tabs and line breaks around
    /// it, a slip of the keyboard, never part of it (other spaces, U+00A0, U+2028, …, are kept, as
    /// every other byte of a name is); a usage error when nothing is left, since an exercise name is
    /// never empty. `role` says which argument it is (`exercise`, `new name`).
    static func storableName(_ argument: String, role: String, command: String) throws -> String {
        let name = trimmed(argument)
        guard !name.isEmpty else {
            throw UsageError(message: "invalid \(role) '\(argument)': an exercise name cannot be empty or blank", command: command)
        }
        return name
    }

    /// `argument` without the ASCII spaces, tabs and line breaks around it.
    static func trimmed(_ argument: String) -> String {
        let scalars = argument.unicodeScalars
        let isTyped = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" }
        guard let first = scalars.firstIndex(where: { !isTyped($0) }), let last = scalars.lastIndex(where: { !isTyped($0) }) else { return "" }
        return String(scalars[first...last])
    }
    private static let doneAt = Option<DateExpression>.date("--at", help: "When they were done (default: now): 2026-11-19 07:30, yesterday, ….")
    private static let day = Option<DateExpression>.date("--day", valueName: "DAY", help: "The day: 2026-11-19, yesterday, monday, ….")
    private static let newDay = Option<DateExpression>.date("--to", valueName: "DAY", help: "The day to move the record to.")
    private static let dryRun = Flag("--dry-run", help: "Say what would change; write nothing.")
    private static let names = Flag("--names", help: "Read every EXERCISE as a name, one that is a number too.")

    static let add = Command(
        spec: CommandSpec(
            name: "history add", abstract: "Record done exercises on their calendar day.",
            discussion: "Appends to the record of the day (in --time-zone) if there is one, else creates it.",
            positionals: [PositionalSpec(name: "exercise", arity: .oneOrMore, help: "Exercise names, in the order done.")],
            options: [doneAt.spec],
            examples: ["logbook history add Squat Burpee", "logbook --time-zone America/New_York history add Squat --at 2026-01-31T23:47:00-05:00"]),
        run: { invocation in
            let date = try invocation.date(doneAt)
            // A day outside the calendar is refused here, as a usage error naming --at.
            if let date { _ = try invocation.day(of: date, for: doneAt) }
            let names = try invocation.arguments.positionals.map { try storableName($0, role: "exercise", command: "history add") }
            let history = try invocation.writeStore().history
            let hints = try history.knownExercises(resembling: Set(names).sorted()).map {
                // Names as a table shows them, backslashes doubled: the hint tells two spellings apart.
                "logbook: '\(Console.cell($0.name))' is new; did you mean '\(Console.cell($0.known))'?"
            }
            let day = try history.addDoneExercises(names, at: date)
            Console.note("logbook: \(day.day): \(plural(day.exercises.count, "exercise"))")
            hints.forEach(Console.note)
        })

    static let delete = Command(
        spec: CommandSpec(
            name: "history delete", abstract: "Delete one day's record and its exercises.",
            options: [day.spec], requiredOptions: [day.spec.name],
            examples: ["logbook history delete --day 2026-01-31"]),
        run: { invocation in
            let calendarDay = try invocation.requiredDay(day)
            let record = try invocation.writeStore().history.delete(day: calendarDay)
            Console.note("logbook: deleted \(record.day) (\(plural(record.exercises.count, "exercise")))")
        })

    static let remove = Command(
        spec: CommandSpec(
            name: "history remove", abstract: "Remove exercises from one day's record, by position or by name.",
            discussion: """
                Each EXERCISE is a 1-based position in the day's list, written in digits, or a name (every exercise of \
                that name goes: '+1' and '-1' are names); with --names each is a name, for names that are numbers. A day left without exercises is deleted. \
                Says which exercises went. One transaction.
                """,
            positionals: [PositionalSpec(name: "exercise", arity: .oneOrMore, help: "Positions (from 1) or names.")],
            options: [day.spec, names.spec, dryRun.spec], requiredOptions: [day.spec.name],
            examples: ["logbook history remove --day 2026-03-14 Bupree", "logbook history remove --day yesterday 2"]),
        run: { invocation in
            let calendarDay = try invocation.requiredDay(day)
            let isDryRun = invocation.arguments.isSet(dryRun)
            let targets = invocation.arguments.positionals
            let byName = invocation.arguments.isSet(names)
            if !byName, let huge = targets.first(where: { isDigits($0) && position($0) == nil }) {
                // Exit 1, as for any position past the day's list (Int.max included).
                throw CommandFailure("no day's list reaches position \(huge) (give --names to remove an exercise of that name)")
            }
            let edit = try invocation.writeStore().history.removeExercises(
                atPositions: byName ? [] : targets.compactMap(position), named: byName ? targets : targets.filter { position($0) == nil },
                from: calendarDay, dryRun: isDryRun)
            let shown = edit.removedExercises.prefix(5).map { "'\(Console.cell($0))'" }.joined(separator: ", ")
            report(edit, verb: "removed", dryRun: isDryRun, detail: " (\(shown)\(edit.removedExercises.count > 5 ? ", …" : ""))")
        })

    /// An argument of `history remove` as a position: digits only (`1`, `01`), so that `+1`, `-1`
    /// and ` 1`, which Swift's `Int` reads as numbers too, are names. Nil for digits past `Int`
    /// too, which the command refuses: no day's list reaches them, and they are no name.
    private static func position(_ argument: String) -> Int? {
        isDigits(argument) ? Int(argument) : nil
    }

    private static func isDigits(_ argument: String) -> Bool {
        !argument.isEmpty && argument.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    static let rename = Command(
        spec: CommandSpec(
            name: "history rename", abstract: "Rename an exercise across the history, or across a range of days.",
            discussion: "Names match as Swift compares them (Café in NFC or NFD is one name). One transaction.",
            positionals: [PositionalSpec(name: "old", help: "The name now."), PositionalSpec(name: "new", help: "The name it gets.")],
            options: DayRangeOptions.specs + [dryRun.spec],
            examples: ["logbook history rename Bupree Burpee", "logbook history rename 'Sun Salute' 'Sun Salutation' --since 2026-01 --dry-run"]),
        run: { invocation in
            let old = invocation.arguments.positionals[0]
            let new = try storableName(invocation.arguments.positionals[1], role: "new name", command: "history rename")
            let (from, to) = try invocation.dayRange()
            let isDryRun = invocation.arguments.isSet(dryRun)
            let edit = try invocation.writeStore().history.renameExercise(old, to: new, from: from, to: to, dryRun: isDryRun)
            let (shownOld, shownNew) = (Console.cell(old), Console.cell(new))
            guard edit.exercises > 0 else { return Console.note("logbook: nothing to rename: '\(shownOld)' is already spelled '\(shownNew)'") }
            report(edit, verb: "renamed '\(shownOld)' to '\(shownNew)':", dryRun: isDryRun)
        })

    static let move = Command(
        spec: CommandSpec(
            name: "history move", abstract: "Move one day's record to another day.",
            discussion: """
                The record keeps its time of day on the clock of --time-zone. When the other day has a record, the \
                exercises are appended to it. One transaction.
                """,
            options: [day.spec, newDay.spec, dryRun.spec], requiredOptions: [day.spec.name, newDay.spec.name],
            examples: ["logbook history move --day 2026-03-14 --to 2026-03-13"]),
        run: { invocation in
            let source = try invocation.requiredDay(day), target = try invocation.requiredDay(newDay)
            let isDryRun = invocation.arguments.isSet(dryRun)
            let edit = try invocation.writeStore().history.moveDay(source, to: target, dryRun: isDryRun)
            guard source != target else { return Console.note("logbook: nothing to move: the record is already on \(target)") }
            // The verb names both days the move changed.
            report(edit, verb: "moved \(source) to \(target):", dryRun: isDryRun, namesDays: false)
        })

    /// `logbook: removed 2 exercises on 2026-03-14` (a dry run says what it would do).
    /// The confirmation of `edit`; `detail` follows the count of exercises (which ones), then the
    /// days changed unless the verb names them (`namesDays` false).
    private static func report(_ edit: HistoryEdit, verb: String, dryRun: Bool, detail: String = "", namesDays: Bool = true) {
        let exercises = plural(edit.exercises, "exercise")
        let days = !namesDays ? "" : edit.days.count == 1 ? " on \(edit.days[0])" : " on \(edit.days.count) days"
        let deleted = edit.deletedDays.isEmpty ? ""
            : "; record of \(edit.deletedDays.map(\.description).joined(separator: ", ")) \(dryRun ? "would be deleted" : "deleted")"
        Console.note("logbook: \(dryRun ? "dry run, nothing written: would have " : "")\(verb) \(exercises)\(detail)\(days)\(deleted)")
    }
}
