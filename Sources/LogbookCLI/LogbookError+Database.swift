import Logbook
import SQLiteQuery

extension LogbookError {
    /// Whether the message names a record of the database (a draft, a day, an exercise, a
    /// checklist item) without naming the database's file, which the CLI then puts in front of it
    /// (`logbook: error: history.sqlite: no exercises recorded on 2026-02-03`), as the library's
    /// messages about the file itself do. An app knows which file it opened; a script that passes
    /// `--db` or `$LOGBOOK_DB` down several layers reads it here.
    var leavesOutTheDatabase: Bool {
        switch self {
        case .draftNotFound, .ambiguousDraft, .emptyVersionOnSubmit, .itemPositionOutOfRange, .itemNotFound, .ambiguousItem,
             .exercisePositionOutOfRange, .exerciseNotFound, .dayNotFound, .dayTaken:
            true
        default:
            false
        }
    }

    /// Whether `error` says the database file was moved, deleted or replaced while a write ran:
    /// the write went to the file opened, which the path no longer names.
    static func isMovedFile(_ error: Error) -> Bool {
        if case .database(_, let underlying) = error as? LogbookError { return underlying.code == ResultCode.movedFile }
        return (error as? SQLiteError)?.code == ResultCode.movedFile
    }
}
