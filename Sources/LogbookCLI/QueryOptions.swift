import Foundation
import Logbook

/// `--where EXPR --sort KEY[:asc|:desc] --limit N --offset N`: the SwiftData-style fetch on the
/// command line, compiled into the same IR as a `#Predicate`.
enum QueryOptions {
    static let filter = Option<String>.text(
        "--where", valueName: "EXPR", help: "Only records matching the filter (see 'logbook help where').")
    static let sort = Option<String>.text(
        "--sort", valueName: "KEY[:asc|:desc]", repeatable: true, help: "Sort keys, repeatable or comma-separated; ties are broken by id.")
    static let limit = Option<Int>.integer("--limit", help: "At most N records (fetchLimit).")
    static let offset = Option<Int>.integer("--offset", help: "Skip the first N records (fetchOffset).")
    static let specs = [filter.spec, sort.spec, limit.spec, offset.spec]

    /// The fetch the options describe, with `extra` conditions (e.g. from `--from`) and-ed in.
    static func query<Record>(_ invocation: Invocation, schema: QuerySchema<Record>,
                              extra: [FilterExpression] = []) throws -> RecordQuery {
        var filters = extra
        let filterText = try invocation.arguments.value(of: filter)
        if let filterText { filters.insert(try parse(filterText, invocation), at: 0) }
        let timeZone = try invocation.timeZone()
        var condition: QueryExpression?
        if let combined = filters.dropFirst().reduce(filters.first, { partial, next in partial.map { .and($0, next) } }) {
            do {
                condition = try schema.condition(for: combined, timeZone: timeZone)
            } catch let error as QueryError {
                throw filterError(error.description, error.position, text: filterText, invocation)
            }
        }
        var ordering: [Ordering] = []
        // Empty pieces count: `--sort ''`, `version,,id` and `version:` are mistakes, not defaults.
        for key in try invocation.arguments.values(of: sort).flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let parts = key.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                .map(String.init)
            let direction = parts.count > 1 ? parts[1] : "asc"
            guard let name = parts.first, !name.isEmpty, direction == "asc" || direction == "desc" else {
                throw UsageError(message: "invalid sort key '\(key)': expected KEY, KEY:asc or KEY:desc", command: invocation.arguments.command)
            }
            do {
                ordering.append(try schema.ordering(forFieldNamed: name, descending: direction == "desc"))
            } catch let error as QueryError {
                throw UsageError(message: "invalid --sort: \(error)", command: invocation.arguments.command)
            }
        }
        return RecordQuery(condition: condition, ordering: ordering,
                           limit: try invocation.arguments.value(of: limit),
                           offset: try invocation.arguments.value(of: offset))
    }

    /// Parses `--where` text, turning a syntax error into a usage error with a caret.
    static func parse(_ text: String, _ invocation: Invocation) throws -> FilterExpression {
        do {
            return try FilterParser.parse(text, timeZone: try invocation.timeZone())
        } catch let error as FilterParser.SyntaxError {
            throw filterError(error.message, error.position, text: text, invocation)
        }
    }

    /// `invalid --where: MESSAGE`, then the expression and a caret under the problem.
    ///
    /// The expression is printed as every message line is (``Console/oneLine(_:)``: a tab as `\t`,
    /// a line break as `\n`, a zero-width space as `\u{200B}`), so the caret is placed by the
    /// columns that printed text takes on a terminal (``DisplayWidth``), not by characters
    /// (helper-43: a tab, a zero-width space or wide letters before the mistake put it to the left).
    private static func filterError(_ message: String, _ position: Range<Int>?, text: String?,
                                    _ invocation: Invocation) -> UsageError {
        var detail: [String] = []
        if let text, let position {
            let start = min(position.lowerBound, text.count)
            let covered = text.dropFirst(start).prefix(max(0, position.upperBound - start))
            let indent = DisplayWidth.of(Console.oneLine(String(text.prefix(start))))
            let width = max(1, DisplayWidth.of(Console.oneLine(String(covered))))
            detail = ["  " + text, "  " + String(repeating: " ", count: indent) + String(repeating: "^", count: width)]
        }
        return UsageError(message: "invalid --where: \(message)", command: invocation.arguments.command, detail: detail)
    }
}
