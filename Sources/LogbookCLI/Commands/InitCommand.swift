import Logbook

enum InitCommand {
    static let command = Command(
        spec: CommandSpec(
            name: "init",
            abstract: "Create or migrate the database; print its path and schema version.",
            examples: ["logbook init", "logbook --db ~/notes/logbook.sqlite init"]),
        usesNoCalendarDay: true,
        run: { invocation in
            let store = try invocation.writeStore(creatingInEmptyFile: true)
            try Console.print("\(Console.oneLine(store.path))\tschema version \(try store.schemaVersion())")
        })
}
