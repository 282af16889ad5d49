import Foundation
import SQLiteQuery

/// The formats `export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// This spec's JSON, NDJSON and CSV.
    case json, ndjson, csv
    /// The apps' own files: `[ReleaseDraft]` as `PropertyListEncoder` writes it, or a `history.plist`.
    case plist
    /// A SQL script that loads the records into PostgreSQL with `psql` alone (``PostgresScript``).
    case postgres
}

/// How an export spells what the format leaves open.
public struct ExportOptions: Sendable {
    /// The header of a drafts CSV: camelCase (the default) or snake_case.
    public var csvHeader: CSVHeaderStyle
    /// The `source` column of a PostgreSQL script: the logbook's name there. Nil (the default)
    /// for `logbookID()`, the same for every copy of the file.
    public var source: String?

    /// Options with the values given.
    public init(csvHeader: CSVHeaderStyle = .camelCase, source: String? = nil) {
        self.csvHeader = csvHeader
        self.source = source
    }
}

extension Logbook {
    /// Writes the drafts `query` selects to `output` in `format`, streaming (except `plist`, whose
    /// binary layout needs every object before the first byte: it holds them compactly, about
    /// three times the file's size, and writes the file in pieces). Without a sort, drafts come
    /// in the order they were stored, so export, import into an empty database and export again
    /// gives the same bytes.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                             options: ExportOptions = ExportOptions(), to output: @escaping (Data) throws -> Void) throws {
        let query = ordered(query, by: .column(qualifier: "drafts", name: "pk"), descending: false)
        switch format {
        case .plist:
            var file = BinaryPropertyList.rootArray()
            try drafts.forEach(query) { file.append(try exportable($0).propertyList) }
            try write(file, otherwise: Self.smallerExport, to: output)
        case .postgres:
            try exportPostgres(.drafts, query, options: options, to: output) { script in try drafts.forEach(query) { try script.write(try exportable($0)) } }
        case .json, .ndjson, .csv:
            let buffer = OutputBuffer(output)
            var writer = RecordStreamWriter.drafts(DataFormat(rawValue: format.rawValue) ?? .json, headerStyle: options.csvHeader,
                                                   output: buffer.append)
            try writer.begin()
            try drafts.forEach(query) { try writer.write(try exportable($0)) }
            try writer.end()
            try buffer.flush()
        }
    }

    /// Writes the days `query` selects to `output` in `format`. Without a sort, days come oldest
    /// first, except in a `history.plist`, which the app keeps newest first.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                              options: ExportOptions = ExportOptions(), to output: @escaping (Data) throws -> Void) throws {
        switch format {
        case .plist:
            let query = ordered(query, by: Self.dayColumn, descending: true)
            var file = BinaryPropertyList.rootArray()
            try history.forEach(query) { file.append(try exportable($0).propertyList) }
            try write(file, otherwise: Self.smallerExport, to: output)
        case .postgres:
            let query = ordered(query, by: Self.dayColumn, descending: false)
            try exportPostgres(.history, query, options: options, to: output) { script in
                try history.forEach(query) { try script.write(try exportable($0)) }
            }
        case .json, .ndjson, .csv:
            let query = ordered(query, by: Self.dayColumn, descending: false)
            let buffer = OutputBuffer(output)
            var writer = RecordStreamWriter.history(DataFormat(rawValue: format.rawValue) ?? .json, output: buffer.append)
            try writer.begin()
            try history.forEach(query) { try writer.write(try exportable($0)) }
            try writer.end()
            try buffer.flush()
        }
    }

    /// The drafts `query` selects, in `format`, as the bytes the streaming `exportDrafts(_:format:to:)` writes.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                             options: ExportOptions = ExportOptions()) throws -> Data {
        var data = Data()
        try exportDrafts(query, format: format, options: options) { data.append($0) }
        return data
    }

    /// The days `query` selects, in `format`, as the bytes the streaming `exportHistory(_:format:to:)` writes.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                              options: ExportOptions = ExportOptions()) throws -> Data {
        var data = Data()
        try exportHistory(query, format: format, options: options) { data.append($0) }
        return data
    }

    /// Writes the drafts `query` selects to the file at `url`, replacing it whole: the bytes go to a
    /// temporary file beside it, renamed over it once complete, so a failure leaves it as it was.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat, options: ExportOptions = ExportOptions(),
                             to url: URL) throws {
        try Self.replacing(url) { try exportDrafts(query, format: format, options: options, to: $0) }
    }

    /// Writes the days `query` selects to the file at `url`, replacing it whole, as
    /// the `URL` form of `exportDrafts` does.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat, options: ExportOptions = ExportOptions(),
                              to url: URL) throws {
        try Self.replacing(url) { try exportHistory(query, format: format, options: options, to: $0) }
    }

    /// Writes the drafts `query` selects to `handle` at its current position, streaming; a failed
    /// write throws. The handle stays open.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat, options: ExportOptions = ExportOptions(),
                             to handle: FileHandle) throws {
        try exportDrafts(query, format: format, options: options) { try handle.write(contentsOf: $0) }
    }

    /// Writes the days `query` selects to `handle` at its current position, streaming; a failed
    /// write throws. The handle stays open.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat, options: ExportOptions = ExportOptions(),
                              to handle: FileHandle) throws {
        try exportHistory(query, format: format, options: options) { try handle.write(contentsOf: $0) }
    }

    /// `day`, unless it is a record the library would not save, and so no import would take back:
    /// one with no exercise (another program deleted its rows), an empty name, a name over
    /// ``RecordLimits/textBytes``. An export holding it could not come back; it is refused as a
    /// value Logbook cannot read, which `check` names.
    private func exportable(_ day: ExerciseDay) throws -> ExerciseDay {
        guard !day.exercises.isEmpty else {
            throw LogbookError.unreadableValue(path: path, detail: "the record of \(day.day) (id \(day.id.uuidString)) holds no exercise")
        }
        do {
            try ExerciseDay.validate(exercises: day.exercises)
        } catch LogbookError.invalidValue(let field, _, let reason) {
            throw LogbookError.unreadableValue(path: path, detail: "the record of \(day.day) (id \(day.id.uuidString)): \(field): \(reason)")
        }
        return day
    }

    /// The way out a property-list export too large to import offers.
    private static let smallerExport = "export fewer records, or as NDJSON"

    /// Writes `file` to `output`, refused before a byte is written when it is larger than an
    /// import reads (a property list is read whole), so that no export is a file Logbook cannot
    /// import again. `otherwise` is the way out the error offers.
    private func write(_ file: BinaryPropertyList, otherwise: String, to output: (Data) throws -> Void) throws {
        let (size, limit) = (file.size, PropertyListRecordSource.maximumBytes)
        guard size <= limit else {
            throw LogbookError.cannotWrite(path: "the property list", reason: "it would be \(size) bytes, and an import reads at most "
                                               + "\(limit >> 20) MiB of one (\(limit) bytes); \(otherwise)")
        }
        try file.write(to: output)
    }

    /// `draft`, unless it holds a value the library would not save, and so no import would take
    /// back (a text over ``RecordLimits/textBytes``): refused as a day is.
    private func exportable(_ draft: ReleaseDraft) throws -> ReleaseDraft {
        do {
            try draft.validate()
        } catch LogbookError.invalidValue(let field, _, let reason) {
            throw LogbookError.unreadableValue(path: path, detail: "the draft \(draft.id.uuidString): \(field): \(reason)")
        }
        return draft
    }

    /// A ``PostgresScript`` of the records `write` gives it. An export of every record (no
    /// condition, limit or offset) replaces the source's records of that kind in PostgreSQL: the
    /// ones no longer in the logbook are deleted. A filtered one only adds and updates.
    private func exportPostgres(_ kind: RecordKind, _ query: RecordQuery, options: ExportOptions,
                                to output: @escaping (Data) throws -> Void,
                                records write: (inout PostgresScript) throws -> Void) throws {
        let source = try options.source ?? logbookID()
        let buffer = OutputBuffer(output)
        var script = try PostgresScript(source: source, output: buffer.append)
        // The log's token before the records are read: an export older than the feed PostgreSQL
        // holds is refused, as an older feed is (it took records back for good; helper-101).
        let read = try changeTokenNow()
        try script.begin(title: "Logbook \(kind.rawValue) of \(source), exported \(Date().textForMessages)")
        do {
            try write(&script)
            let isEverything = query.condition == nil && query.limit == nil && query.offset == nil
            try script.end(replacing: isEverything ? [kind] : [], read: read)
        } catch {
            // Written out, so that `… | psql` fails too, rather than reading nothing and exiting 0.
            script.abandon()
            try? buffer.flush()
            throw error
        }
        try buffer.flush()
    }

    /// Runs `write` with an output into a ``FileReplacement`` of `url`, committed when it returns.
    private static func replacing(_ url: URL, _ write: (@escaping (Data) throws -> Void) throws -> Void) throws {
        let replacement = try FileReplacement(replacing: url.path)
        do {
            try write(replacement.write)
            try replacement.commit()
        } catch {
            replacement.discard()
            throw error
        }
    }

    /// One draft as a `release-draft.plist`, exactly as the app writes it. Refused as an export is,
    /// so that no file it gives is one Logbook cannot take back: a draft holding a text longer than
    /// the library saves (``LogbookError/unreadableValue(path:detail:)``), or one whose file would
    /// be larger than an import reads (``LogbookError/cannotWrite(path:reason:)``).
    public func releaseDraftPropertyList(_ draft: ReleaseDraft) throws -> Data {
        var data = Data()
        try write(BinaryPropertyList(root: try exportable(draft).propertyList), otherwise: "give it as JSON instead") { data.append($0) }
        return data
    }

    private static let dayColumn = QueryExpression.column(qualifier: "exercise_days", name: "day")

    /// `query`, ordered by `expression` when it has no order of its own.
    private func ordered(_ query: RecordQuery, by expression: QueryExpression, descending: Bool) -> RecordQuery {
        guard query.ordering.isEmpty else { return query }
        var query = query
        query.ordering = [Ordering(expression: expression, descending: descending)]
        return query
    }
}

/// Gathers text into 64 KiB chunks before handing it on as bytes: one conversion and one write
/// per chunk instead of per record.
private final class OutputBuffer {
    private let output: (Data) throws -> Void
    private var text = ""

    init(_ output: @escaping (Data) throws -> Void) { self.output = output }

    func append(_ piece: String) throws {
        text += piece
        if text.utf8.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        guard !text.isEmpty else { return }
        try output(Data(text.utf8))
        text.removeAll(keepingCapacity: true)
    }
}
