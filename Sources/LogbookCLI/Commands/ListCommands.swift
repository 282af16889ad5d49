import Foundation
import Logbook

/// `drafts list`, `history list` and `count`: fetches that stream to stdout as they step.
enum ListCommands {
    private static let formatOption = OutputFormat.option()
    static let exercise = Option<String>.text("--exercise", valueName: "NAME", help: "Only days that include this exercise.")

    static let draftsList = Command(
        spec: CommandSpec(
            name: "drafts list", abstract: "List drafts, filtered and sorted like a FetchDescriptor.",
            discussion: "Drafts are listed oldest first unless --sort says otherwise.",
            options: QueryOptions.specs + [formatOption.spec, OutputFile.option.spec, Watch.flag.spec],
            examples: ["logbook drafts list --where 'submittedAt == nil && version hasPrefix \"2.\"' --sort version:desc",
                       "logbook drafts list --where 'checklist.doneCount < checklist.count' --format json"]),
        run: { invocation in
            let format = try invocation.arguments.format(formatOption, orElse: .table)
            var query = try QueryOptions.query(invocation, schema: DraftRepository.schema)
            if query.ordering.isEmpty {
                query.ordering = [try DraftRepository.schema.ordering(forFieldNamed: "createdAt", descending: false)]
            }
            let store = try invocation.readStore()
            let zone = try invocation.timeZone()
            try Watch.run(invocation, store: store, format: format) {
                try list(format, records: { try store.drafts.forEach(query, $0) },
                         writer: { RecordStreamWriter.drafts($0, output: Console.write) },
                         header: ["ID", "VERSION", LocalTime.header("SUBMITTED", in: zone), "CHECKLIST", "WHAT'S NEW"]) { draft in
                    [String(draft.id.text.prefix(8)), draft.version.isEmpty ? "(none)" : draft.version,
                     draft.submittedAt.map { LocalTime.text($0, in: zone) } ?? "-", draft.summary,
                     TableWriter.excerpt(draft.whatsNew, limit: 40)]
                }
            }
        })

    static let historyList = Command(
        spec: CommandSpec(
            name: "history list", abstract: "List exercise days, filtered and sorted like a FetchDescriptor.",
            discussion: "Days are listed oldest first unless --sort says otherwise.",
            options: QueryOptions.specs + historyOptions + [formatOption.spec, OutputFile.option.spec, Watch.flag.spec],
            examples: ["logbook history list --from 2026-01-01 --to 2026-01-31 --exercise Burpee",
                       "logbook history list --where 'exercises.count > 3' --sort day:desc --limit 10 --format csv"]),
        run: { invocation in
            let format = try invocation.arguments.format(formatOption, orElse: .table)
            var query = try QueryOptions.query(invocation, schema: HistoryRepository.schema,
                                               extra: try historyFilters(invocation))
            if query.ordering.isEmpty {
                query.ordering = [try HistoryRepository.schema.ordering(forFieldNamed: "day", descending: false)]
            }
            let store = try invocation.readStore()
            let zone = try invocation.timeZone()
            try Watch.run(invocation, store: store, format: format) {
                try list(format, records: { try store.history.forEach(query, $0) },
                         writer: { RecordStreamWriter.history($0, output: Console.write) },
                         header: ["DAY", LocalTime.header("FIRST AT", in: zone), "COUNT", "EXERCISES"]) { day in
                    [day.day.description, LocalTime.text(day.date, in: zone), String(day.exercises.count),
                     TableWriter.excerpt(day.exercises.joined(separator: ", "), limit: 60)]
                }
            }
        })

    /// Streams the records `records` hands over: in a data format through `writer`, or as a table
    /// of `header` columns with one `row` per record.
    private static func list<Record>(_ format: OutputFormat, records: (((Record) throws -> Void) throws -> Void),
                                     writer: (DataFormat) -> RecordStreamWriter<Record>, header: [String],
                                     row: @escaping (Record) -> [String]) throws {
        if let dataFormat = format.dataFormat {
            var output = writer(dataFormat)
            try output.begin()
            try records { try output.write($0) }
            try output.end()
            return
        }
        var table = TableWriter(header: header)
        try records { try table.add(row($0)) }
        try table.finish()
    }

    /// The options that narrow a history listing or export by day and exercise.
    static let historyOptions = DayRangeOptions.specs + [exercise.spec]

    /// `--from`, `--to` and `--exercise` as filter terms.
    static func historyFilters(_ invocation: Invocation) throws -> [FilterExpression] {
        let none = 0..<0
        var filters: [FilterExpression] = []
        let (from, to) = try invocation.dayRange()
        for (day, op) in [(from, FilterOperator.greaterOrEqual), (to, FilterOperator.lessOrEqual)] {
            guard let day else { continue }
            filters.append(.binary(op, .field("day", at: none),
                                   .literal(.day(year: day.year, month: day.month, day: day.day), at: none), at: none))
        }
        if let name = try invocation.arguments.value(of: exercise) {
            guard !name.isEmpty else {
                throw UsageError(message: "invalid --exercise '': an exercise name cannot be empty", command: invocation.arguments.command)
            }
            // Every stored spelling with the same letters up to case and diacritics, each found through the name index;
            // a name as typed first (an import keeps " Plank " as the file gives it), else trimmed as `history add`
            // trims the names it stores (" Burpee " found nothing; helper-53).
            let history = try invocation.readStore().history
            var spellings = try history.exerciseNames(matching: name)
            let trimmed = HistoryCommands.trimmed(name)
            if spellings.isEmpty && trimmed != name && !trimmed.isEmpty { spellings = try history.exerciseNames(matching: trimmed) }
            let tests = (spellings.isEmpty ? [name] : spellings).map {
                FilterExpression.binary(.contains, .field("exercises", at: none), .literal(.string($0), at: none), at: none)
            }
            filters.append(tests.dropFirst().reduce(tests[0]) { .or($0, $1) })
        }
        return filters
    }

    static let count = Command(
        spec: CommandSpec(
            name: "count", abstract: "The number of matching drafts or days (like fetchCount).",
            positionals: [PositionalSpec(name: "drafts|history", help: "What to count.", choices: RecordKind.allCases.map(\.rawValue))],
            options: [QueryOptions.filter.spec, formatOption.spec, OutputFile.option.spec, Watch.flag.spec],
            examples: ["logbook count history --where 'exercises contains \"Burpee\"'", "logbook count drafts --format json"]),
        run: { invocation in
            let format = try invocation.arguments.format(formatOption, orElse: .table)
            let kind = invocation.arguments.positionals[0]
            guard kind == "drafts" || kind == "history" else {
                throw UsageError(message: "cannot count '\(kind)': expected drafts or history", command: "count")
            }
            let query = kind == "drafts" ? try QueryOptions.query(invocation, schema: DraftRepository.schema)
                                         : try QueryOptions.query(invocation, schema: HistoryRepository.schema)
            let store = try invocation.readStore()
            try Watch.run(invocation, store: store, format: format) {
                let number = kind == "drafts" ? try store.drafts.count(query) : try store.history.count(query)
                switch format {
                case .table, .html: try Console.print(String(number))
                // json is an array of objects, as every listing and report writes it; ndjson one object a line.
                case .json: try Console.print("[{\"count\":\(number)}]")
                case .ndjson: try Console.print("{\"count\":\(number)}")
                case .csv: try Console.write(CSVText.row(["count"]) + CSVText.row([String(number)]))
                }
            }
        })
}
