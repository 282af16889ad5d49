import SQLiteQuery

/// The records of another Logbook database, read in one of its read transactions: drafts, then
/// days, each in the order stored (only one kind when `kind` says so), as an import reads a file.
struct LogbookRecordSource: RecordSource {
    /// Nil when both kinds come (a whole logbook).
    let kind: RecordKind?
    private var drafts: RecordCursor<ReleaseDraft>?
    private var days: RecordCursor<ExerciseDay>?

    init(connection: Connection, kind: RecordKind?) throws {
        self.kind = kind
        if kind != .history { drafts = try Tables.drafts.cursor(Tables.drafts.page(), in: connection) }
        if kind != .drafts { days = try Tables.exerciseDays.cursor(Tables.exerciseDays.page(), in: connection) }
    }

    mutating func next() throws -> ImportedRecord? {
        if let draft = try drafts?.next() {
            return .draft(DraftInput(id: draft.id, version: draft.version, whatsNew: draft.whatsNew, checklist: draft.checklist,
                                     submittedAt: draft.submittedAt, createdAt: draft.createdAt, updatedAt: draft.updatedAt))
        }
        drafts = nil
        guard let day = try days?.next() else { return nil }
        return .day(DayInput(id: day.id, date: day.date, day: day.day, exercises: day.exercises))
    }
}
