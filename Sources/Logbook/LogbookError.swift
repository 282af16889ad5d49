import Foundation
import SQLiteQuery

/// Everything that can go wrong in Logbook, as values. The CLI renders each one once, as a
/// `logbook: error: …` line.
public enum LogbookError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file exists but is not an SQLite database, or is damaged.
    case notADatabase(path: String, reason: String)
    /// There is no database at the path, and the operation does not create one.
    case noDatabase(path: String)
    /// The database could not be opened or its folder created.
    case cannotOpen(path: String, reason: String)
    /// The migrator refused the database (edited migration, newer schema).
    case migration(path: String, MigrationError)
    /// SQLite reported an error.
    case database(SQLiteError)
    /// No draft has this id, id prefix or version.
    case draftNotFound(String)
    /// Several drafts match the reference (a shared version or id prefix): use an id.
    case ambiguousDraft(String, ids: [UUID])
    /// The app's rule: a draft without a version cannot be submitted.
    case emptyVersionOnSubmit(id: UUID)
    /// A checklist position outside 1...count.
    case itemPositionOutOfRange(position: Int, count: Int, draft: UUID)
    /// No exercise record for this day.
    case dayNotFound(CalendarDay)
    /// A value outside what Logbook stores (an empty exercise name, a date outside years 1–9999).
    case invalidValue(field: String, value: String, reason: String)
    /// An output file could not be written (a full disk, a missing folder, a file size limit).
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .notADatabase(let path, let reason): "\(path) is not a Logbook database (\(reason))"
        case .noDatabase(let path): "no database at \(path)"
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .migration(let path, let error): "\(path): \(error)"
        case .database(let error): error.description
        case .draftNotFound(let reference): "no draft with id or version '\(reference)'"
        case .ambiguousDraft(let reference, let ids):
            "'\(reference)' matches \(ids.count) drafts; use one of their ids: "
                + ids.map(\.uuidString).joined(separator: ", ")
        case .emptyVersionOnSubmit(let id): "Refusing to submit: no version set (draft \(id.uuidString))"
        case .itemPositionOutOfRange(let position, let count, let draft):
            count == 0
                ? "item \(position) does not exist: draft \(draft.uuidString) has no checklist items"
                : "item \(position) does not exist: draft \(draft.uuidString) has items 1 to \(count)"
        case .dayNotFound(let day): "no exercises recorded on \(day)"
        case .invalidValue(let field, let value, let reason): "invalid \(field) '\(value)': \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
