import Foundation
import Logbook
import SQLiteQuery

/// `query SQL [-p NAME=VALUE]…`: any read-only SQL, every output format.
enum QueryCommand {
    private static let formatOption = OutputFormat.option()
    private static let parameter = Option<String>.text("--param", short: "p", valueName: "NAME=VALUE", repeatable: true,
                                                       help: "A named parameter.")

    static let command = Command(
        spec: CommandSpec(
            name: "query", abstract: "Run one read-only SQL statement with named parameters.",
            discussion: """
                The statement runs on a read-only connection (PRAGMA query_only): a write is refused and changes \
                nothing. Parameters are written :name and given with -p name=value, each one the statement's; a \
                number written plainly (5, -12, 2.5) is bound as a number, anything else (007, +5, 1e3, 2.50, -0.0, 0.00001, which SQLite writes 1.0e-05, more than 15 digits) as text. The tables are described in the Logbook documentation (The database file).
                """,
            positionals: [PositionalSpec(name: "sql", help: "One SQL statement.")],
            options: [parameter.spec, formatOption.spec, OutputFile.option.spec],
            examples: ["logbook query 'SELECT day, count(*) AS n FROM exercise_days JOIN exercises ON day_pk = exercise_days.pk GROUP BY day' --format csv",
                       "logbook query 'SELECT version FROM drafts WHERE version_key = :v' -p v=2.5.0"]),
        usesNoCalendarDay: true,
        run: { invocation in
            let format = try invocation.arguments.format(formatOption, orElse: .table)
            var parameters: [String: DatabaseValue] = [:]
            for pair in try invocation.arguments.values(of: parameter) {
                // At the first `=` scalar, as ArgumentParser splits `--name=value`.
                guard case (var name, let given)? = pair.split(atFirst: "="), !name.isEmpty else {
                    throw UsageError(message: "invalid parameter '\(pair)': expected NAME=VALUE", command: "query")
                }
                if let first = name.first, ":@$".contains(first) { name.removeFirst() }
                guard parameters.updateValue(value(given), forKey: name) == nil else {
                    throw UsageError(message: "parameter '\(name)' is given twice: give each once", command: "query")
                }
            }
            let store = try invocation.readStore()
            var output: CellOutput<[DatabaseValue]>?
            var (names, rowNumber) = ([String](), 0)
            try store.query(invocation.arguments.positionals[0], parameters: parameters,
                            columns: { names = $0; output = try CellOutput(columns: $0, format: format) { $0.map(cell) } },
                            row: { values in
                                rowNumber += 1
                                // JSON has no number for an infinity, which it wrote as null.
                                if format == .json || format == .ndjson, let index = values.firstIndex(where: { $0.infinity != nil }) {
                                    throw CommandFailure("row \(rowNumber), column \(names[index]), is \(values[index].infinity!), which JSON "
                                                         + "has no number for: give --format csv or table, or select it CAST AS TEXT")
                                }
                                try output?.add(values)
                            })
            try output?.finish()
        })

    /// A whole number or a decimal in its plain form is a number; anything else is text. A
    /// decimal's plain form is the text SQLite gives back for the number: digits with at most a
    /// `-` and a `.`, as Swift spells the `Double` (`2.5`, `100.0`; not `2.50`, `+2.5`, `02.5` or
    /// `2.5e0`), of at most 15 significant digits (SQLite writes a real with 15), and not `-0.0`:
    /// bound as numbers, they matched no version written so (helper-66, helper-67).
    private static func value(_ text: String) -> DatabaseValue {
        if let integer = Int64(text), String(integer) == text { return .integer(integer) }
        let digits = text.utf8.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        // Significant digits: from the first that is not 0, a whole number's `.0` left out.
        let significant = (text.hasSuffix(".0") ? digits.dropLast() : digits[...]).drop { $0 == UInt8(ascii: "0") }
        // Swift spells a finite `Double` with a `.`, or with an `e` where SQLite would too.
        if let real = Double(text), real.isFinite, real != 0 || !text.hasPrefix("-"), String(real) == text, !text.contains("e"),
           significant.count <= 15 {
            return .real(real)
        }
        return .text(text)
    }

    private static func cell(_ value: DatabaseValue) -> Cell {
        switch value {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .blob(let data): .text(data.base64EncodedString())
        }
    }
}

private extension DatabaseValue {
    /// `inf` or `-inf` for a real number that is infinite (SQLite makes NaN NULL), else nil.
    var infinity: String? {
        if case .real(let number) = self, number.isInfinite { return String(number) }
        return nil
    }
}
