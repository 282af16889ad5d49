import Foundation
import SQLiteQuery

/// Everything that can go wrong in Logbook, as values: every failure of a store's calls is one of
/// these. Its text (`description`, and `localizedDescription` for an app's alert) names the value,
/// the file and, for imports, the record; the CLI prints it once, as a `logbook: error: …` line.
public enum LogbookError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file exists but is not an SQLite database, or is damaged.
    case notADatabase(path: String, reason: String)
    /// There is no database at the path, and the operation does not create one.
    case noDatabase(path: String)
    /// The database could not be opened or its folder created.
    case cannotOpen(path: String, reason: String)
    /// The migrator refused the database (edited migration, newer schema).
    case migration(path: String, MigrationError)
    /// SQLite reported an error on the database at `path`. The statement that failed is kept in
    /// the error's `debugDescription`, out of the message.
    case database(path: String, SQLiteError)
    /// The database at `path` is damaged (SQLite found malformed pages, or a value of the wrong
    /// type where Logbook reads its records).
    case damaged(path: String, reason: String)
    /// A row holds a value Logbook cannot read where it reads a record (text where a date belongs,
    /// `2026-02-30` as a day), stored by another program; `logbook check` names every such row.
    case unreadableValue(path: String, detail: String)
    /// `Logbook.repair(dryRun:)` refused to run: `problems` are values it cannot guess (see
    /// ``unreadableValue(path:detail:)``), to be corrected or deleted with SQL first. Nothing was written.
    case repairRefused(path: String, problems: [String])
    /// The database at `path` cannot be written: the file, its folder or a side file (`-shm`) is
    /// read-only, or a write a stopped program left must be rolled back or recovered first where
    /// it can be written (the description says which, as the file system shows it then).
    case readOnly(path: String)
    /// A table, column or index that a statement needs is gone: one Logbook's migrations created
    /// (another program dropped or altered it), or one another program's trigger or foreign key on
    /// Logbook's tables names; `logbook check` names every such difference and broken object.
    case schemaChanged(path: String, detail: String)
    /// Another record is stored on this calendar day (there is never more than one per day).
    case dayTaken(CalendarDay, by: UUID)
    /// An import file was refused; nothing was written.
    case importRefused(ImportError)
    /// A backup was refused or failed; the target is as it was.
    case backupRefused(BackupError)
    /// A `#Predicate` or sort (or a `--where` filter) cannot be run exactly in SQL.
    case unsupportedQuery(QueryError)
    /// A filter in the text language (`--where`) does not parse or does not fit the record's fields;
    /// `position` is the character range of the problem in `filter`, for a caret.
    case invalidFilter(String, message: String, position: Range<Int>?)
    /// A read-only SQL statement (``Logbook/query(_:parameters:columns:row:)``) was refused before it ran.
    case queryRefused(sql: String, reason: String)
    /// No draft has this id, id prefix or version.
    case draftNotFound(String)
    /// Several drafts match the reference (a shared version or id prefix): use an id.
    case ambiguousDraft(String, ids: [UUID])
    /// The app's rule: a draft without a version cannot be submitted.
    case emptyVersionOnSubmit(id: UUID)
    /// A checklist position outside 1...count.
    case itemPositionOutOfRange(position: Int, count: Int, draft: UUID)
    /// The draft's checklist has no item with this id.
    case itemNotFound(id: UUID, draft: UUID)
    /// Several items of the draft's checklist carry this id (a checklist copied within a draft, or
    /// a file that repeats it), at these 1-based positions: address the item by its position.
    case ambiguousItem(id: UUID, positions: [Int], draft: UUID)
    /// A day's record has no exercise at this 1-based position.
    case exercisePositionOutOfRange(position: Int, count: Int, day: CalendarDay)
    /// No exercise with this name on the day (or, with no day, anywhere in the range asked for).
    case exerciseNotFound(String, day: CalendarDay?)
    /// No exercise record for this day.
    case dayNotFound(CalendarDay)
    /// A value outside what Logbook stores (an empty exercise name, a date outside years 1–9999).
    case invalidValue(field: String, value: String, reason: String)
    /// An output file could not be written (a full disk, a missing folder, a file size limit).
    case cannotWrite(path: String, reason: String)
    /// A change-feed token that this logbook cannot answer: malformed, another logbook's, ahead of
    /// its log, or older than the change log keeps.
    case changeTokenRefused(String, reason: String)

    /// The one-line message the CLI prints after `logbook: error: `, naming the value and the file.
    public var description: String {
        switch self {
        case .notADatabase(let path, let reason): "\(path) is not a Logbook database (\(reason))"
        case .noDatabase(let path): "no database at \(path)"
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .migration(let path, let error): "\(path): \(error)"
        case .database(let path, let error) where error.isBusy:
            "\(path): another connection (another program, or another logbook command) kept the database locked through "
                + "the whole wait; try again once it has finished (SQLite error \(error.code): \(error.message))"
        case .database(let path, let error) where error.code == ResultCode.movedFile:
            "\(path): \(error.message)"
        case .database(let path, let error):
            error.message == error.codeDescription ? "\(path): \(error.message) (SQLite error \(error.code))"
                : "\(path): \(error.message) (SQLite error \(error.code): \(error.codeDescription))"
        case .damaged(let path, let reason): "\(path) is damaged (\(reason)); run 'logbook check', and restore a backup if it fails"
        case .unreadableValue(let path, let detail):
            "\(path) holds a value Logbook cannot read (\(detail)), written by another program; run 'logbook check' to count every such row and see the first three"
        case .repairRefused(let path, let problems):
            "cannot repair \(path) while it holds values Logbook cannot read, which no repair can guess: "
                + problems.joined(separator: "; ") + "; correct or delete those rows with SQL first"
        case .readOnly(let path): "cannot write \(path): \(ReadOnlyCause.describe(path))"
        case .schemaChanged(let path, let detail):
            "\(path): its schema is not the one Logbook's migrations made (\(detail)); run 'logbook check' to see every difference"
        case .dayTaken(let day, let id): "\(day) already has a record (\(id.uuidString)); there is one record per calendar day"
        case .importRefused(let error): error.description
        case .backupRefused(let error): error.description
        case .unsupportedQuery(let error): error.description
        case .invalidFilter(_, let message, _): "invalid filter: \(message)"
        case .queryRefused(let sql, let reason): "query refused (\(reason)): \(sql.prefix(200))"
        case .draftNotFound(let reference): "no draft with id or version '\(reference)'"
        case .ambiguousDraft(let reference, let ids):
            "'\(reference)' matches \(ids.count) drafts; use one of their ids: "
                + ids.map(\.uuidString).joined(separator: ", ")
        case .emptyVersionOnSubmit(let id): "Refusing to submit: no version set (draft \(id.uuidString))"
        case .itemPositionOutOfRange(let position, let count, let draft):
            count == 0
                ? "item \(position) does not exist: draft \(draft.uuidString) has no checklist items"
                : "item \(position) does not exist: draft \(draft.uuidString) has items 1 to \(count)"
        case .itemNotFound(let id, let draft): "draft \(draft.uuidString) has no checklist item \(id.uuidString)"
        case .ambiguousItem(let id, let positions, let draft):
            "checklist item \(id.uuidString) of draft \(draft.uuidString) is at positions "
                + "\(positions.map(String.init).joined(separator: ", ")); name it by its position"
        case .exercisePositionOutOfRange(let position, let count, let day):
            "no exercise at position \(position) on \(day): it has \(count) (positions start at 1)"
        case .exerciseNotFound(let name, let day):
            "no exercise named '\(name)'" + (day.map { " on \($0)" } ?? " in the days asked for")
        case .dayNotFound(let day): "no exercises recorded on \(day)"
        case .invalidValue(let field, let value, let reason): "invalid \(field) '\(value)': \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .changeTokenRefused(let token, let reason): "change token '\(token.prefix(80))' refused: \(reason)"
        }
    }

    /// The same text as ``LogbookError/description``, so an app's `localizedDescription` is the CLI's.
    public var errorDescription: String? { description }

    /// A failure as the store reports it: the library's own errors (SQLite's, the migrator's, an
    /// import's, a backup's, a query's) become the ``LogbookError`` case that names `path` (an empty
    /// one, SQLite's temporary database, by that name); any other error (a caller's own, thrown
    /// from one of its callbacks) passes through unchanged.
    static func reported(_ error: Error, path given: String) -> Error {
        let path = given.isEmpty ? "SQLite's temporary database" : given
        return switch error {
        case let error as LogbookError: error
        case let error as MigrationError: LogbookError.migration(path: path, error)
        case let error as ImportError: LogbookError.importRefused(error)
        case let error as BackupError: LogbookError.backupRefused(error)
        case let error as QueryError: LogbookError.unsupportedQuery(error)
        case let error as ColumnConversionError: LogbookError.unreadableValue(path: path, detail: error.description)
        case let error as SQLiteError where error.isNotADatabaseOrCorrupt: LogbookError.damaged(path: path, reason: error.message)
        case let error as SQLiteError where error.isReadOnly: LogbookError.readOnly(path: path)
        // SQLite's "disk I/O error: Is a directory" of a -journal that is a folder (helper-67).
        case let error as SQLiteError where error.isIOError && ReadOnlyCause.sideFileThatIsNoFile(path) != nil:
            LogbookError.cannotOpen(path: path, reason: ReadOnlyCause.describe(path))
        case let error as SQLiteError where error.isMissingSchemaObject:
            LogbookError.schemaChanged(path: path, detail: error.message)
        case let error as SQLiteError where error.isFull:
            LogbookError.database(path: path, FullDiskCause.temporaryFolderNote(given).map {
                SQLiteError(code: error.code, message: error.message + "; " + $0, sql: error.sql)
            } ?? error)
        case let error as SQLiteError: LogbookError.database(path: path, error)
        default: error
        }
    }
}
