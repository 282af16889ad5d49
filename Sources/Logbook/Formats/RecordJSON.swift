import Foundation
import SQLiteQuery

/// The JSON form of each record in this spec's formats (`json`, `ndjson`, `show --format json`):
/// the Swift property names, ISO-8601 UTC dates with microseconds, days as `YYYY-MM-DD`, and
/// `null` for a missing date.
extension ReleaseDraft {
    /// Writes the draft as one JSON object: `id`, `version`, `whatsNew`, `checklist` (objects with `id`,
    /// `title`, `isDone`), `submittedAt` (or `null`), `createdAt`, `updatedAt`, in that order.
    public func writeJSON(to json: inout JSONText) {
        json.beginObject()
        json.key("id"); json.string(id.text)
        json.key("version"); json.string(version)
        json.key("whatsNew"); json.string(whatsNew)
        json.key("checklist")
        json.beginArray()
        for item in checklist {
            json.beginObject()
            json.key("id"); json.string(item.id.text)
            json.key("title"); json.string(item.title)
            json.key("isDone"); json.bool(item.isDone)
            json.endObject()
        }
        json.endArray()
        json.key("submittedAt"); json.date(submittedAt)
        json.key("createdAt"); json.date(createdAt)
        json.key("updatedAt"); json.date(updatedAt)
        json.endObject()
    }
}

extension ExerciseDay {
    /// Writes the day as one JSON object: `id`, `day` (`YYYY-MM-DD`), `date`, and `exercises` (names in
    /// order), in that order.
    public func writeJSON(to json: inout JSONText) {
        json.beginObject()
        json.key("id"); json.string(id.text)
        json.key("day"); json.string(day.description)
        json.key("date"); json.date(date)
        json.key("exercises")
        json.beginArray()
        for exercise in exercises { json.string(exercise) }
        json.endArray()
        json.endObject()
    }
}
