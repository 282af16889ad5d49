import Logbook

/// `drafts item add|check|uncheck|remove|move`: edit a draft's checklist, addressed by position.
enum DraftItemCommands {
    private static let position = PositionalSpec(name: "position", help: "The item's position, from 1.")

    static let add = Command(
        spec: CommandSpec(
            name: "drafts item add", abstract: "Append items to a draft's checklist.",
            positionals: [DraftsCommands.reference, PositionalSpec(name: "title", arity: .oneOrMore, help: "Item titles, in order.")],
            examples: ["logbook drafts item add 2.5.0 'Update screenshots' 'Tag the release'"]),
        run: { invocation in
            let arguments = invocation.arguments.positionals
            let store = try invocation.writeStore()
            let draft = try store.drafts.addItems(Array(arguments.dropFirst()), to: arguments[0])
            Console.note("logbook: \(draft.summary)")
        })

    static let check = toggle(name: "check", done: true)
    static let uncheck = toggle(name: "uncheck", done: false)

    private static func toggle(name: String, done: Bool) -> Command {
        Command(
            spec: CommandSpec(
                name: "drafts item \(name)", abstract: "Mark a checklist item \(done ? "done" : "not done").",
                positionals: [DraftsCommands.reference, position],
                examples: ["logbook drafts item \(name) 2.5.0 2"]),
            run: { invocation in
                let arguments = invocation.arguments.positionals
                let index = try invocation.position(arguments[1], name: "position")
                let draft = try invocation.writeStore().drafts.setItem(at: index, done: done, in: arguments[0])
                Console.note("logbook: \(draft.summary)")
            })
    }

    static let remove = Command(
        spec: CommandSpec(
            name: "drafts item remove", abstract: "Remove a checklist item; the items after it move up.",
            positionals: [DraftsCommands.reference, position],
            examples: ["logbook drafts item remove 2.5.0 3"]),
        run: { invocation in
            let arguments = invocation.arguments.positionals
            let index = try invocation.position(arguments[1], name: "position")
            let draft = try invocation.writeStore().drafts.removeItem(at: index, from: arguments[0])
            Console.note("logbook: \(draft.summary)")
        })

    static let move = Command(
        spec: CommandSpec(
            name: "drafts item move", abstract: "Move a checklist item to another position.",
            positionals: [DraftsCommands.reference, PositionalSpec(name: "from", help: "The item's position now."),
                          PositionalSpec(name: "to", help: "The position it moves to.")],
            examples: ["logbook drafts item move 2.5.0 4 1"]),
        run: { invocation in
            let arguments = invocation.arguments.positionals
            let from = try invocation.position(arguments[1], name: "position")
            let to = try invocation.position(arguments[2], name: "position")
            let draft = try invocation.writeStore().drafts.moveItem(from: from, to: to, in: arguments[0])
            Console.note("logbook: \(draft.summary)")
        })
}
