import Foundation
import Logbook

/// `repair`: put right what other programs' writes left inconsistent.
enum RepairCommand {
    private static let dryRun = Flag("--dry-run", help: "Say what would change; write nothing.")

    static let command = Command(
        spec: CommandSpec(
            name: "repair",
            abstract: "Put right what other programs' writes left inconsistent, in one transaction.",
            discussion: """
                Removes rows whose parent is gone (deleted with foreign keys off), renumbers positions that are \
                not 1 to n (keeping their order), recomputes every *_key column, and recounts the exercise tallies \
                and day totals where they differ from a recount. Says what it changed on stderr; 'logbook check' \
                passes afterwards. --dry-run says what it would change and writes nothing. Refuses, writing nothing, \
                while a row holds a value Logbook cannot read (a day 2026-02-30, text where a date belongs), which \
                'logbook check' names: only a person can say what was meant; and a file SQLite's integrity check \
                finds damaged (pages gone bad), which no recount mends: restore a backup.
                """,
            options: [dryRun.spec],
            examples: ["logbook check || logbook repair", "logbook repair --dry-run"]),
        usesNoCalendarDay: true,
        run: { invocation in
            let isDryRun = invocation.arguments.isSet(dryRun)
            let path = try invocation.databasePath()
            guard !Logbook.isMissing(path) else { throw LogbookError.noDatabase(path: path) }
            // A look first, which writes nothing: opening the file to write sets WAL again on a file
            // another program switched to a rollback journal, and "nothing to repair" wrote that
            // header (helper-97). A look that fails (a file to migrate first) leaves it to the repair.
            let look = isDryRun ? try invocation.dryRunStore().repair(dryRun: true) : try? invocation.dryRunStore().repair(dryRun: true)
            let report = try look.flatMap { isDryRun || $0.changes.isEmpty ? $0 : nil } ?? invocation.writeStore().repair(dryRun: false)
            let prefix = isDryRun ? "logbook: dry run, nothing written: would have " : "logbook: "
            if report.changes.isEmpty { Console.note("logbook: nothing to repair") }
            for change in report.changes { Console.note(prefix + change) }
        })
}
