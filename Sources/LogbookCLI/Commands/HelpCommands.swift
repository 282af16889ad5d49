import Foundation

/// `help` and `completion`: the manual and the shell completions, generated from the commands'
/// declarations.
enum HelpCommands {
    private static let man = Flag("--man", help: "Print the manual page (troff, for man -l).")

    static let help = Command(
        spec: CommandSpec(
            name: "help", abstract: "Show help for a command, or the whole manual page.",
            positionals: [PositionalSpec(name: "command", arity: .zeroOrMore,
                                         help: "A command or group (drafts item), or a topic: \(HelpTopics.names.joined(separator: ", ")).",
                                         choices: HelpTopics.names)],
            options: [man.spec],
            examples: ["logbook help history list", "logbook help dates", "logbook help --man > logbook.1 && man -l logbook.1"]),
        run: { invocation in
            if invocation.arguments.isSet(man) {
                try Console.write(ManPage.render(version: CommandLineTool.version))
                return
            }
            let name = invocation.arguments.positionals.joined(separator: " ")
            if let topic = HelpTopics.text(name) {
                try Console.write(topic)
            } else if let command = Commands.all.first(where: { $0.spec.name == name }) {
                try Console.write(HelpText.command(command.spec))
            } else if name.isEmpty || Commands.groups[name] != nil {
                try Console.write(HelpText.group(name))
            } else {
                throw UsageError(message: "no command '\(name)'" + ArgumentParser.suggestion(for: name, among: Commands.all.map(\.spec.name)),
                                 command: "help")
            }
        })

    static let completion = Command(
        spec: CommandSpec(
            name: "completion", abstract: "Print the shell completion script for bash, zsh or fish.",
            positionals: [PositionalSpec(name: "shell", help: "bash, zsh or fish.", choices: ShellCompletion.Shell.allCases.map(\.rawValue))],
            examples: ["logbook completion bash > ~/.local/share/bash-completion/completions/logbook",
                       "logbook completion fish > ~/.config/fish/completions/logbook.fish"]),
        run: { invocation in
            let name = invocation.arguments.positionals[0]
            guard let shell = ShellCompletion.Shell(rawValue: name) else {
                throw UsageError(message: "unknown shell '\(name)': expected bash, zsh or fish", command: "completion")
            }
            try Console.write(ShellCompletion.script(for: shell))
        })
}
