import Foundation

/// A draft as a file gives it: apps' files have no id and no timestamps.
struct DraftInput: Equatable {
    var id: UUID?
    var version: String
    var whatsNew: String
    var checklist: [ChecklistItem]
    var submittedAt: Date?
    var createdAt: Date?
    var updatedAt: Date?
}

/// A day of history as a file gives it: apps' files have no calendar day; hand-made files may
/// have no id (one is derived from the content) and no date (the day's start is used).
struct DayInput: Equatable {
    var id: UUID?
    var date: Date?
    var day: CalendarDay?
    var exercises: [String]
    /// The ids of entries merged into this record where it comes from (another logbook's aliases).
    var aliases: [UUID] = []
}

/// One record read from an import file, with where it was.
enum ImportedRecord {
    case draft(DraftInput)
    case day(DayInput)
}

/// What an import file holds.
public enum RecordKind: String, Sendable, CaseIterable {
    /// `drafts`: release drafts (``ReleaseDraft``); `history`: exercise days (``ExerciseDay``).
    case drafts, history
}
