import Foundation
import SQLiteQuery

/// Each record type, declared once: how it maps to the tables of `Migrations/` (insert, update,
/// upsert, delete, fetch), and through that declaration what predicates, sorts and the CLI's
/// `--where`/`--sort` may use (its columns' fields, its collections, and the derived values
/// declared here beside them).
enum Tables {
    static let drafts = TableDescription<ReleaseDraft>(
        "drafts", identity: .column("id", \.id),
        columns: [
            .column("version", \.version, comparisonKey: "version_key"),
            .column("whats_new", \.whatsNew),
            .column("submitted_at", \.submittedAt),
            .column("created_at", \.createdAt),
            .column("updated_at", \.updatedAt),
        ],
        children: [checklist],
        derived: [
            QueryField("isSubmitted", keyPath: \ReleaseDraft.isSubmitted, kind: .bool, source: .derived { table in
                .not(.isNull(.column(qualifier: table, name: "submitted_at")))
            }),
            QueryField("checklist.count", keyPath: \ReleaseDraft.checklist.count, kind: .integer, source: .derived { table in
                .count(checklist.collectionField.scope(parent: table, rowKey: "pk", alias: "items"), condition: nil)
            }),
            QueryField("checklist.doneCount", keyPath: \ReleaseDraft.checklist.doneCount, kind: .integer, source: .derived { table in
                .count(checklist.collectionField.scope(parent: table, rowKey: "pk", alias: "items"),
                       condition: .comparison(.equal, .column(qualifier: "items", name: "is_done"), .true))
            }),
        ],
        decode: { row in
            ReleaseDraft(id: try row.column(0), version: try row.column(1), whatsNew: try row.column(2), checklist: [],
                         submittedAt: try row.column(3, as: Date?.self).map { try Date.stored($0, column: "submitted_at") },
                         createdAt: try Date.stored(row.column(4), column: "created_at"),
                         updatedAt: try Date.stored(row.column(5), column: "updated_at"))
        })

    static let checklist = OwnedChildren<ReleaseDraft, ChecklistItem>(
        \.checklist, field: "checklist", table: "checklist_items", parentColumn: "draft_pk",
        columns: [.column("id", \.id), .column("title", \.title), .column("is_done", \.isDone)],
        decode: { row in ChecklistItem(id: try row.column(0), title: try row.column(1), isDone: try row.column(2)) })

    static let exerciseDays = TableDescription<ExerciseDay>(
        "exercise_days", identity: .column("id", \.id),
        columns: [.column("day", \.day), .column("date", \.date)],
        children: [exercises],
        derived: [
            QueryField("exercises.count", keyPath: \ExerciseDay.exercises.count, kind: .integer, source: .derived { table in
                .count(exercises.collectionField.scope(parent: table, rowKey: "pk", alias: "names"), condition: nil)
            }),
        ],
        decode: { row in
            ExerciseDay(id: try row.column(0), date: try Date.stored(row.column(2), column: "date"), day: try row.column(1), exercises: [])
        })

    /// A day's exercises, up to 8 rows an `INSERT`: the table's key to its day is checked at
    /// commit (migration 0017), so such a statement needs no statement journal.
    static let exercises = OwnedChildren<ExerciseDay, String>(
        \.exercises, table: "exercises", parentColumn: "day_pk", rowsPerInsert: 8,
        columns: [.column("name", \.self, comparisonKey: "name_key")],
        decode: { row in try row.column(0) })

    /// Whether `exercise_day_aliases` holds an id (one merged into another day's record): when it
    /// holds none, a write need not look its records' ids up there.
    static func holdsAliases(in connection: Connection) throws -> Bool {
        try connection.scalar("SELECT EXISTS (SELECT 1 FROM exercise_day_aliases)", as: Bool.self) ?? true
    }

    /// Makes `id` no longer an alias of another day's record (`exercise_day_aliases`): it is a
    /// record of its own again, as a save or an import with `replace` gives it.
    static func removeAlias(_ id: UUID, in connection: Connection) throws {
        try connection.run("DELETE FROM exercise_day_aliases WHERE id = ?", [id.databaseValue])
    }

    /// The same-day rule, for every path that records exercises on a day that has a record: the
    /// names are appended to the record with row key `key`, and its date becomes `date` when that
    /// is earlier (the date is the instant of the day's first exercise, also when one is back-dated).
    static func merge(_ names: [String], at date: Date, intoDayKey key: Int64, in connection: Connection) throws {
        try appendExercises(names, toDayKey: key, in: connection)
        try connection.run("UPDATE exercise_days SET date = min(date, ?) WHERE pk = ?", [date.databaseValue, .integer(key)])
    }

    /// Puts `names` before the exercises of the day record with row key `key`, which takes `id` and
    /// `date`: merging a record that came first into a stored one of its day.
    static func prepend(_ names: [String], id: UUID, date: Date, toDayKey key: Int64, in connection: Connection) throws {
        try rewrite(dayKey: key, id: id, date: date, exercises: names + exerciseNames(ofDayKey: key, in: connection), in: connection)
    }

    /// The exercise names of the day record with row key `key`, in order.
    static func exerciseNames(ofDayKey key: Int64, in connection: Connection) throws -> [String] {
        let stored = try connection.cachedStatement("SELECT name FROM exercises WHERE day_pk = ? ORDER BY position")
        defer { stored.reset() }
        try stored.bind(key, at: 1)
        var names: [String] = []
        while try stored.step() { names.append(try stored.column(0, as: String.self)) }
        return names
    }

    /// Gives the day record with row key `key` the id, date and exercises given (its row key, and
    /// so the aliases that name it, stay), marking its tallies stale.
    static func rewrite(dayKey key: Int64, id: UUID, date: Date, exercises: [String], in connection: Connection) throws {
        try connection.run("DELETE FROM exercises WHERE day_pk = ?", [.integer(key)])
        try connection.run("UPDATE exercise_days SET id = ?, date = ? WHERE pk = ?", [id.databaseValue, date.databaseValue, .integer(key)])
        try appendExercises(exercises, toDayKey: key, in: connection)
    }

    /// Appends `names` to the stored day `day` (row key `key`) done at `date`, as
    /// ``merge(_:at:intoDayKey:in:)`` does, counted in place (``AppendedExercisesCount``) where that
    /// can be done exactly, rather than marking the day stale for a recount.
    static func add(_ names: [String], at date: Date, to day: CalendarDay, dayKey key: Int64, in connection: Connection) throws {
        guard let count = try AppendedExercisesCount(day: day, dayKey: key, doneAt: date, in: connection) else {
            return try merge(names, at: date, intoDayKey: key, in: connection)
        }
        try appendExercises(names, toDayKey: key, marksStale: false, in: connection)
        // The day row is not updated (its date stays), so no trigger logs the day.
        try UnloggedDayChanges.logDay(dayKey: key, in: connection)
        if try !count.count(names, in: connection) { try ExerciseTallies.markStale(dayKey: key, in: connection) }
    }

    /// Appends exercise names to the day record with row key `key`, after its last position (not
    /// its count: another program may have left a gap), and unless told otherwise marks the day's
    /// tallies stale.
    private static func appendExercises(_ names: [String], toDayKey key: Int64, marksStale: Bool = true,
                                        in connection: Connection) throws {
        if marksStale { try ExerciseTallies.markStale(dayKey: key, in: connection) }
        // Another program may have left the last position at the largest integer SQLite holds, or
        // text, a blob or a fraction (the table's check allows them): nothing can follow it.
        let stored = try connection.scalar("SELECT coalesce(max(position), 0) FROM exercises WHERE day_pk = ?", [.integer(key)],
                                           as: DatabaseValue.self) ?? .integer(0)
        guard case .integer(let last) = stored, !last.addingReportingOverflow(Int64(names.count)).overflow else {
            let shown = try connection.scalar("SELECT quote(max(position)) FROM exercises WHERE day_pk = ?", [.integer(key)],
                                              as: String.self) ?? ""
            throw LogbookError.unreadableValue(path: connection.path, detail: "exercises.position \(shown.prefix(40)) of the day with row key "
                                                + "\(key): no exercise can come after it; 'logbook repair' numbers a day's exercises 1 to n")
        }
        let insert = try connection.cachedStatement(
            "INSERT INTO exercises (day_pk, position, name, name_key) VALUES (?, ?, ?, ?)")
        for (offset, name) in names.enumerated() {
            try insert.bind(key, at: 1)
            try insert.bind(last + Int64(offset) + 1, at: 2)
            try insert.bind(name, at: 3)
            try insert.bind(name.comparisonKey, at: 4)
            try insert.execute()
        }
    }
}
