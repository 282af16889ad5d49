import Foundation
import Logbook

/// `drafts add|edit|show|submit|delete`.
enum DraftsCommands {
    private static let version = Option<String>.text("--version", valueName: "V", help: "The release version (may be empty: \"\").")
    private static let whatsNew = Option<String>.text("--whats-new", valueName: "TEXT", help: "The What's New text; - reads it from stdin.")
    private static let item = Option<String>.text("--item", valueName: "TITLE", repeatable: true, help: "A checklist item, in order.")
    private static let submittedAt = Option<DateExpression>.date("--at", help: "When it was submitted (default: now): 2026-11-19 07:30, yesterday, ….")

    /// What `drafts show` writes: a view for people, the JSON of exports, or the app's property list.
    private enum ShowFormat: String, CaseIterable, Sendable { case table, json, ndjson, csv, plist }
    private static let showFormat = Option<ShowFormat>.choice(
        "--format", valueName: "FMT", among: ShowFormat.allCases, help: "Output format: table|json|ndjson|csv|plist (default: table).")

    static let reference = PositionalSpec(name: "id-or-version",
                                          help: "The draft's id, its version, or a unique prefix of its id (when no draft has that version).")

    static let add = Command(
        spec: CommandSpec(
            name: "drafts add", abstract: "Create a draft; print its id.",
            options: [version.spec, whatsNew.spec, item.spec], requiredOptions: [version.spec.name],
            examples: ["logbook drafts add --version 2.5.0 --item 'Screenshots' --item 'Release notes'",
                       "git log --oneline v2.4.0.. | logbook drafts add --version 2.5.0 --whats-new -"]),
        run: { invocation in
            let versionText = try invocation.arguments.requiredValue(of: version)
            let store = try invocation.writeStore()
            let draft = ReleaseDraft(version: versionText, whatsNew: try invocation.text(whatsNew) ?? "",
                                     checklist: try invocation.arguments.values(of: item).map { ChecklistItem(title: $0) })
            // The id is written out before the draft is committed: when that write fails (a full
            // disk, `> /dev/full`) nothing is saved, so a script that runs the command again makes
            // no second draft. And only once what could refuse the commit has been met: the draft's
            // pages written to the log and another program's deferred foreign keys (the id of no
            // draft was printed when either refused the commit: helper-95).
            var printed = false
            do {
                try store.underlyingDatabase.write { connection in
                    try store.drafts.save(draft)
                    try connection.prepareToCommit()
                    try Console.print(draft.id.uuidString)
                    try Console.finish()
                    printed = true
                }
            } catch let error where printed && !LogbookError.isMovedFile(error) {
                // The commit's own write failed (on a file system that copies on write, the room
                // taken for it is no room: see prepareToCommit). A file moved during the write
                // has the draft, and its error says where.
                throw CommandFailure("\(error); the draft \(draft.id.uuidString) printed above was not saved")
            }
        })

    static let edit = Command(
        spec: CommandSpec(
            name: "drafts edit", abstract: "Change a draft's version or What's New text.",
            positionals: [reference],
            options: [version.spec, whatsNew.spec],
            examples: ["logbook drafts edit 2.5.0 --version 2.5.1", "logbook drafts edit 3F2A --whats-new - < notes.txt"]),
        run: { invocation in
            let newVersion = try invocation.arguments.value(of: version)
            let givenWhatsNew = try invocation.arguments.value(of: whatsNew)
            guard newVersion != nil || givenWhatsNew != nil else {
                throw UsageError(message: "nothing to change: give '--version <v>' or '--whats-new <text>'",
                                 command: "drafts edit")
            }
            let store = try invocation.writeStore(), reference = invocation.arguments.positionals[0]
            // A draft that is not there is named before stdin is read, not after its writer is done.
            if givenWhatsNew == "-" { _ = try store.drafts.resolve(reference) }
            let newWhatsNew = try invocation.text(whatsNew)
            // Read in the edit's own transaction: an edit that changes nothing writes nothing.
            let (before, after) = try store.underlyingDatabase.write { _ in
                (try store.drafts.resolve(reference), try store.drafts.edit(reference, version: newVersion, whatsNew: newWhatsNew))
            }
            Console.note(before == after ? "logbook: draft \(after.id.uuidString) unchanged: it already has that text"
                                         : "logbook: updated draft \(after.id.uuidString)")
        })

    static let show = Command(
        spec: CommandSpec(
            name: "drafts show", abstract: "Show one draft with its checklist and the summary \"2 of 4 done\".",
            positionals: [reference],
            options: [showFormat.spec, OutputFile.option.spec],
            examples: ["logbook drafts show 2.5.0", "logbook drafts show 2.5.0 --format json",
                       "logbook drafts show 2.5.0 --format plist > release-draft.plist"]),
        run: { invocation in
            let format = try invocation.arguments.format(showFormat, orElse: .table)
            let store = try invocation.readStore()
            let draft = try store.drafts.resolve(invocation.arguments.positionals[0])
            switch format {
            case .plist:
                try Console.write(store.releaseDraftPropertyList(draft))
            case .json:
                var json = JSONText()
                draft.writeJSON(to: &json)
                try Console.print(json.text)
            case .ndjson, .csv:
                // As `drafts list` and `export drafts` write it: one line, or a header and a row per item.
                var writer = RecordStreamWriter.drafts(format == .csv ? .csv : .ndjson) { try Console.write($0) }
                try writer.begin()
                try writer.write(draft)
                try writer.end()
            case .table:
                try Console.print(DraftView.render(draft, in: try invocation.timeZone()))
            }
        })

    static let submit = Command(
        spec: CommandSpec(
            name: "drafts submit", abstract: "Mark a draft submitted (refused when its version is empty).",
            positionals: [reference],
            options: [submittedAt.spec],
            examples: ["logbook drafts submit 2.5.0", "logbook drafts submit 2.5.0 --at 2026-01-31T08:30:00Z"]),
        run: { invocation in
            let date = try invocation.date(submittedAt)
            let draft = try invocation.writeStore().drafts.submit(invocation.arguments.positionals[0], at: date)
            Console.note("logbook: submitted draft \(draft.id.uuidString) (\(draft.version))")
        })

    static let delete = Command(
        spec: CommandSpec(
            name: "drafts delete", abstract: "Delete a draft and its checklist.",
            positionals: [reference],
            examples: ["logbook drafts delete 2.5.0"]),
        run: { invocation in
            let draft = try invocation.writeStore().drafts.delete(invocation.arguments.positionals[0])
            Console.note("logbook: deleted draft \(draft.id.uuidString) (\(draft.version))")
        })
}
