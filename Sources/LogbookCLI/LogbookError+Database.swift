import Logbook

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
}
