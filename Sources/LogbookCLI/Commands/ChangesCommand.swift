import Foundation
import Logbook

/// `changes`: every record changed since a token, for another database to follow.
enum ChangesCommand {
    private enum FeedFormat: String, CaseIterable {
        case ndjson, postgres
    }

    private static let since = Option<String>.text("--since", valueName: "TOKEN", help: "Changes after this token (default, or empty: every record).")
    private static let state = Option<String>.text(
        "--state", valueName: "FILE", help: "Read the token from FILE (none yet, or empty: every record) and replace it once the output is complete.")
    private static let format = Option<FeedFormat>.choice(
        "--format", valueName: "FMT", among: FeedFormat.allCases, help: "ndjson (default) or postgres (a psql script).")
    private static let retention = Option<Int>.integer(
        "--set-retention", valueName: "DAYS", minimum: 1,
        help: "Keep change-log entries DAYS days (default 90), prune older ones now, and print nothing else.")

    static let command = Command(
        spec: CommandSpec(
            name: "changes", abstract: "Every draft and day inserted, updated or deleted since a token, in commit order.",
            discussion: """
                Triggers log every change to drafts, checklist items, days and exercises, by Logbook or any other SQLite \
                client. Each record changed since the token comes once, as it is now (or as deleted), then a new token. \
                Without a token, every record (a full snapshot). ndjson: {"position":N,"kind":"draft|day","op":"upsert",\
                "record":{…}} or {…"op":"delete","id":"…"} per line, and {"token":"…"} last. postgres: a psql script \
                like 'export --format postgres' that also deletes what was deleted and records the token in \
                logbook_sources; without a token it replaces the source's records. The record a token ends at comes \
                again next time; loading is idempotent. The log keeps 90 days (--set-retention); an older token is \
                refused: start again without one.
                """,
            options: [since.spec, state.spec, format.spec, ImportExportCommands.source.spec, retention.spec, OutputFile.option.spec],
            examples: ["logbook changes --state sync.token --format postgres | psql -v ON_ERROR_STOP=1 reports",
                       "logbook changes --since 5C0F…:1234", "logbook changes --set-retention 30"]),
        usesNoCalendarDay: true,
        run: { invocation in
            let arguments = invocation.arguments
            if let days = try arguments.value(of: retention) {
                try invocation.writeStore().setChangeLogRetention(days: days)
                Console.note("logbook: the change log keeps \(plural(days, "day"))")
                return
            }
            let format = try arguments.format(format, orElse: .ndjson)
            if arguments.isGiven(ImportExportCommands.source) && format != .postgres {
                throw UsageError(message: "'\(ImportExportCommands.source.spec.name)' applies to --format postgres only", command: "changes")
            }
            let statePath = try arguments.value(of: state)
            if statePath != nil && arguments.isGiven(since) {
                throw UsageError(message: "give --since or --state, not both", command: "changes")
            }
            if let statePath, let output = try OutputFile.path(arguments), output != "-", DatabaseFiles.areOneFile(output, statePath) {
                throw UsageError(message: "-o and --state name one file, \(statePath): the token written last would replace the "
                                    + "changes; give each its own file", command: "changes")
            }
            // The state file is written once the changes are out: one that could not be is refused first.
            if let statePath { try OutputDestination.refuseBeforeWork(statePath, protecting: try invocation.databasePath()) }
            // Empty, as a state file may be, or `psql` prints a source with no token yet: every record.
            let tokenText = try arguments.value(of: since).flatMap { $0.isEmpty ? nil : $0 } ?? statePath.flatMap(readToken)
            let token = try tokenText.map { text in
                let format = "LOGBOOK-ID:POSITION:DAY-MARK:STAMP, as 'logbook changes' printed it"
                guard text.trimmingCharacters(in: .whitespacesAndNewlines) == text else {
                    throw UsageError(message: "'\(text.prefix(80))' has spaces or line breaks around it: give the change token alone "
                                        + "(\(format))", command: "changes")
                }
                guard let token = ChangeToken(text) else {
                    throw UsageError(message: "'\(text.prefix(80))' is not a change token (\(format))", command: "changes")
                }
                return token
            }
            let store = try invocation.readStore()
            let end: ChangeToken
            switch format {
            case .ndjson: end = try writeNDJSON(store, since: token)
            case .postgres: end = try writePostgres(store, since: token, source: try arguments.value(of: ImportExportCommands.source))
            }
            if let statePath {
                // With -o's rules: replaced whole once written, links followed, the database refused.
                let database = try invocation.databasePath()
                invocation.notices.afterOutput.append {
                    try OutputDestination.write(to: statePath, protecting: database) { try $0(Data((end.description + "\n").utf8)) }
                }
            }
        })

    /// The token in `path`, or nil when the file does not exist yet or is empty (made by `touch`
    /// or `mktemp` to hold it): every record then.
    private static func readToken(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let file = FileHandle(forReadingAtPath: path), let data = try? file.read(upToCount: 4097) ?? Data() else {
            throw CommandFailure("cannot read \(path)")
        }
        // A token is some 80 bytes: a file of more is another file, which the token would replace.
        guard data.count <= 4096 else { throw CommandFailure("\(path) holds more than 4096 bytes: it is no change-token file") }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    private static func writeNDJSON(_ store: Logbook, since token: ChangeToken?) throws -> ChangeToken {
        let end = try store.changes(since: token) { logged in
            var json = JSONText()
            json.beginObject()
            json.key("position")
            json.raw(String(logged.position))
            json.key("kind")
            json.string(logged.change.kind == .drafts ? "draft" : "day")
            json.key("op")
            json.string(logged.change.isDeletion ? "delete" : "upsert")
            switch logged.change {
            case .draft(let draft):
                json.key("record")
                draft.writeJSON(to: &json)
            case .day(let day):
                json.key("record")
                day.writeJSON(to: &json)
            case .draftDeleted(let id), .dayDeleted(let id):
                json.key("id")
                json.string(id.uuidString)
            }
            json.endObject()
            try Console.write(json.text + "\n")
        }
        try Console.write("{\"token\":\"\(end.description)\"}\n")
        return end
    }

    private static func writePostgres(_ store: Logbook, since token: ChangeToken?, source: String?) throws -> ChangeToken {
        let source = try source ?? store.logbookID()
        var script = try PostgresScript(source: source, output: Console.write)
        let title = "Logbook changes of \(source)" + (token.map { " since \($0)" } ?? ", every record")
        // Begun with the first change (or at the end, or at an error).
        var begun = false
        do {
            let end = try store.changes(since: token) { logged in
                if !begun { try script.begin(title: title) }
                begun = true
                switch logged.change {
                case .draft(let draft): try script.write(draft)
                case .day(let day): try script.write(day)
                case .draftDeleted(let id): try script.writeDeletion(of: .drafts, id: id)
                case .dayDeleted(let id): try script.writeDeletion(of: .history, id: id)
                }
            }
            if !begun { try script.begin(title: title) }
            begun = true
            try script.end(replacing: token == nil ? [.drafts, .history] : [], read: end, since: token, isFeed: true)
            return end
        } catch {
            // A refused token, before any record, writes nothing. Any other error ends the script in
            // a failing statement, so that `… | psql` fails too: begun for it when the first record
            // could not be read (helper-100).
            if case LogbookError.changeTokenRefused = error { throw error }
            if !begun { try? script.begin(title: title) }
            script.abandon()
            throw error
        }
    }
}
