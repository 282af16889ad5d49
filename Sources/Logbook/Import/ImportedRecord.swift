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
    /// For a record without an id, its content's (``ContentID/forDay(_:occurrence:)``), worked out
    /// by ``IDlessDayGrouping`` on the thread that reads the file ahead, where hashing it costs
    /// the import's writes nothing.
    var contentID: UUID?
}

/// One record read from an import file, with where it starts there.
struct ImportedRecord {
    /// What the record holds.
    enum Content {
        case draft(DraftInput)
        case day(DayInput)
    }

    var content: Content
    /// What an error about the record names, whichever step of the import finds the problem.
    var place: RecordPlace

    static func draft(_ draft: DraftInput, at place: RecordPlace) -> ImportedRecord { ImportedRecord(content: .draft(draft), place: place) }
    static func day(_ day: DayInput, at place: RecordPlace) -> ImportedRecord { ImportedRecord(content: .day(day), place: place) }
}

/// Where a record starts in its file: its 1-based number as the file's reader counts records (a
/// group of id-less records of one day, which the import joins, has its first record's), and its
/// line in NDJSON and CSV, where the reader's own errors name lines too.
struct RecordPlace: Equatable {
    var number: Int
    var line: Int?
}

/// What an import file holds.
public enum RecordKind: String, Sendable, CaseIterable {
    /// `drafts`: release drafts (``ReleaseDraft``); `history`: exercise days (``ExerciseDay``).
    case drafts, history
}
