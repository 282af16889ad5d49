import Foundation
import SQLiteQuery

/// The fields of each record as the query layer sees them: what `#Predicate` key paths, sort
/// descriptors and the CLI's `--where`/`--sort` may use.
enum QuerySchemas {
    static let drafts = QuerySchema<ReleaseDraft>(table: "drafts", fields: [
        .column("id", \ReleaseDraft.id, .uuid, column: "id"),
        .column("version", \ReleaseDraft.version, .text, column: "version", comparisonKey: "version_key"),
        .column("whatsNew", \ReleaseDraft.whatsNew, .text, column: "whats_new"),
        .column("submittedAt", \ReleaseDraft.submittedAt, .date, column: "submitted_at", isOptional: true),
        .column("createdAt", \ReleaseDraft.createdAt, .date, column: "created_at"),
        .column("updatedAt", \ReleaseDraft.updatedAt, .date, column: "updated_at"),
        QueryField("isSubmitted", keyPath: \ReleaseDraft.isSubmitted, kind: .bool, source: .derived { table in
            .not(.isNull(.column(qualifier: table, name: "submitted_at")))
        }),
        QueryField("checklist", keyPath: \ReleaseDraft.checklist, kind: nil, source: .collection(checklist)),
        QueryField("checklist.count", keyPath: \ReleaseDraft.checklist.count, kind: .integer, source: .derived { table in
            .count(checklist.scope(parent: table, rowKey: "pk", alias: "items"), condition: nil)
        }),
        QueryField("checklist.doneCount", keyPath: \ReleaseDraft.checklist.doneCount, kind: .integer, source: .derived { table in
            .count(checklist.scope(parent: table, rowKey: "pk", alias: "items"),
                   condition: .comparison(.equal, .column(qualifier: "items", name: "is_done"), .true))
        }),
    ])

    static let checklist = CollectionField(table: "checklist_items", parentColumn: "draft_pk", element: .record([
        .column("id", \ChecklistItem.id, .uuid, column: "id"),
        .column("title", \ChecklistItem.title, .text, column: "title"),
        .column("isDone", \ChecklistItem.isDone, .bool, column: "is_done"),
    ]))

    static let history = QuerySchema<ExerciseDay>(table: "exercise_days", fields: [
        .column("id", \ExerciseDay.id, .uuid, column: "id"),
        .column("day", \ExerciseDay.day, .day, column: "day"),
        .column("date", \ExerciseDay.date, .date, column: "date"),
        QueryField("exercises", keyPath: \ExerciseDay.exercises, kind: nil, source: .collection(exercises)),
        QueryField("exercises.count", keyPath: \ExerciseDay.exercises.count, kind: .integer, source: .derived { table in
            .count(exercises.scope(parent: table, rowKey: "pk", alias: "names"), condition: nil)
        }),
    ])

    static let exercises = CollectionField(table: "exercises", parentColumn: "day_pk",
                                           element: .scalar(.text, column: "name", comparisonKey: "name_key"))
}
