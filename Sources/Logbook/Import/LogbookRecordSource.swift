import Foundation
import SQLiteQuery

/// The records of another Logbook database, read in one of its read transactions: drafts, then
/// days, each in the order stored (only one kind when `kind` says so), as an import reads a file.
struct LogbookRecordSource: RecordSource {
    /// Nil when both kinds come (a whole logbook).
    let kind: RecordKind?
    private var drafts: RecordCursor<ReleaseDraft>?
    private var days: RecordCursor<ExerciseDay>?
    /// The ids merged into a day record there (its aliases), by the record's id; nil when it holds none.
    private let aliasesStatement: Statement?
    /// The other logbook's path. Every error its reads throw names it (``ImportError/init(readingLogbook:_:)``),
    /// never the logbook merged into.
    let file: String
    /// The records read so far, drafts and days: the next one's number is one more.
    private var count = 0

    init(connection: Connection, kind: RecordKind?, file: String) throws {
        self.kind = kind
        self.file = file
        do {
            if kind != .history { drafts = try Tables.drafts.cursor(Tables.drafts.page(), in: connection) }
            if kind != .drafts { days = try Tables.exerciseDays.cursor(Tables.exerciseDays.page(), in: connection) }
            let holdsAliases = try Tables.holdsAliases(in: connection)
            aliasesStatement = holdsAliases && kind != .drafts ? try connection.prepare("""
                SELECT a.id FROM exercise_day_aliases AS a JOIN exercise_days AS d ON d.pk = a.day_pk WHERE d.id = ? ORDER BY a.id
                """) : nil
        } catch {
            throw ImportError(readingLogbook: file, error)
        }
    }

    mutating func next() throws -> ImportedRecord? {
        do {
            if let draft = try drafts?.next() {
                count += 1
                return .draft(DraftInput(id: draft.id, version: draft.version, whatsNew: draft.whatsNew, checklist: draft.checklist,
                                         submittedAt: draft.submittedAt, createdAt: draft.createdAt, updatedAt: draft.updatedAt),
                              at: RecordPlace(number: count, line: nil))
            }
            drafts = nil
            guard let day = try days?.next() else { return nil }
            count += 1
            return .day(DayInput(id: day.id, date: day.date, day: day.day, exercises: day.exercises, aliases: try aliases(of: day.id)),
                        at: RecordPlace(number: count, line: nil))
        } catch {
            throw ImportError(readingLogbook: file, error)
        }
    }

    /// Every id merged into a day record there, with that record's day.
    static func aliases(in connection: Connection, file: String) throws -> [(id: UUID, day: CalendarDay)] {
        do {
            let aliases = try connection.prepare("SELECT a.id, d.day FROM exercise_day_aliases AS a JOIN exercise_days AS d ON d.pk = a.day_pk")
            var found: [(id: UUID, day: CalendarDay)] = []
            while try aliases.step() { found.append((try aliases.column(0), try aliases.column(1))) }
            return found
        } catch {
            throw ImportError(readingLogbook: file, error)
        }
    }

    private func aliases(of id: UUID) throws -> [UUID] {
        guard let aliases = aliasesStatement else { return [] }
        defer { aliases.reset() }
        try aliases.bind(id, at: 1)
        var ids: [UUID] = []
        while try aliases.step() { ids.append(try aliases.column(0)) }
        return ids
    }
}
