import Foundation
import Logbook

/// `import` and `export`.
enum ImportExportCommands {
    private static let kind = Option<RecordKind>.choice(
        "--kind", valueName: "KIND", among: RecordKind.allCases, help: "drafts or history (default: from the content).")
    private static let importFormat = Option<ImportFormat>.choice(
        "--format", valueName: "FMT", among: ImportFormat.allCases, help: "auto|json|ndjson|csv|plist|sqlite (default: auto).")
    private static let onConflict = Option<ConflictPolicy>.choice(
        "--on-conflict", valueName: "POLICY", among: ConflictPolicy.allCases, help: "skip|replace|fail for ids already stored (default: skip).")
    private static let dryRun = Flag("--dry-run", help: "Validate and report; write nothing.")
    private static let exportFormat = Option<ExportFormat>.choice(
        "--format", valueName: "FMT", among: ExportFormat.allCases,
        help: "json|ndjson|csv|plist|postgres (default: from -o's extension: .jsonl is ndjson, .sql postgres; else json).")
    private static let csvHeader = Option<CSVHeaderStyle>.choice(
        "--csv-header", valueName: "STYLE", among: CSVHeaderStyle.allCases,
        help: "camelCase (default, the JSON keys) or snake_case (the PostgreSQL schema's names) for a drafts CSV.")
    /// `--source`: the logbook's name in PostgreSQL (export and changes).
    static let source = Option<String>.text(
        "--source", valueName: "NAME", help: "The source column in PostgreSQL (default: this logbook's id, the same in every copy of the file).")

    static let importCommand = Command(
        spec: CommandSpec(
            name: "import", abstract: "Import drafts or history from a file, in one transaction.",
            discussion: """
                Formats: json (this tool's or the apps' JSONEncoder output), ndjson, csv, plist (release-draft.plist, \
                history.plist), sqlite (another device's logbook: drafts and days merged; a day both have becomes one \
                record, the one started first giving its id, the same whichever file is merged into which). Any invalid \
                record rejects the whole file and nothing is written. Records already stored (matched by id) are \
                skipped, so importing a file twice changes nothing.
                """,
            positionals: [PositionalSpec(name: "file", help: "The file to read, or - for stdin.")],
            options: [kind.spec, importFormat.spec, onConflict.spec, dryRun.spec],
            examples: ["logbook import ~/Library/…/history.plist", "logbook import drafts.json --dry-run",
                       "logbook import phone.sqlite",
                       "cat days.ndjson | logbook import - --kind history --format ndjson"]),
        run: { invocation in
            let arguments = invocation.arguments
            var options = ImportOptions()
            options.kind = try arguments.value(of: kind)
            options.format = try arguments.value(of: importFormat) ?? .auto
            options.onConflict = try arguments.value(of: onConflict) ?? .skip
            options.dryRun = arguments.isSet(dryRun)

            let path = arguments.positionals[0]
            let (handle, size) = try openInput(path)
            let showsProgress = Console.showsProgress(terminalTakesEscapes: invocation.terminalTakesEscapes)
            if showsProgress {
                options.progress = { records, bytes in
                    let percent = size.map { $0 > 0 ? " (\(min(100, bytes * 100 / $0))%)" : "" } ?? ""
                    Console.progress("logbook: importing \(records) records\(percent)")
                }
            }
            let store = options.dryRun ? try invocation.dryRunStore() : try invocation.writeStore()
            let summary = try store.importRecords(from: handle, file: path == "-" ? "stdin" : path, options: options)
            if showsProgress { Console.progress("") }
            let what = summary.kind.map { " \($0.rawValue)" } ?? ""
            Console.note(options.dryRun ? "logbook: dry run\(what), nothing written: \(summary.line)"
                                              : "logbook: imported\(what): \(summary.line)")
        })

    static let exportCommand = Command(
        spec: CommandSpec(
            name: "export", abstract: "Export drafts or history, streaming, in a format other tools or the apps read.",
            discussion: """
                json, ndjson and csv carry every field; plist writes the apps' own files ([ReleaseDraft] as \
                PropertyListEncoder writes it, or a history.plist); postgres writes a SQL script that psql loads with \
                nothing else (schema, COPY, upserts, one transaction; an unfiltered export also deletes the source's \
                records that are gone). The same database always gives the same bytes (postgres: but its header's time).
                """,
            positionals: [PositionalSpec(name: "drafts|history", help: "What to export.", choices: RecordKind.allCases.map(\.rawValue))],
            options: QueryOptions.specs + ListCommands.historyOptions
                + [exportFormat.spec, csvHeader.spec, source.spec, OutputFile.option.spec],
            examples: ["logbook export history --format plist -o history.plist",
                       "logbook export history --format postgres | psql -v ON_ERROR_STOP=1 mydb",
                       "logbook export drafts --where 'isSubmitted' --format csv > submitted.csv"]),
        run: { invocation in
            let arguments = invocation.arguments
            let format = try arguments.format(exportFormat, orElse: .json)
            let kindText = arguments.positionals[0]
            guard let recordKind = RecordKind(rawValue: kindText) else {
                throw UsageError(message: "cannot export '\(kindText)': expected drafts or history", command: "export")
            }
            let query: RecordQuery
            if recordKind == .drafts {
                if let option = ListCommands.historyOptions.first(where: arguments.isGiven) {
                    throw UsageError(message: "'\(option.name)' applies to history only", command: "export")
                }
                query = try QueryOptions.query(invocation, schema: DraftRepository.schema)
            } else {
                query = try QueryOptions.query(invocation, schema: HistoryRepository.schema,
                                               extra: try ListCommands.historyFilters(invocation))
            }
            let options = ExportOptions(csvHeader: try arguments.value(of: csvHeader) ?? .camelCase,
                                        source: try arguments.value(of: source))
            if arguments.isGiven(csvHeader.spec) && format != .csv {
                throw UsageError(message: "'\(csvHeader.spec.name)' applies to --format csv only", command: "export")
            }
            if arguments.isGiven(source.spec) && format != .postgres {
                throw UsageError(message: "'\(source.spec.name)' applies to --format postgres only", command: "export")
            }
            let store = try invocation.readStore()
            switch recordKind {
            case .drafts: try store.exportDrafts(query, format: format, options: options, to: { try Console.write($0) })
            case .history:
                try store.exportHistory(query, format: format, options: options, to: { try Console.write($0) })
                if format == .plist { try warnOfDaysAPropertyListMoves(store, query) }
            }
        })

    /// A `history.plist` has no day: an import puts each record on its date's day in the time zone.
    /// Says so, on stderr, when a record exported has another day (one back-dated in another time
    /// zone, or a file's own), so that a round trip that moves it is not a surprise.
    private static func warnOfDaysAPropertyListMoves(_ store: Logbook, _ query: RecordQuery) throws {
        let moved = try store.history.fetch(query).filter { CalendarDay($0.date, in: store.timeZone) != $0.day }
        guard let first = moved.first else { return }
        // A warning, not a confirmation: shown under -q too.
        Console.printError("logbook: warning: \(moved.count) of the days exported \(moved.count == 1 ? "is not its" : "are not their") date's day in "
                     + "\(store.timeZone.nameForPeople) (first: \(first.day), date \(first.date.iso8601Microseconds)); a history.plist has no "
                     + "day, so an import puts \(moved.count == 1 ? "it" : "them") on the date's day in its time zone")
    }

    /// The file to import from (or stdin for `-`) and its size when known.
    private static func openInput(_ path: String) throws -> (FileHandle, Int?) {
        if path == "-" { return (try StandardInput.handle(for: "import -"), nil) }
        if StandardDescriptors.isClosedAtStart(path) { throw CommandFailure("cannot read \(path): it was closed when logbook started") }
        // The system's own reason when it cannot be opened (a socket, a loop of links, a name too
        // long), as `-o` gives it: every failure was "no such file" or "permission denied".
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw CommandFailure("cannot read \(path): \(code == ENOENT ? "no such file" : String(cString: strerror(code)))")
        }
        // The handle closes the descriptor, on a refusal below too.
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            throw CommandFailure("cannot read \(path): \(String(cString: strerror(code)))")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw CommandFailure("cannot read \(path): it is a folder") }
        return (handle, status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : nil)
    }
}
