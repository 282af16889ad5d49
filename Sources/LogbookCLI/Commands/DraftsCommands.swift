import Foundation
import Logbook

/// `drafts add|edit|show|submit|delete`.
enum DraftsCommands {
    static let reference = PositionalSpec(name: "id-or-version",
                                          help: "The draft's id, a unique prefix of it, or its version.")

    static let add = Command(
        spec: CommandSpec(
            name: "drafts add", abstract: "Create a draft; print its id.",
            options: [
                OptionSpec(name: "--version", valueName: "V", help: "The release version (may be empty: \"\")."),
                OptionSpec(name: "--whats-new", valueName: "TEXT", help: "The What's New text; - reads it from stdin."),
                OptionSpec(name: "--item", valueName: "TITLE", isRepeatable: true, help: "A checklist item, in order."),
            ],
            examples: ["logbook drafts add --version 2.5.0 --item 'Screenshots' --item 'Release notes'",
                       "git log --oneline v2.4.0.. | logbook drafts add --version 2.5.0 --whats-new -"]),
        run: { invocation in
            guard let version = invocation.arguments.value("--version") else {
                throw UsageError(message: "missing '--version <v>'", command: "drafts add")
            }
            let store = try invocation.writeStore()
            let draft = ReleaseDraft(version: version, whatsNew: try invocation.text("--whats-new") ?? "",
                                     checklist: invocation.arguments.values("--item").map { ChecklistItem(title: $0) })
            try Console.print(try store.drafts.save(draft).id.uuidString)
        })

    static let edit = Command(
        spec: CommandSpec(
            name: "drafts edit", abstract: "Change a draft's version or What's New text.",
            positionals: [reference],
            options: [
                OptionSpec(name: "--version", valueName: "V", help: "The new version."),
                OptionSpec(name: "--whats-new", valueName: "TEXT", help: "The new What's New text; - reads stdin."),
            ],
            examples: ["logbook drafts edit 2.5.0 --version 2.5.1", "logbook drafts edit 3F2A --whats-new - < notes.txt"]),
        run: { invocation in
            let version = invocation.arguments.value("--version")
            let whatsNew = try invocation.text("--whats-new")
            guard version != nil || whatsNew != nil else {
                throw UsageError(message: "nothing to change: give '--version <v>' or '--whats-new <text>'",
                                 command: "drafts edit")
            }
            let draft = try invocation.writeStore().drafts.edit(invocation.arguments.positionals[0], version: version,
                                                               whatsNew: whatsNew)
            Console.printError("logbook: updated draft \(draft.id.uuidString)")
        })

    static let show = Command(
        spec: CommandSpec(
            name: "drafts show", abstract: "Show one draft with its checklist and the summary \"2 of 4 done\".",
            positionals: [reference],
            options: [OutputFormat.option(["table", "json", "plist"])],
            examples: ["logbook drafts show 2.5.0", "logbook drafts show 2.5.0 --format json",
                       "logbook drafts show 2.5.0 --format plist > release-draft.plist"]),
        run: { invocation in
            let name = try invocation.arguments.choice("--format", ["table", "json", "plist"], default: "table")
            let store = try invocation.readStore()
            let draft = try store.drafts.resolve(invocation.arguments.positionals[0])
            if name == "plist" {
                try Console.write(store.releaseDraftPropertyList(draft))
                return
            }
            switch OutputFormat(rawValue: name) ?? .table {
            case .json:
                var json = JSONText()
                draft.writeJSON(to: &json)
                try Console.print(json.text)
            default:
                try Console.print(DraftView.render(draft))
            }
        })

    static let submit = Command(
        spec: CommandSpec(
            name: "drafts submit", abstract: "Mark a draft submitted (refused when its version is empty).",
            positionals: [reference],
            options: [OptionSpec(name: "--at", valueName: "DATE", help: "When it was submitted (default: now).")],
            examples: ["logbook drafts submit 2.5.0", "logbook drafts submit 2.5.0 --at 2026-01-31T08:30:00Z"]),
        run: { invocation in
            let date = try invocation.date("--at")
            let draft = try invocation.writeStore().drafts.submit(invocation.arguments.positionals[0], at: date)
            Console.printError("logbook: submitted draft \(draft.id.uuidString) (\(draft.version))")
        })

    static let delete = Command(
        spec: CommandSpec(
            name: "drafts delete", abstract: "Delete a draft and its checklist.",
            positionals: [reference],
            examples: ["logbook drafts delete 2.5.0"]),
        run: { invocation in
            let draft = try invocation.writeStore().drafts.delete(invocation.arguments.positionals[0])
            Console.printError("logbook: deleted draft \(draft.id.uuidString) (\(draft.version))")
        })
}
