import Foundation
import SQLiteQuery

/// Ids for records from files that have none (the apps' drafts, hand-made days): a name-based
/// UUID (RFC 9562 version 8) from the SHA-256 of the record's content and of which occurrence of
/// that content in the file it is, so that importing the same file again changes nothing, the
/// same draft in two files is one draft, and two identical drafts in one file stay two.
enum ContentID {
    /// The id of a draft that has none: from its content and which occurrence of that content in
    /// the file it is (the first's id is the content's alone, as before occurrences counted).
    static func forDraft(_ draft: DraftInput, occurrence: Int = 0) -> UUID {
        // A canonical, unambiguous text of the content: lengths prefix every string, dates are
        // their exact bit patterns.
        var text = "logbook.draft.v1\n" + (occurrence == 0 ? "" : "occurrence \(occurrence)\n")
        func add(_ field: String) { text += "\(field.utf8.count):\(field)\n" }
        add(draft.version)
        add(draft.whatsNew)
        add(draft.submittedAt.map(storedBits) ?? "-")
        for item in draft.checklist {
            add(item.id.uuidString)
            add(item.title)
            add(item.isDone ? "1" : "0")
        }
        return uuid(of: text)
    }

    /// The id of a hand-made day record that has none: from its day (or date), its exercises and
    /// which occurrence of that content in the file it is, so that importing the same file again
    /// changes nothing.
    static func forDay(_ input: DayInput, occurrence: Int = 0) -> UUID {
        var text = "logbook.day.v1\n" + (occurrence == 0 ? "" : "occurrence \(occurrence)\n")
        func add(_ field: String) { text += "\(field.utf8.count):\(field)\n" }
        add(input.day?.description ?? "-")
        add(input.date.map(storedBits) ?? "-")
        input.exercises.forEach(add)
        return uuid(of: text)
    }

    /// The bit pattern of `date` as the store keeps it, in hexadecimal: -0 as 0 (SQLite stores
    /// -0.0 as 0.0, the same instant), so that a file giving -0 and the export of what it stored
    /// give one id and a re-import stays a no-op.
    private static func storedBits(_ date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        return String((seconds == 0 ? 0 : seconds).bitPattern, radix: 16)
    }

    /// A version 8 UUID from the SHA-256 of `text`.
    private static func uuid(of text: String) -> UUID {
        var bytes = Array(SHA256.digest(of: Array(text.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
