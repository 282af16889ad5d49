import Foundation
import SQLiteQuery

/// Turns parsed JSON objects into records: this spec's JSON (ids, ISO-8601 dates, `day`) and the
/// apps' own `JSONEncoder` output (no ids, dates as seconds since 2001) are both accepted, per object.
enum JSONRecordDecoding {
    static func kind(of value: JSONValue) -> RecordKind? {
        guard case .object = value else { return nil }
        if value["exercises"] != nil || value["exercise"] != nil { return .history }
        if value["version"] != nil || value["checklist"] != nil || value["whatsNew"] != nil { return .drafts }
        return nil
    }

    /// The members a draft, a checklist item and a day record may have. Any other is refused, not
    /// dropped: a misspelled or snake_case field (`submitted_at`) would otherwise lose its value
    /// in silence.
    private static let draftMembers = ["id", "version", "whatsNew", "checklist", "submittedAt", "createdAt", "updatedAt"]
    private static let itemMembers = ["id", "title", "isDone"]
    private static let dayMembers = ["id", "day", "date", "exercises", "exercise"]

    static func draft(_ value: JSONValue) throws -> DraftInput {
        guard case .object = value else { throw FieldError(field: "(record)", reason: "expected an object, found \(value.kindDescription)") }
        try refuseUnknownMembers(of: value, known: draftMembers, record: "a draft")
        var checklist: [ChecklistItem] = []
        for (index, item) in try array(value, "checklist").enumerated() {
            let name = "checklist[\(index)]"
            guard case .object = item else { throw FieldError(field: name, reason: "expected an object, found \(item.kindDescription)") }
            try refuseUnknownMembers(of: item, known: itemMembers, record: "a checklist item", prefix: name + ".")
            checklist.append(ChecklistItem(id: try uuid(item, "id", prefix: name + "."),
                                           title: try string(item, "title", prefix: name + "."),
                                           isDone: try bool(item, "isDone", prefix: name + ".")))
        }
        return DraftInput(id: try optionalUUID(value, "id"), version: try string(value, "version"),
                          whatsNew: try string(value, "whatsNew"), checklist: checklist,
                          submittedAt: try optionalDate(value, "submittedAt"),
                          createdAt: try optionalDate(value, "createdAt"), updatedAt: try optionalDate(value, "updatedAt"))
    }

    static func day(_ value: JSONValue) throws -> DayInput {
        guard case .object = value else { throw FieldError(field: "(record)", reason: "expected an object, found \(value.kindDescription)") }
        try refuseUnknownMembers(of: value, known: dayMembers, record: "a day record")
        if value["exercises"] != nil && value["exercise"] != nil {
            throw FieldError(field: "exercise", reason: "a record gives its exercises once: exercise (one name) or exercises (a list), not both")
        }
        var exercises: [String] = []
        if let single = value["exercise"] {
            // Hand-made: one exercise per record.
            guard case .string(let text) = single else {
                throw FieldError(field: "exercise", reason: "expected a string, found \(single.kindDescription)")
            }
            // Named as the member it is (the library's check names `exercises[0]`), as CSV's column.
            guard !text.isEmpty else { throw FieldError(field: "exercise", reason: "an exercise name cannot be empty") }
            exercises = [text]
        } else {
            for (index, name) in try array(value, "exercises").enumerated() {
                guard case .string(let text) = name else {
                    throw FieldError(field: "exercises[\(index)]", reason: "expected a string, found \(name.kindDescription)")
                }
                exercises.append(text)
            }
        }
        var day: CalendarDay?
        if let member = value["day"], member != .null {
            guard case .string(let text) = member, let parsed = CalendarDay(text) else {
                throw FieldError(field: "day", reason: "expected a day \"YYYY-MM-DD\", found \(describe(member))")
            }
            day = parsed
        }
        let date = try optionalDate(value, "date")
        guard date != nil || day != nil else { throw FieldError(field: "date", reason: "missing: a record needs a day or a date") }
        let id = value["id"] == nil || value["id"] == .null ? nil : try uuid(value, "id")
        return DayInput(id: id, date: date, day: day, exercises: exercises)
    }

    // MARK: Fields

    /// Throws for the first member of the object `value` that is not one of `known`.
    private static func refuseUnknownMembers(of value: JSONValue, known: [String], record: String, prefix: String = "") throws {
        guard case .object(let members) = value else { return }
        try FieldError.refuseUnknown(members.lazy.map(\.key), known: known, record: record, prefix: prefix)
    }

    private static func member(_ value: JSONValue, _ key: String, prefix: String) throws -> JSONValue {
        guard let member = value[key] else { throw FieldError(field: prefix + key, reason: "missing") }
        return member
    }

    private static func string(_ value: JSONValue, _ key: String, prefix: String = "") throws -> String {
        let member = try member(value, key, prefix: prefix)
        guard case .string(let text) = member else {
            throw FieldError(field: prefix + key, reason: "expected a string, found \(member.kindDescription)")
        }
        return text
    }

    private static func bool(_ value: JSONValue, _ key: String, prefix: String = "") throws -> Bool {
        let member = try member(value, key, prefix: prefix)
        guard case .bool(let flag) = member else {
            throw FieldError(field: prefix + key, reason: "expected true or false, found \(member.kindDescription)")
        }
        return flag
    }

    private static func array(_ value: JSONValue, _ key: String) throws -> [JSONValue] {
        let member = try member(value, key, prefix: "")
        guard case .array(let items) = member else {
            throw FieldError(field: key, reason: "expected an array, found \(member.kindDescription)")
        }
        return items
    }

    private static func uuid(_ value: JSONValue, _ key: String, prefix: String = "") throws -> UUID {
        let text = try string(value, key, prefix: prefix)
        guard let uuid = UUID(text: text) else {
            throw FieldError(field: prefix + key, reason: "expected a UUID, found \"\(text.prefix(60))\"")
        }
        return uuid
    }

    private static func optionalUUID(_ value: JSONValue, _ key: String) throws -> UUID? {
        guard let member = value[key], member != .null else { return nil }
        return try uuid(value, key)
    }

    /// A date as seconds since 2001-01-01 (the apps' `JSONEncoder` default) or an ISO-8601 string;
    /// nil when absent or null.
    static func optionalDate(_ value: JSONValue, _ key: String) throws -> Date? {
        guard let member = value[key], member != .null else { return nil }
        switch member {
        case .number(let text):
            guard let seconds = Double(text), seconds.isFinite else {
                throw FieldError(field: key, reason: "number \(text) is not a finite date")
            }
            return try FieldError.supported(Date(timeIntervalSinceReferenceDate: seconds), field: key, found: text)
        case .string(let text):
            return try FieldError.iso8601Date(text, field: key, example: "2026-01-31T08:30:00Z")
        default:
            throw FieldError(field: key, reason: "expected a date (seconds since 2001 or ISO-8601 text), found \(member.kindDescription)")
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        if case .string(let text) = value { return "\"\(text.prefix(60))\"" }
        return value.kindDescription
    }
}
