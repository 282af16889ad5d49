import Foundation
import SQLiteQuery

/// Why an import was rejected: the file, the record, where it is, and the field. Nothing was
/// written when this is thrown.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as named to `importRecords(from:file:options:)` (the CLI names stdin `stdin`).
    public let file: String
    /// 1-based record number in the file, when the problem is in one record.
    public var record: Int?
    /// 1-based line and column, for text formats.
    public var line: Int?
    /// The 1-based column, in bytes, when known along with ``ImportError/line``.
    public var column: Int?
    /// The field at fault: `date`, `exercises[0]` (indexes 0-based), `[1] date` in a `history.plist`,
    /// `(record)` for a record of the wrong shape; nil when the problem is not in one record.
    public var field: String?
    /// What is wrong, quoting the value read where there is one.
    public let reason: String

    /// An error in `file`; everything but `reason` is optional.
    public init(file: String, record: Int? = nil, line: Int? = nil, column: Int? = nil, field: String? = nil,
                reason: String) {
        self.file = file
        self.record = record
        self.line = line
        self.column = column
        self.field = field
        self.reason = reason
    }

    /// The CLI's error line: `days.json: record 2, line 5, column 3: field 'date': …`, leaving out what is
    /// not known.
    public var description: String {
        var place: [String] = []
        if let record { place.append("record \(record)") }
        if let line { place.append(column.map { "line \(line), column \($0)" } ?? "line \(line)") }
        var text = file
        if !place.isEmpty { text += ": " + place.joined(separator: ", ") }
        // A key of a file's own making can be megabytes long: its start names it well enough.
        if let field { text += ": field '\(field.count > 80 ? field.prefix(60) + "…" : field)'" }
        return text + ": " + reason
    }
}

extension ImportError {
    /// An error in the record at `place`.
    init(file: String, record place: RecordPlace, field: String? = nil, reason: String) {
        self.init(file: file, record: place.number, line: place.line, field: field, reason: reason)
    }

    /// A failure to read another logbook, `file`, while merging it, as that file's error: a
    /// damaged page or a value Logbook cannot read there must never be reported as this logbook's.
    init(readingLogbook file: String, _ error: Error) {
        switch error {
        case let error as ImportError:
            self = error
        case let error as ColumnConversionError:
            self.init(file: file, reason: "it holds a value Logbook cannot read (\(error)); 'logbook --db \(file) check' counts every one and names the first three")
        case let error as SQLiteError where error.isNotADatabaseOrCorrupt:
            self.init(damagedLogbook: file, error.message)
        default:
            self.init(file: file, reason: "reading it failed: \(LogbookError.reported(error, path: file))")
        }
    }

    /// Another logbook, `file`, refused for a merge because it is damaged (`detail`: what SQLite found).
    init(damagedLogbook file: String, _ detail: String) {
        self.init(file: file, reason: "it is damaged (\(detail)); 'logbook --db \(file) check' says where")
    }
}

/// A problem with one field of one record, before the importer adds the file and position.
struct FieldError: Error {
    let field: String
    let reason: String
    /// The line of the row at fault, in a record of several rows (CSV); nil for the record's first.
    var line: Int? = nil
}

extension FieldError {
    /// Refuses the first of `names` (a record's members or keys, in order) that is not one of
    /// `known`, compared byte for byte, rather than letting its value be dropped in silence (a
    /// misspelled or snake_case field such as `submitted_at`). `record` names the kind of record.
    static func refuseUnknown(_ names: some Sequence<String>, known: [String], record: String, prefix: String = "") throws {
        for name in names where !known.contains(where: { $0.utf8.elementsEqual(name.utf8) }) {
            throw FieldError(field: prefix + name, reason: "unknown field; \(record) has \(known.joined(separator: ", "))")
        }
    }

    /// The instant the ISO-8601 text `text` of `field` names (``Date/init(iso8601:)``); else an
    /// error saying whether the instant is out of range or the text no such date (with `example`).
    static func iso8601Date(_ text: String, field: String, example: String) throws -> Date {
        switch Date.reading(iso8601: text) {
        case .date(let date): return date
        case .outsideSupportedRange: throw FieldError(field: field, reason: "date \"\(text.prefix(60))\" is outside \(CalendarDay.supportedYearsText)")
        case .malformed: throw FieldError(field: field, reason: "expected an ISO-8601 date like \(example), found \"\(text.prefix(60))\"")
        }
    }

    /// Returns `date` when Logbook stores it, else throws naming `field` and the text read (`found`).
    static func supported(_ date: Date, field: String, found: String? = nil) throws -> Date {
        guard date.isSupported else {
            throw FieldError(field: field, reason: "date \(found ?? date.textForMessages) is outside \(CalendarDay.supportedYearsText)")
        }
        return date
    }
}
