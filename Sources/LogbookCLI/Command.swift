/// A `logbook` command: what it accepts, and what it does.
struct Command: Sendable {
    let spec: CommandSpec
    /// Whether the command reads and writes no calendar day (`query`, `backup`, `check`): it then
    /// runs under a `$TZ` that names no zone Logbook can read (``Invocation/storeTimeZone()``).
    var usesNoCalendarDay = false
    let run: @Sendable (Invocation) throws -> Void
}

/// Every command, by its words after `logbook`.
enum Commands {
    static let all: [Command] = [
        DemoCommand.command,
        HelpCommands.help,
        HelpCommands.completion,
        InitCommand.command,
        MigrateCommand.command,
        CheckCommand.command,
        RepairCommand.command,
        ListCommands.draftsList,
        DraftsCommands.add,
        DraftsCommands.edit,
        DraftsCommands.show,
        DraftItemCommands.add,
        DraftItemCommands.check,
        DraftItemCommands.uncheck,
        DraftItemCommands.remove,
        DraftItemCommands.move,
        DraftsCommands.submit,
        DraftsCommands.delete,
        ListCommands.historyList,
        HistoryCommands.add,
        HistoryCommands.delete,
        HistoryCommands.remove,
        HistoryCommands.rename,
        HistoryCommands.move,
        ListCommands.count,
        ImportExportCommands.importCommand,
        ImportExportCommands.exportCommand,
        ChangesCommand.command,
        ReportCommand.command,
        QueryCommand.command,
        BackupCommand.command,
    ]

    /// One-line descriptions of the command groups, for `logbook drafts --help` and the like.
    static let groups: [String: String] = [
        "drafts": "Create, edit and list release drafts.",
        "drafts item": "Edit a draft's checklist.",
        "history": "Record and list exercise days.",
    ]

    /// The next words that can follow `prefix`.
    static func subcommands(of prefix: String) -> [String] {
        var seen: [String] = []
        for command in Commands.all {
            let words = command.spec.name.split(separator: " ").map(String.init)
            let prefixWords = prefix.isEmpty ? [] : prefix.split(separator: " ").map(String.init)
            guard words.count > prefixWords.count, Array(words.prefix(prefixWords.count)) == prefixWords else { continue }
            let next = words[prefixWords.count]
            if !seen.contains(next) { seen.append(next) }
        }
        return seen
    }

}
