import Logbook

/// `history add|delete`.
enum HistoryCommands {
    private static let doneAt = Option<DateExpression>.date("--at", help: "When they were done (default: now): 2026-11-19 07:30, yesterday, ….")
    private static let day = Option<DateExpression>.date("--day", valueName: "DAY", help: "The day: 2026-11-19, yesterday, monday, ….")

    static let add = Command(
        spec: CommandSpec(
            name: "history add", abstract: "Record done exercises on their calendar day.",
            discussion: "Appends to the record of the day (in --time-zone) if there is one, else creates it.",
            positionals: [PositionalSpec(name: "exercise", arity: .oneOrMore, help: "Exercise names, in the order done.")],
            options: [doneAt.spec],
            examples: ["logbook history add Squat Burpee", "logbook --time-zone America/New_York history add Squat --at 2026-01-31T23:47:00-05:00"]),
        run: { invocation in
            let date = try invocation.date(doneAt)
            let day = try invocation.writeStore().history.addDoneExercises(invocation.arguments.positionals, at: date)
            Console.note("logbook: \(day.day): \(day.exercises.count) exercise\(day.exercises.count == 1 ? "" : "s")")
        })

    static let delete = Command(
        spec: CommandSpec(
            name: "history delete", abstract: "Delete one day's record and its exercises.",
            options: [day.spec],
            examples: ["logbook history delete --day 2026-01-31"]),
        run: { invocation in
            guard let calendarDay = try invocation.day(day) else {
                throw UsageError(message: "missing '\(day.spec.usage)'", command: "history delete")
            }
            let record = try invocation.writeStore().history.delete(day: calendarDay)
            Console.note("logbook: deleted \(record.day) (\(record.exercises.count) exercises)")
        })
}
