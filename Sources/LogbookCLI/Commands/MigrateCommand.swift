import Foundation
import Logbook

enum MigrateCommand {
    private static let status = Flag("--status", help: "List each migration and whether it is applied; change nothing.")

    static let command = Command(
        spec: CommandSpec(
            name: "migrate",
            abstract: "Apply pending migrations, or list applied and pending ones (and those of apps' own tables).",
            options: [status.spec],
            examples: ["logbook migrate", "logbook migrate --status"]),
        usesNoCalendarDay: true,
        run: { invocation in
            if invocation.arguments.isSet(status) {
                let store = try invocation.inspectStore()
                // Both read before anything is printed: a history that cannot be read prints nothing.
                let statuses = try store.migrationStatus()
                // An app's own tables in the file: its set's history, which this tool only lists.
                let appHistory = try store.appMigrationHistory()
                for status in statuses {
                    let state = status.appliedAt.map { "applied \($0.textForMessages)" } ?? "pending"
                    try Console.print("\(Console.cell(status.migration.identifier))\t\(state)")
                }
                for (set, applied) in appHistory {
                    // Another program may have written these names: shown as a table shows text.
                    try Console.print("\(Console.cell(set))/\(Console.cell(applied.identifier))\tapplied \(applied.appliedAt.textForMessages)")
                }
                return
            }
            let store = try invocation.writeStore()
            try Console.print("\(Console.oneLine(store.path))\tschema version \(try store.schemaVersion())")
        })
}
