import Foundation
import SQLiteQuery

/// Reads the records of one import file, one at a time, in file order.
protocol RecordSource {
    /// What the file holds, known once the first record (or the header) is read.
    var kind: RecordKind? { get }
    /// The next record, or nil at the end. Errors are ``ImportError``s naming record and place.
    mutating func next() throws -> ImportedRecord?
}

/// A JSON array, element by element, or NDJSON, line by line.
struct JSONRecordSource: RecordSource {
    let file: String
    let parser: JSONParser
    let isLines: Bool
    private(set) var kind: RecordKind?
    private var count = 0
    private var started = false
    /// The exercise names decoded last, for ``PlainDayObject``.
    private let names = RecentTexts()

    init(file: String, stream: ByteStream, isLines: Bool, kind: RecordKind?) {
        self.file = file
        parser = JSONParser(stream: stream, isLineDelimited: isLines)
        self.isLines = isLines
        self.kind = kind
    }

    /// What a record's bytes were read as: a day in the plain shape (``PlainDayObject``), or a
    /// JSON value to decode.
    private enum Read {
        case plainDay(DayInput)
        case value(JSONValue)
    }

    mutating func next() throws -> ImportedRecord? {
        let read: Read
        // The record's line: an NDJSON record's is named in errors, a JSON array's (pretty-printed,
        // or all on one line) is not.
        var line: Int?
        // Where a JSON array's element starts, for the one error that names it: a kind not told.
        var elementLine = 1
        do {
            if isLines {
                guard try parser.beginLine() else { return nil }
                line = parser.position.line
            } else {
                if !started { try parser.beginArray() }
                let isFirst = !started
                started = true
                guard try parser.beginElement(isFirst: isFirst) else { return nil }
                elementLine = parser.position.line
            }
            if kind != .drafts, let day = parser.stream.takeBuffered({ PlainDayObject.read($0, isLineDelimited: isLines, names: names) }) {
                read = .plainDay(day)
            } else {
                read = .value(try isLines ? parser.lineValue() : parser.elementValue())
            }
            if isLines { try parser.endLine() }
        } catch let error as JSONParser.SyntaxError {
            throw ImportError(file: file, record: count + 1, line: error.line, column: error.column, field: error.field, reason: error.message)
        }
        count += 1
        let place = RecordPlace(number: count, line: line)
        let value: JSONValue
        switch read {
        case .plainDay(let day):
            kind = .history
            return .day(day, at: place)
        case .value(let parsed):
            value = parsed
        }
        if kind == nil {
            guard let detected = JSONRecordDecoding.kind(of: value) else {
                // A JSON array in a file read line by line (`.jsonl`, `.ndjson`) is a JSON file misnamed.
                if isLines, case .array = value {
                    throw ImportError(file: file, record: count, line: line ?? elementLine,
                                      reason: "a JSON array where each line should hold one record: is it JSON? (pass --format json)")
                }
                throw ImportError(file: file, record: count, line: line ?? elementLine,
                                  reason: "cannot tell drafts from history: expected an object with \"version\" or \"exercises\" (or pass --kind)")
            }
            kind = detected
        }
        do {
            switch kind {
            case .drafts: return .draft(try JSONRecordDecoding.draft(value), at: place)
            default: return .day(try JSONRecordDecoding.day(value), at: place)
            }
        } catch let error as FieldError {
            throw ImportError(file: file, record: place, field: error.field, reason: error.reason)
        }
    }
}

/// CSV as `export` writes it: drafts one row per checklist item, history one row per exercise;
/// consecutive rows with the same id make one record. History may also be hand-made: an
/// `exercise` column and a `day` or a `date` column are enough (no ids, or empty id cells, no
/// positions), and each row without an id is then a record of its own, which
/// ``IDlessDayGrouping`` joins by day.
struct CSVRecordSource: RecordSource {
    static let draftColumns = ["id", "version", "whatsNew", "submittedAt", "createdAt", "updatedAt",
                               "itemPosition", "itemId", "itemTitle", "itemIsDone"]
    static let historyColumns = ["id", "day", "date", "position", "exercise"]
    /// The most fields a header row is read to: far more than both kinds' columns, each named once.
    static let headerFieldLimit = 64
    /// What a hand-made history file needs at least: the exercise, and one of day and date.
    static let handMadeHistoryColumns = ["day|date", "exercise"]

    let file: String
    private var reader: CSVReader
    private(set) var kind: RecordKind?
    /// Each named column's index, by its camelCase name.
    private var columns: [String: Int] = [:]
    /// How many fields the header has, named or not: 0 until it is read.
    private var headerWidth = 0
    /// The columns the header leaves unnamed (a spreadsheet's empty columns), whose cells must be empty.
    private var unnamedColumns: [Int] = []
    private var pending: (row: [String], line: Int)?
    /// Why a row after the last record returned could not be read: what the next call throws.
    private var failureAfterRecord: (any Error)?
    private var count = 0

    init(file: String, stream: ByteStream, kind: RecordKind?) {
        self.file = file
        reader = CSVReader(stream: stream)
        self.kind = kind
    }

    mutating func next() throws -> ImportedRecord? {
        if let failure = failureAfterRecord { throw failure }
        if headerWidth == 0 { try readHeader() }
        guard let first = try pending ?? readRow() else { return nil }
        pending = nil
        count += 1
        var rows = [first]
        // Rows with an id make one record per id; a row without one (no column, or an empty
        // cell) is a record of its own, as in a hand-made file.
        do {
            while !field(first.row, "id").isEmpty, let row = try readRow() {
                if sameID(row.row, first.row) {
                    rows.append(row)
                } else {
                    pending = row
                    break
                }
            }
        } catch {
            // A row that cannot be read after the record's first: the record's rows so far come
            // first, so that a problem of theirs, the earlier one in the file, is the one reported.
            failureAfterRecord = error
        }
        do {
            let place = RecordPlace(number: count, line: first.line)
            return kind == .drafts ? .draft(try draft(rows), at: place) : .day(try day(rows), at: place)
        } catch let error as FieldError {
            throw ImportError(file: file, record: count, line: error.line ?? first.line, field: error.field, reason: error.reason)
        }
    }

    /// Whether two rows name the same record: the same UUID, whatever the letters' case.
    private func sameID(_ row: [String], _ other: [String]) -> Bool {
        let (id, otherID) = (field(row, "id"), field(other, "id"))
        if let uuid = UUID(text: id), let otherUUID = UUID(text: otherID) { return uuid == otherUUID }
        return id.utf8.elementsEqual(otherID.utf8)
    }

    private mutating func readHeader() throws {
        guard var header = try readRow() else {
            throw ImportError(file: file, line: 1, reason: "the file is empty; expected a CSV header row")
        }
        // Blank lines before the header, as between rows, are no row; nor is Excel's first line
        // `sep=,`, which may have blank lines of its own after it.
        var sepLine: Int?
        while Self.isBlank(header.row) || (sepLine == nil && Self.isCommaSepLine(header.row)) {
            if !Self.isBlank(header.row) { sepLine = header.line }
            guard let next = try readRow() else {
                let reason = sepLine == nil ? "the file has only blank lines; expected a CSV header row"
                    : "the file has only its 'sep=,' line; expected a CSV header row"
                throw ImportError(file: file, line: sepLine ?? header.line, reason: reason)
            }
            header = next
        }
        // A first line `sep=X` naming another separator is refused, said so.
        if sepLine == nil, let separator = Self.otherSeparator(header.row) {
            throw ImportError(file: file, line: header.line, field: header.row[0],
                              reason: "the file says its fields are separated by \"\(separator.prefix(8))\", not commas; save it as CSV "
                                + "separated by commas")
        }
        headerWidth = header.row.count
        // snake_case headers (`--csv-header snake_case`, the PostgreSQL schema's names) read as camelCase.
        for (index, name) in header.row.enumerated() {
            // A spreadsheet writes empty columns after the data (`day,exercise,,`): read as nothing,
            // each cell checked empty (the header was refused as naming '' twice: helper-90).
            guard !name.isEmpty else {
                unnamedColumns.append(index)
                continue
            }
            guard columns.updateValue(index, forKey: CSVText.camelCase(name)) == nil else {
                throw ImportError(file: file, line: header.line, field: name, reason: "the header names this column twice")
            }
        }
        // A history file without its `exercise` column (`day`, `id,day`) is one too, so that the
        // column named is the missing one (it was `day`, as unknown to a drafts file; helper-86).
        let names = columns.keys
        let isHistory = columns["exercise"] != nil
            || (names.allSatisfy(Self.historyColumns.contains) && !names.allSatisfy(Self.draftColumns.contains))
        let detected: RecordKind = isHistory ? .history : .drafts
        let isGiven = kind != nil
        kind = kind ?? detected
        // A column Logbook has no field for is refused, not dropped: its values would be lost in silence.
        let known = kind == .history ? Self.historyColumns : Self.draftColumns
        // Without --kind, the column neither kind has is the one to name (`exercises` in `day,exercises`,
        // which made a drafts file of it, not `day`).
        let named = header.row.filter { !$0.isEmpty }
        let unknownToBoth = isGiven ? nil : named.first {
            !Self.historyColumns.contains(CSVText.camelCase($0)) && !Self.draftColumns.contains(CSVText.camelCase($0))
        }
        if let unknown = unknownToBoth ?? named.first(where: { !known.contains(CSVText.camelCase($0)) }) {
            // Without --kind, a misspelt `exercise` column made this a drafts file: both are named.
            let expected = isGiven ? "a \(kind == .history ? "history" : "drafts") file has the columns \(known.joined(separator: ","))"
                : "a history file has the columns \(Self.historyColumns.joined(separator: ",")), a drafts file "
                    + Self.draftColumns.joined(separator: ",") + " (names are case-sensitive)"
            throw ImportError(file: file, line: header.line, field: unknown, reason: "unknown column; " + expected
                                + Self.separatorHint(unknown))
        }
        if kind == .history {
            if columns["exercise"] == nil || (columns["day"] == nil && columns["date"] == nil) {
                throw ImportError(file: file, line: header.line, field: columns["exercise"] == nil ? "exercise" : "day",
                                  reason: "missing column; expected the header \(Self.historyColumns.joined(separator: ",")), "
                                    + "or at least day,exercise or date,exercise")
            }
            return
        }
        if let missing = Self.draftColumns.first(where: { columns[$0] == nil }) {
            throw ImportError(file: file, line: header.line, field: missing,
                              reason: "missing column; expected the header \(Self.draftColumns.joined(separator: ","))")
        }
    }

    /// Whether a row holds nothing: a blank line, or a spreadsheet's row of empty cells (`,,,`).
    /// No record is all empty (a day has its day, a draft its id), so none is skipped.
    private static func isBlank(_ row: [String]) -> Bool { row.allSatisfy(\.isEmpty) }

    /// Whether a row is Excel's `sep=,` line: two fields, `sep=` and an empty one, or one
    /// `sep=,` where a script quoted it.
    private static func isCommaSepLine(_ row: [String]) -> Bool {
        row == ["sep=", ""] || row == ["sep=,"]
    }

    /// The separator a first line `sep=X` names when it is not a comma, else nil.
    private static func otherSeparator(_ row: [String]) -> Substring? {
        guard row.count == 1, row[0].utf8.starts(with: "sep=".utf8), row[0].utf8.count > 4 else { return nil }
        return row[0].dropFirst(4)
    }

    /// A hint for a header field that holds the whole header: the file is separated by semicolons
    /// (a spreadsheet in a language whose decimal mark is a comma) or tabs (its "Unicode text").
    private static func separatorHint(_ field: String) -> String {
        for (separator, name) in [(";", "semicolons"), ("\t", "tabs")] where field.contains(separator) {
            let names = field.split(separator: separator, omittingEmptySubsequences: false).map { CSVText.camelCase(String($0)) }
            if names.contains(where: { historyColumns.contains($0) || draftColumns.contains($0) }) {
                return "; the header reads as one column: its fields are separated by \(name), and Logbook's CSV by commas"
            }
        }
        return ""
    }

    private mutating func readRow() throws -> (row: [String], line: Int)? {
        // The header names each column once, of the two kinds' few: one past them all is refused.
        let isHeader = headerWidth == 0
        let limit = isHeader ? (Self.headerFieldLimit, "the header has more than \(Self.headerFieldLimit) columns")
            : (headerWidth, "row has more fields than the header's \(headerWidth)")
        do {
            guard var row = try reader.nextRow(atMost: limit) else { return nil }
            // A blank line (spreadsheets end files with one, and write `,,,` for an empty row) is no row.
            while !isHeader && Self.isBlank(row) {
                guard let next = try reader.nextRow(atMost: limit) else { return nil }
                row = next
            }
            if !isHeader && row.count != headerWidth {
                throw ImportError(file: file, record: count + 1, line: reader.rowLine,
                                  reason: "row has \(row.count) field\(row.count == 1 ? "" : "s"); the header has \(headerWidth)")
            }
            if let unnamed = unnamedColumns.first(where: { !row[$0].isEmpty }) {
                throw ImportError(file: file, record: count + 1, line: reader.rowLine,
                                  reason: "column \(unnamed + 1), which the header leaves unnamed, holds \"\(row[unnamed].prefix(40))\"; "
                                    + "name the column or empty it")
            }
            return (row, reader.rowLine)
        } catch let error as CSVReader.SyntaxError {
            let field = error.fieldIndex.flatMap { index in columns.first { $0.value == index }?.key }
            // The header is no record.
            throw ImportError(file: file, record: isHeader ? nil : count + 1, line: error.line, column: error.column,
                              field: field, reason: error.message)
        }
    }

    private func field(_ row: [String], _ name: String) -> String { columns[name].map { row[$0] } ?? "" }

    private func uuid(_ row: [String], _ name: String) throws -> UUID {
        guard let uuid = UUID(text: field(row, name)) else {
            throw FieldError(field: name, reason: "expected a UUID, found \"\(field(row, name).prefix(60))\"")
        }
        return uuid
    }

    private func date(_ row: [String], _ name: String, optional: Bool = false) throws -> Date? {
        let text = field(row, name)
        if text.isEmpty && optional { return nil }
        return try FieldError.iso8601Date(text, field: name, example: "2026-01-31T08:30:00.000000Z")
    }

    /// The columns of a draft's row that hold one checklist item: all empty in the one row of a
    /// draft without items. A row with any of them filled holds an item, so an empty position
    /// beside a title is refused, not read as "no items" (helper-41: the item was dropped).
    private static let itemColumns = ["itemPosition", "itemId", "itemTitle", "itemIsDone"]

    /// The draft fields that every row of one draft repeats.
    private static let repeatedDraftColumns = ["version", "whatsNew", "submittedAt", "createdAt", "updatedAt"]

    private func draft(_ rows: [(row: [String], line: Int)]) throws -> DraftInput {
        let first = rows[0].row
        try checkRepeatedFields(Self.repeatedDraftColumns, of: rows, record: "draft")
        var checklist: [ChecklistItem] = []
        // Item ids are not keys (copies of a Swift value share them): one draft may hold an id twice.
        for (index, (row, line)) in rows.enumerated() where !(rows.count == 1 && Self.itemColumns.allSatisfy { field(row, $0).isEmpty }) {
            // A row without an item among a draft's several (the same row twice: helper-94) is named so,
            // not as a position that should be 1.
            if Self.itemColumns.allSatisfy({ field(row, $0).isEmpty }) {
                throw FieldError(field: "itemPosition", reason: "this row holds no checklist item, but draft \(field(first, "id").prefix(40)) "
                                    + "has \(rows.count) rows (lines \(rows[0].line) to \(rows[rows.count - 1].line)): a draft without items "
                                    + "has one row, and each row of a draft with items holds one of them", line: line)
            }
            guard field(row, "itemPosition") == String(index + 1) else {
                throw FieldError(field: "itemPosition", reason: "expected \(index + 1), found \"\(field(row, "itemPosition").prefix(20))\"",
                                 line: line)
            }
            // In any case: spreadsheets write TRUE and FALSE (Excel, Google Sheets), which refused every re-saved export.
            guard let isDone = ["true": true, "false": false][field(row, "itemIsDone").asciiLowercased] else {
                throw FieldError(field: "itemIsDone", reason: "expected true or false, found \"\(field(row, "itemIsDone").prefix(20))\"",
                                 line: line)
            }
            let id: UUID
            do { id = try uuid(row, "itemId") } catch let error as FieldError { throw FieldError(field: error.field, reason: error.reason, line: line) }
            checklist.append(ChecklistItem(id: id, title: field(row, "itemTitle"), isDone: isDone))
        }
        return DraftInput(id: try uuid(first, "id"), version: field(first, "version"), whatsNew: field(first, "whatsNew"),
                          checklist: checklist, submittedAt: try date(first, "submittedAt", optional: true),
                          createdAt: try date(first, "createdAt"), updatedAt: try date(first, "updatedAt"))
    }

    /// The day fields that every row of one day record repeats.
    private static let repeatedDayColumns = ["day", "date"]

    /// Every row of one record repeats the record's fields `names`, byte for byte; rows that
    /// disagree are refused rather than silently read from the first.
    private func checkRepeatedFields(_ names: [String], of rows: [(row: [String], line: Int)], record kind: String) throws {
        let first = rows[0].row
        for (row, line) in rows.dropFirst() {
            for name in names where !field(row, name).utf8.elementsEqual(field(first, name).utf8) {
                throw FieldError(field: name, reason: "rows on lines \(rows[0].line) and \(line) of \(kind) \(field(first, "id")) "
                                    + "disagree: \"\(field(first, name).prefix(40))\" and \"\(field(row, name).prefix(40))\"")
            }
        }
    }

    private mutating func day(_ rows: [(row: [String], line: Int)]) throws -> DayInput {
        let first = rows[0].row
        try checkRepeatedFields(Self.repeatedDayColumns, of: rows, record: "day")
        var day: CalendarDay?
        // A blank day cell beside a date column: the record's day is its date's, as in a file
        // without the day column (helper-19: it was refused as a malformed day).
        if columns["day"] != nil && (columns["date"] == nil || !field(first, "day").isEmpty) {
            guard let parsed = CalendarDay(field(first, "day")) else {
                throw FieldError(field: "day", reason: "expected a day YYYY-MM-DD, found \"\(field(first, "day").prefix(20))\"")
            }
            day = parsed
        }
        let date = columns["date"] == nil ? nil : try self.date(first, "date", optional: day != nil)
        let id = field(first, "id").isEmpty ? nil : try uuid(first, "id")
        defer { previous = (id, day, rows[0].line) }
        try checkIDlessPosition(of: rows[0], id: id, day: day, date: date)
        var exercises: [String] = []
        // In Logbook's own layout a day without exercises is one row with an empty position and name.
        let isEmptyDay = rows.count == 1 && columns["position"] != nil && field(first, "position").isEmpty
            && field(first, "exercise").isEmpty
        for (index, (row, line)) in rows.enumerated() where !isEmptyDay {
            // Without ids each row is a record of its own: its position is only the file's order.
            guard columns["position"] == nil || id == nil || field(row, "position") == String(index + 1) else {
                // A record starting after the previous one of the same day: the rows of one day carry different ids.
                if index == 0, let earlier = previous, let day, earlier.day == day, let earlierID = earlier.id, let id {
                    throw FieldError(field: "id", reason: "rows of \(day) carry different ids: \(earlierID.uuidString) from line "
                                        + "\(earlier.line) and \(id.uuidString) from line \(line); one day is one record with one id")
                }
                throw FieldError(field: "position", reason: "expected \(index + 1), found \"\(field(row, "position").prefix(20))\"", line: line)
            }
            let name = field(row, "exercise")
            // A blank cell, named here as the column it is in (the library refuses the name too).
            guard !name.isEmpty else { throw FieldError(field: "exercise", reason: "an exercise name cannot be empty", line: line) }
            exercises.append(name)
        }
        return DayInput(id: id, date: date, day: day, exercises: exercises)
    }

    /// The id, day and first line of the last day record read, to name a day split over two ids.
    private var previous: (id: UUID?, day: CalendarDay?, line: Int)?
    /// The day (or, without days, the date) of the rows without an id just read, one after another,
    /// and the position the next one may give: exactly that when a position was given before
    /// (counting the rows after it that gave none), else that or more; nil when none can follow
    /// (one more than the last would pass the largest integer).
    private var idlessRun: (day: CalendarDay?, date: Date?, next: (position: Int, isExact: Bool)?)?

    /// A row without an id is the next exercise of its day in the order of the file
    /// (``IDlessDayGrouping``): a `position` it gives must be a whole number from 1, and follow the
    /// rows of its day just before it, since a position that said otherwise would be dropped in
    /// silence. (A day's rows apart in the file continue it in file order; their positions are not
    /// compared with the earlier ones, which would take memory for every day of the file.)
    private mutating func checkIDlessPosition(of row: (row: [String], line: Int), id: UUID?, day: CalendarDay?, date: Date?) throws {
        guard id == nil else {
            idlessRun = nil
            return
        }
        let run = idlessRun.flatMap { run in (day != nil ? run.day == day : run.date == date) ? run : nil }
        let given = field(row.row, "position")
        guard !given.isEmpty else {
            // The row takes the next place: the one after it is one further on.
            let next = run.map { run in run.next.flatMap { $0.position == .max ? nil : ($0.position + 1, $0.isExact) } } ?? (2, false)
            idlessRun = (day, date, next)
            return
        }
        guard let position = Int(given), position >= 1,
              run.map({ run in run.next.map { $0.isExact ? position == $0.position : position >= $0.position } ?? false }) ?? true else {
            let expected = run.map { run in run.next.map { "\($0.position)\($0.isExact ? "" : " or more") or nothing" }
                ?? "nothing (no position follows the one before)" } ?? "a whole number from 1 or nothing"
            throw FieldError(field: "position", reason: "expected \(expected), found \"\(given.prefix(20))\": rows without an id are their "
                                + "day's exercises in the order of the file", line: row.line)
        }
        idlessRun = (day, date, position == .max ? nil : (position + 1, true))
    }
}

/// Hand-made history gives a day or a date per row and no id: consecutive id-less records of
/// one day (or, without days, of one date) are one record, their exercises in file order, dated
/// by the earliest, still without an id but with its content's (the import derives its id from
/// it, counting identical records before it: ``IDlessOccurrences``). Records with ids pass
/// through unchanged.
struct IDlessDayGrouping: RecordSource {
    var source: any RecordSource
    private var pending: ImportedRecord?
    /// Why the source failed after the last group returned: what the next call throws.
    private var failureAfterGroup: (any Error)?
    /// Whether the source said it has no more records: it is not asked again.
    private var isExhausted = false

    init(_ source: any RecordSource) {
        self.source = source
    }

    var kind: RecordKind? { source.kind }

    mutating func next() throws -> ImportedRecord? {
        if let failure = failureAfterGroup { throw failure }
        guard let first = try pending ?? nextFromSource() else { return nil }
        pending = nil
        guard case .day(var group) = first.content, group.id == nil else { return first }
        // Only records that would be saved on their own are joined: the import checks a group as
        // one record, at its first record's place, so a problem of any other (an empty name, no
        // exercise at all) is left to a group of its own, named at its own place.
        let joinsOthers = Self.isSavable(group)
        do {
            while joinsOthers, let record = try nextFromSource() {
                guard case .day(let next) = record.content, next.id == nil,
                      group.day != nil ? next.day == group.day : next.date == group.date, Self.isSavable(next) else {
                    pending = record
                    break
                }
                group.exercises += next.exercises
                if let date = next.date { group.date = Swift.min(group.date ?? date, date) }
            }
        } catch {
            // A record that cannot be read after the group's first: the group so far comes first,
            // so that a problem of its own, the earlier one in the file, is the one reported.
            failureAfterGroup = error
        }
        group.contentID = ContentID.forDay(group)
        return .day(group, at: first.place)
    }

    /// Whether the library would save `day`'s exercises (``ExerciseDay/validate(exercises:)``).
    private static func isSavable(_ day: DayInput) -> Bool {
        (try? ExerciseDay.validate(exercises: day.exercises)) != nil
    }

    private mutating func nextFromSource() throws -> ImportedRecord? {
        guard !isExhausted else { return nil }
        let record = try source.next()
        isExhausted = record == nil
        return record
    }
}
