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
                             to output: @escaping (Data) -> Void) throws {
        let query = ordered(query, by: .column(qualifier: "drafts", name: "pk"), descending: false)
        switch format {
        case .plist:
            output(BinaryPropertyList.encode(.array(try drafts.fetch(query).map(\.propertyList))))
        case .json, .ndjson, .csv:
            var writer = RecordStreamWriter.drafts(DataFormat(rawValue: format.rawValue) ?? .json) { output(Data($0.utf8)) }
            writer.begin()
            try drafts.forEach(query) { writer.write($0) }
            writer.end()
        }
    }

    /// Writes the days `query` selects to `output` in `format`. Without a sort, days come oldest
    /// first, except in a `history.plist`, which the app keeps newest first.
    public func exportHistory(_ query: RecordQuery = RecordQuery(), format: ExportFormat,
                              to output: @escaping (Data) -> Void) throws {
        switch format {
        case .plist:
            let query = ordered(query, by: Self.dayColumn, descending: true)
            output(BinaryPropertyList.encode(.array(try history.fetch(query).map(\.propertyList))))
        case .json, .ndjson, .csv:
            let query = ordered(query, by: Self.dayColumn, descending: false)
            var writer = RecordStreamWriter.history(DataFormat(rawValue: format.rawValue) ?? .json) { output(Data($0.utf8)) }
            writer.begin()
            try history.forEach(query) { writer.write($0) }
            writer.end()
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
