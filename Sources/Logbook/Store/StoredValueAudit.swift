import Foundation
import SQLiteQuery

/// Values another program stored where Logbook reads its records that Logbook cannot read, or
/// would not save or import again: text where a date belongs, text whose bytes are not UTF-8
/// (which Logbook refuses to read rather than repair) or longer than any field Logbook takes,
/// `2026-02-30` as a day, a lowercase or malformed id, a date outside years 0001 to 9999, an
/// empty exercise name, a day record with no exercise, a merged id that is also a record's id; and a setting in `logbook_settings`
/// stored as a blob, a change-log retention that is not a whole number of days, 1 or more, a logbook id that is
/// gone or is not an uppercase UUID, and a day row or change-log entry at the largest row key. SQLite's column types and
/// `CHECK`s let such values in; a record holding one cannot be listed, exported or reported, and a
/// setting held so stops what reads it (the change feed, every write for `comparison_keys`).
/// `Logbook.check()` names them (table, column, row) and `Logbook.repair(dryRun:)` refuses to run
/// until they are corrected, since no repair can guess the value that was meant.
enum StoredValueAudit {
    /// Every column records are read from, from the record declarations in ``Tables``, and the
    /// merged ids, which imports look up as uppercase text (a lowercase one would never match, and
    /// its record would be imported a second time).
    static let columns = Tables.drafts.storedColumns + Tables.exerciseDays.storedColumns
        + [StoredColumn(table: "exercise_day_aliases", column: "id", kind: .uuid, rowColumns: ["id"])]

    /// One line per column holding unreadable values: how many rows, what a value must be, and
    /// up to three rows by key with their values.
    static func problems(in connection: Connection) throws -> [String] {
        var problems: [String] = []
        for column in columns {
            let (condition, requirement) = readable(column)
            let rowName = column.rowColumns.map { "'\($0) ' || \($0)" }.joined(separator: " || ' ' || ")
            if let problem = try faultyRows("\(column.table).\(column.column)", "FROM \(column.table) WHERE NOT (\(condition))",
                                            arguments: arguments(for: column),
                                            example: "\(rowName) || ': ' || \(shortened(quoted(column.column)))",
                                            requirement: requirement, in: connection) {
                problems.append(problem)
            }
        }
        // The day records that hold no exercise (another program deleted their rows): Logbook saves
        // no such record and imports none, so a round trip of the file would be refused, and no
        // report counts the day as active.
        let emptyDays = try faultyRows("exercise_days", "FROM exercise_days AS d WHERE NOT EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk)",
                                       example: "'pk ' || d.pk || ': ' || \(quoted("d.day"))", order: "ORDER BY d.pk",
                                       requirement: "a record with an exercise (delete it, or add one)", in: connection)
        // A day row at the largest key: SQLite gives every later row a random key, which the change
        // feed and the tallies (both find new days above a mark) cannot follow; Logbook adds no day then.
        let lastKey = try faultyRows("exercise_days.pk", "FROM exercise_days WHERE pk = \(largestRowKey)",
                                     example: "'day ' || \(quoted("day"))",
                                     requirement: "below \(largestRowKey) (after it new days get random row keys)", in: connection)
        // The same for the change log: an entry after one at the largest key gets a random, lower
        // key, and a feed read past the old one never sends it (helper-49).
        let lastEntry = try faultyRows("change_log.seq", "FROM change_log WHERE seq = \(largestRowKey)",
                                       example: "'kind ' || \(quoted("kind")) || ' pk ' || quote(pk)",
                                       requirement: "below \(largestRowKey) (after it new entries get random keys, which the change "
                                           + "feed cannot follow: delete the entry)", in: connection)
        // An empty exercise name: Logbook saves none and imports none, so it would be refused too.
        let emptyNames = try faultyRows("exercises.name", "FROM exercises WHERE name = ''",
                                        example: "'day_pk ' || day_pk || ' position ' || quote(position)", order: "ORDER BY day_pk, position",
                                        requirement: "named (an exercise needs a name)", in: connection)
        // A merged id that is also a day record's own id: Logbook keeps the two apart, and an
        // import or a merge of that id could take it for either record.
        let aliasedRecords = try faultyRows("exercise_day_aliases.id", "FROM exercise_day_aliases AS a JOIN exercise_days AS d ON d.id = a.id",
                                            example: "'id ' || a.id || ': the record of ' || \(quoted("d.day"))", order: "ORDER BY a.id",
                                            requirement: "an id no day record has (delete the merged id's row)", in: connection)
        return problems + [emptyDays, lastKey, lastEntry, emptyNames, aliasedRecords].compactMap { $0 } + (try settingsProblems(in: connection))
    }

    /// The rows `source` (`FROM … WHERE …`) selects, as one line of ``problems(in:)`` named `name`:
    /// how many, what each must be, and `example` (an SQL expression) of the first three in
    /// `order`; nil when there are none.
    private static func faultyRows(_ name: String, _ source: String, arguments: [DatabaseValue] = [], example: String,
                                   order: String = "", requirement: String, in connection: Connection) throws -> String? {
        let count = try connection.scalar("SELECT count(*) \(source)", arguments, as: Int.self) ?? 0
        guard count > 0 else { return nil }
        let statement = try connection.prepare("SELECT \(example) \(source) \(order) LIMIT 3")
        try statement.bind(arguments)
        var examples: [String] = []
        while try statement.step() { examples.append(try statement.column(0)) }
        return problem(name, count: count, requirement: requirement, examples: examples)
    }

    /// SQL quoting the value `name` for a message: as `quote()` does, but text that is not UTF-8,
    /// or holds a NUL (where `quote()` stops: `'0300-03-01'` for `0300-03-01` and a NUL), as the
    /// blob literal of its bytes (`X'5371FF'`), which a message can show.
    private static func quoted(_ name: String) -> String {
        """
        CASE WHEN typeof(\(name)) = 'text' AND (NOT swift_is_utf8(\(name)) OR instr(CAST(\(name) AS BLOB), X'00') > 0)
             THEN quote(CAST(\(name) AS BLOB)) ELSE quote(\(name)) END
        """
    }

    /// SQL showing the text `expression` for a message: its first 40 characters, and `…` when
    /// there are more (the closing quote of a long quoted value is cut off).
    private static func shortened(_ expression: String) -> String {
        "CASE WHEN length(\(expression)) > 40 THEN substr(\(expression), 1, 40) || '…' ELSE \(expression) END"
    }

    /// The settings stored other than as text, and a change-log retention Logbook would not write
    /// (``Logbook/retentionDays(fromSetting:)``), in the form of ``problems(in:)``.
    private static func settingsProblems(in connection: Connection) throws -> [String] {
        var problems = try settingsNotText(in: connection).map { [$0] } ?? []
        let retention = try connection.scalar("SELECT value FROM logbook_settings WHERE name = ? AND typeof(value) = 'text'",
                                              [.text(Logbook.retentionSettingName)], as: String.self)
        if let retention, Logbook.retentionDays(fromSetting: retention) == nil {
            problems.append(problem("logbook_settings.value", count: 1,
                                    requirement: "a whole number of days, 1 or more, as 'logbook changes --set-retention DAYS' writes it",
                                    examples: ["name '\(Logbook.retentionSettingName)': '\(retention.prefix(40))'"]))
        }
        // The logbook's id (migration 0008), which the change feed's tokens and a PostgreSQL
        // export's source carry: gone, or not an uppercase UUID (a colon in it broke the feed's own
        // tokens), those commands failed while the check passed (helper-49).
        // (One stored other than as text is named above.)
        let stored = try connection.scalar("SELECT value FROM logbook_settings WHERE name = 'logbook_id'", as: DatabaseValue.self)
        let id: String? = if case .text(let text) = stored { text } else { nil }
        if stored == nil || id.map({ UUID(text: $0)?.text != $0 }) == true {
            problems.append(problem("logbook_settings.value", count: 1,
                                    requirement: "the logbook's id, an uppercase UUID (the change feed and 'export --format postgres' "
                                        + "name the logbook by it; a new one makes earlier change tokens refused)",
                                    examples: [id.map { "name 'logbook_id': '\($0.prefix(40))'" } ?? "no row named 'logbook_id'"]))
        }
        return problems
    }

    /// The settings stored other than as text, in the form of ``problems(in:)``, or nil for none.
    /// Logbook reads each setting as text but `tallied_through`, which it reads as a row key and
    /// stores again itself when it is not one (``TalliedThrough``).
    private static func settingsNotText(in connection: Connection) throws -> String? {
        let statement = try connection.prepare("""
            SELECT 'name ' || quote(name) || ': ' || \(shortened("quote(value)")) FROM logbook_settings
            WHERE typeof(value) <> 'text' AND name <> ? ORDER BY name
            """)
        try statement.bind(TalliedThrough.settingName, at: 1)
        var rows: [String] = []
        while try statement.step() { rows.append(try statement.column(0)) }
        guard !rows.isEmpty else { return nil }
        return problem("logbook_settings.value", count: rows.count, requirement: "text", examples: Array(rows.prefix(3)))
    }

    /// The largest row key SQLite has (2^63 - 1): after a row with it, SQLite draws new rows' keys at random.
    static let largestRowKey = Int64.max

    /// One line of ``problems(in:)``: `count` rows of `column` are not `requirement`, with examples.
    private static func problem(_ column: String, count: Int, requirement: String, examples: [String]) -> String {
        "\(column): \(count) \(count == 1 ? "row is" : "rows are") not \(requirement) (\(examples.joined(separator: "; ")))"
    }

    /// The SQL condition a value of `column` meets when Logbook can read it, and the requirement in words.
    private static func readable(_ column: StoredColumn) -> (condition: String, requirement: String) {
        let name = column.column
        let (condition, requirement): (String, String) = switch column.kind {
        // No longer than any text Logbook saves or imports, so that what is stored can come back.
        case .text: ("\(isUTF8Text(name)) AND length(CAST(\(name) AS BLOB)) <= \(RecordLimits.textBytes)",
                     "TEXT holding UTF-8, at most \(RecordLimits.textBytes >> 20) MiB")
        case .integer: ("typeof(\(name)) = 'integer'", "an integer")
        case .bool: ("typeof(\(name)) = 'integer' AND \(name) IN (0, 1)", "0 or 1")
        case .date: ("typeof(\(name)) IN ('real', 'integer') AND \(name) BETWEEN ? AND ?",
                     "a date (REAL seconds since 2001) in \(CalendarDay.supportedYearsText)")
        case .uuid: ("typeof(\(name)) = 'text' AND \(name) GLOB '\(uppercaseUUIDPattern)'", "an uppercase UUID")
        case .day: (isCalendarDay(name), "a calendar day YYYY-MM-DD")
        }
        return column.isOptional ? ("\(name) IS NULL OR (\(condition))", requirement + " or NULL") : (condition, requirement)
    }

    /// SQL that is true when the value `name` is text Logbook reads as a `String`: TEXT holding UTF-8.
    static func isUTF8Text(_ name: String) -> String {
        "(typeof(\(name)) = 'text' AND swift_is_utf8(\(name)))"
    }

    /// SQL that is true when the value `name` is a day Logbook reads (``CalendarDay/init(_:)``):
    /// `YYYY-MM-DD` text, ten ASCII bytes, of a day of the proleptic Gregorian calendar from
    /// 0001-01-01 to 9999-12-31.
    ///
    /// Checked field by field, not by SQLite's date functions: SQLite 3.40.1 turns 0300-03-01, and
    /// no other day from 0001 to 9999, into `0300-02-29` (`date(julianday('0300-03-01'))`), so this
    /// check, which was that round trip, refused that day and took the text `0300-02-29`
    /// (`CalendarDayAndDateTests` compares this SQL with `CalendarDay` on every day and on text
    /// around them).
    static func isCalendarDay(_ name: String) -> String {
        let year = "CAST(substr(\(name), 1, 4) AS INTEGER)", month = "substr(\(name), 6, 2)", day = "substr(\(name), 9, 2)"
        return """
            (typeof(\(name)) = 'text' AND length(CAST(\(name) AS BLOB)) = 10
             AND \(name) GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]' AND \(name) >= '0001-01-01'
             AND \(month) BETWEEN '01' AND '12' AND \(day) >= '01'
             AND \(day) <= CASE \(month)
                 WHEN '02' THEN CASE WHEN \(year) % 4 = 0 AND (\(year) % 100 <> 0 OR \(year) % 400 = 0) THEN '29' ELSE '28' END
                 WHEN '04' THEN '30' WHEN '06' THEN '30' WHEN '09' THEN '30' WHEN '11' THEN '30' ELSE '31' END)
            """
    }

    /// The parameters of ``readable(_:)``'s condition: the supported range's ends for a date.
    private static func arguments(for column: StoredColumn) -> [DatabaseValue] {
        guard column.kind == .date else { return [] }
        return [Date.supportedRange.lowerBound.databaseValue, Date.supportedRange.upperBound.databaseValue]
    }

    /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` with X an uppercase hexadecimal digit, as a GLOB.
    private static let uppercaseUUIDPattern = [8, 4, 4, 4, 12]
        .map { String(repeating: "[0-9A-F]", count: $0) }.joined(separator: "-")
}
