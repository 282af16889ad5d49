import Logbook

/// `history add|delete`.
enum HistoryCommands {
    static let add = Command(
        spec: CommandSpec(
            name: "history add", abstract: "Record done exercises on their calendar day.",
            discussion: "Appends to the record of the day (in --time-zone) if there is one, else creates it.",
            positionals: [PositionalSpec(name: "exercise", arity: .oneOrMore, help: "Exercise names, in the order done.")],
            options: [OptionSpec(name: "--at", valueName: "DATE", help: "When they were done (default: now).")],
            examples: ["logbook history add Squat Burpee", "logbook --time-zone America/New_York history add Squat --at 2026-01-31T23:47:00-05:00"]),
        run: { invocation in
            let date = try invocation.date("--at")
            let day = try invocation.writeStore().history.addDoneExercises(invocation.arguments.positionals, at: date)
            Console.printError("logbook: \(day.day): \(day.exercises.count) exercise\(day.exercises.count == 1 ? "" : "s")")
        })

    static let delete = Command(
        spec: CommandSpec(
            name: "history delete", abstract: "Delete one day's record and its exercises.",
            options: [OptionSpec(name: "--day", valueName: "DAY", help: "The day, YYYY-MM-DD.")],
            examples: ["logbook history delete --day 2026-01-31"]),
        run: { invocation in
            guard let text = invocation.arguments.value("--day") else {
                throw UsageError(message: "missing '--day <day>'", command: "history delete")
            }
            let day = try DateArgument.parseDay(text, option: "--day <day>", command: "history delete")
            let record = try invocation.writeStore().history.delete(day: day)
            Console.printError("logbook: deleted \(record.day) (\(record.exercises.count) exercises)")
        })
}
