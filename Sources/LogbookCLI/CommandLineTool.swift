import Foundation
import Logbook

/// Finds the command on the line, parses its arguments, runs it, and turns every error into one
/// `logbook: error:` line and an exit status (0 success, 2 usage, 1 anything else).
enum CommandLineTool {
    static let version = "0.1.0"

    /// `logbook 0.1.0 (SQLite 3.40.1, schema version 7)`: what `--version` prints.
    static var versionLine: String {
        let schema = (try? Schema.migrator().latestVersion).map(String.init) ?? "?"
        return "logbook \(version) (SQLite \(Logbook.sqliteVersion), schema version \(schema))"
    }

    /// Runs the command on the line and returns its exit status. A command that fails leaves no
    /// database it created holding nothing (``CreatedDatabase``).
    /// `variablesNotUTF8`: the names of ``Invocation/fileVariables`` whose bytes are not UTF-8
    /// (`environment` holds them with U+FFFD), refused by a command that reads them.
    static func run(_ arguments: [String], environment: [String: String], variablesNotUTF8: Set<String> = []) -> Int32 {
        let created = CreatedDatabase()
        let status = run(arguments, environment: environment, variablesNotUTF8: variablesNotUTF8, created: created)
        if status != 0 { created.removeUnlessItHoldsData() }
        return status
    }

    private static func run(_ arguments: [String], environment: [String: String], variablesNotUTF8: Set<String>,
                            created: CreatedDatabase) -> Int32 {
        var commandName: String?
        var databasePath: String?
        do {
            let (command, rest) = try resolve(arguments)
            commandName = command?.spec.name
            guard let command else {
                try Console.finish()
                return 0
            }
            let parsed = try ArgumentParser.parse(rest, for: command.spec)
            if parsed.isSet(GlobalOptions.help) {
                try Console.write(HelpText.command(command.spec))
            } else if ArgumentParser.asksForVersion(parsed, command.spec) {
                try Console.print(versionLine)
            } else {
                if parsed.isSet(GlobalOptions.quiet) { Console.silenceNotes() }
                let invocation = Invocation(arguments: parsed, environment: environment, variablesNotUTF8: variablesNotUTF8,
                                            usesNoCalendarDay: command.usesNoCalendarDay, created: created)
                databasePath = try? invocation.databasePath()
                if parsed.isSet(Watch.flag) { Watch.catchInterruptions() }
                if let path = try OutputFile.path(parsed) {
                    if parsed.isSet(Watch.flag) {
                        throw UsageError(message: "--watch redraws on the terminal: it takes no -o", command: command.spec.name)
                    }
                    try OutputDestination.write(to: path, protecting: try invocation.databasePath()) { sink in
                        try Console.redirect(to: sink) { try command.run(invocation) }
                    }
                } else {
                    try command.run(invocation)
                }
                try Console.finish()
                for action in invocation.notices.afterOutput { try action() }
                for line in invocation.notices.lines { Console.note(line) }
            }
            try Console.finish()
            return 0
        } catch where Watch.wasStopped(by: error) {
            // Each result the watch showed was written and flushed as it came.
            return 0
        } catch let failure as OutputFailure {
            // A reader that went away (`| head`) is no error: stop quietly, as SIGPIPE would.
            guard failure.code != EPIPE else { return 128 + SIGPIPE }
            Console.printError("logbook: error: cannot write to standard output: \(String(cString: strerror(failure.code)))")
            return 1
        } catch let error as UsageError {
            // (A line with no command word parses against a command of no name.)
            let hint = error.command.flatMap { $0.isEmpty ? nil : " (see 'logbook \($0) --help')" } ?? " (see 'logbook --help')"
            Console.printError("logbook: error: \(error.message)\(hint)")
            for line in error.detail { Console.printError(line) }
            return 2
        } catch LogbookError.unsupportedQuery(let error) where error.isBeyondParserLimits {
            // Only `--where` nests, and its parser takes 64 levels: SQLite's parser, which runs
            // out sooner for some shapes, refused the filter, before any row was read.
            let hint = commandName.map { " (see 'logbook \($0) --help')" } ?? ""
            Console.printError("logbook: error: invalid --where: \(error)\(hint)")
            return 2
        } catch LogbookError.noDatabase(let path) {
            Console.printError("logbook: error: no database at \(path) (check --db or $LOGBOOK_DB, or run 'logbook init')")
            return 1
        } catch let error as CommandFailure {
            Console.printError("logbook: error: \(error.message)")
            return 1
        } catch let error as LogbookError where error.leavesOutTheDatabase {
            Console.printError("logbook: error: " + (databasePath.map { "\($0): " } ?? "") + error.description)
            return 1
        } catch {
            Console.printError("logbook: error: \(error)")
            return 1
        }
    }

    /// Splits the line into the command and the arguments for it. Returns no command when the line
    /// only asked for top-level help or the version, which this prints.
    private static func resolve(_ arguments: [String]) throws -> (Command?, [String]) {
        let globalsWithValues = Set(GlobalOptions.all.filter { $0.valueName != nil }.map(\.name))
        var words: [String] = []
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument.hasPrefix("-") && argument != "-" {
                rest.append(argument)
                if argument == "--" { break }
                if globalsWithValues.contains(argument), index < arguments.count {
                    rest.append(arguments[index])
                    index += 1
                }
                continue
            }
            let candidate = (words + [argument]).joined(separator: " ")
            if Commands.all.contains(where: { $0.spec.name == candidate || $0.spec.name.hasPrefix(candidate + " ") }) {
                words.append(argument)
                if Commands.all.contains(where: { $0.spec.name == candidate }) { break }
                continue
            }
            if words.isEmpty || Commands.groups[words.joined(separator: " ")] != nil {
                let prefix = words.joined(separator: " ")
                let choices = Commands.subcommands(of: prefix)
                let place = prefix.isEmpty ? "" : " for '\(prefix)'"
                throw UsageError(message: "unknown command '\(argument)'\(place)"
                                    + ArgumentParser.suggestion(for: argument, among: choices),
                                 command: prefix.isEmpty ? nil : prefix)
            }
            index -= 1
            break
        }
        rest += arguments[index...]
        let name = words.joined(separator: " ")
        if let command = Commands.all.first(where: { $0.spec.name == name }) {
            return (command, rest)
        }
        // The options of a line with no command are global ones, each with its value: `logbook
        // --db` is a missing value, `logbook --bogus` an unknown option, before help or a command.
        let parsed = try ArgumentParser.parse(rest, for: CommandSpec(name: name, abstract: ""))
        if parsed.isSet(GlobalOptions.help) {
            try Console.write(HelpText.group(name))
            return (nil, [])
        }
        // Anywhere on the line, as every command takes it: `logbook history --version`.
        if parsed.isSet(GlobalOptions.version) {
            try Console.print(versionLine)
            return (nil, [])
        }
        if name.isEmpty {
            throw UsageError(message: "missing command: one of \(Commands.subcommands(of: "").joined(separator: ", "))")
        }
        throw UsageError(message: "'\(name)' needs a subcommand: one of \(Commands.subcommands(of: name).joined(separator: ", "))",
                         command: name)
    }
}
