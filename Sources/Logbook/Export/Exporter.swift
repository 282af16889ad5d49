import Foundation
import SQLiteQuery

/// The formats `export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// This spec's JSON, NDJSON and CSV.
    case json, ndjson, csv
    /// The apps' own files: `[ReleaseDraft]` as `PropertyListEncoder` writes it, or a `history.plist`.
    case plist
}

extension Logbook {
    /// Writes the drafts `query` selects to `output` in `format`, streaming (except `plist`, whose
    /// binary layout needs every object first). Without a sort, drafts come in the order they were
    /// stored, so export, import into an empty database and export again gives the same bytes.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                             to output: @escaping (Data) throws -> Void) throws {
        let query = ordered(query, by: .column(qualifier: "drafts", name: "pk"), descending: false)
        switch format {
        case .plist:
            try output(BinaryPropertyList.encode(.array(try drafts.fetch(query).map(\.propertyList))))
        case .json, .ndjson, .csv:
            let buffer = OutputBuffer(output)
            var writer = RecordStreamWriter.drafts(DataFormat(rawValue: format.rawValue) ?? .json, output: buffer.append)
            try writer.begin()
            try drafts.forEach(query) { try writer.write($0) }
            try writer.end()
            try buffer.flush()
        }
    }

    /// Writes the days `query` selects to `output` in `format`. Without a sort, days come oldest
    /// first, except in a `history.plist`, which the app keeps newest first.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                              to output: @escaping (Data) throws -> Void) throws {
        switch format {
        case .plist:
            let query = ordered(query, by: Self.dayColumn, descending: true)
            try output(BinaryPropertyList.encode(.array(try history.fetch(query).map(\.propertyList))))
        case .json, .ndjson, .csv:
            let query = ordered(query, by: Self.dayColumn, descending: false)
            let buffer = OutputBuffer(output)
            var writer = RecordStreamWriter.history(DataFormat(rawValue: format.rawValue) ?? .json, output: buffer.append)
            try writer.begin()
            try history.forEach(query) { try writer.write($0) }
            try writer.end()
            try buffer.flush()
        }
    }

    /// The drafts `query` selects, in `format`, as the bytes the streaming `exportDrafts(_:format:to:)` writes.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat) throws -> Data {
        var data = Data()
        try exportDrafts(query, format: format) { data.append($0) }
        return data
    }

    /// The days `query` selects, in `format`, as the bytes the streaming `exportHistory(_:format:to:)` writes.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat) throws -> Data {
        var data = Data()
        try exportHistory(query, format: format) { data.append($0) }
        return data
    }

    /// Writes the drafts `query` selects to the file at `url`, replacing it whole: the bytes go to a
    /// temporary file beside it, renamed over it once complete, so a failure leaves it as it was.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat, to url: URL) throws {
        try Self.replacing(url) { try exportDrafts(query, format: format, to: $0) }
    }

    /// Writes the days `query` selects to the file at `url`, replacing it whole, as
    /// the `URL` form of `exportDrafts` does.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat, to url: URL) throws {
        try Self.replacing(url) { try exportHistory(query, format: format, to: $0) }
    }

    /// Writes the drafts `query` selects to `handle` at its current position, streaming; a failed
    /// write throws. The handle stays open.
    public func exportDrafts(_ query: RecordQuery = RecordQuery(), format: ExportFormat, to handle: FileHandle) throws {
        try exportDrafts(query, format: format) { try handle.write(contentsOf: $0) }
    }

    /// Writes the days `query` selects to `handle` at its current position, streaming; a failed
    /// write throws. The handle stays open.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat, to handle: FileHandle) throws {
        try exportHistory(query, format: format) { try handle.write(contentsOf: $0) }
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

    /// One draft as a `release-draft.plist`, exactly as the app writes it.
    public func releaseDraftPropertyList(_ draft: ReleaseDraft) -> Data {
        BinaryPropertyList.encode(draft.propertyList)
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
