import Foundation
import Logbook

/// How `drafts show` prints one draft for people: fields, the What's New text, the checklist with
/// its summary line ("2 of 4 done"). Control characters in the text are shown as escapes
/// (``Console/oneLine(_:)``), What's New keeping its line breaks: nothing in a draft can move the
/// cursor, recolor the terminal or pass for another line (`--format json` keeps every byte).
enum DraftView {
    /// The draft for people, its dates on the wall clock of `timeZone`.
    static func render(_ draft: ReleaseDraft, in timeZone: TimeZone) -> String {
        let date = { (value: Date) in LocalTime.text(value, in: timeZone) + " " + LocalTime.offset(value, in: timeZone) }
        var lines = [
            "id:         \(draft.id.uuidString)",
            "version:    \(draft.version.isEmpty ? "(none)" : Console.oneLine(draft.version))",
            "submitted:  \(draft.submittedAt.map(date) ?? "not submitted")",
            "created:    \(date(draft.createdAt))",
            "updated:    \(date(draft.updatedAt))",
        ]
        if draft.whatsNew.isEmpty {
            lines.append("what's new: (empty)")
        } else {
            lines.append("what's new:")
            lines += draft.whatsNew.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + Console.oneLine(String($0)) }
        }
        lines.append("checklist:  \(draft.summary)")
        for (offset, item) in draft.checklist.enumerated() {
            lines.append("  \(offset + 1). [\(item.isDone ? "x" : " ")] \(Console.oneLine(item.title))")
        }
        return lines.joined(separator: "\n")
    }
}

/// Instants for people: the wall clock of the time zone a command runs in, to the second.
enum LocalTime {
    /// `2026-01-31 09:30:00`: what a clock in `timeZone` showed at `date` (proleptic Gregorian).
    static func text(_ date: Date, in timeZone: TimeZone) -> String {
        // The second first, then the offset, both whole: rounding a moment before midnight to the
        // microsecond showed the next day's 00:00:00.
        let second = Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down))
        let wall = second.addingTimeInterval(Double(timeZone.secondsFromGMT(for: date)))
        let full = wall.isSupported ? wall.iso8601Microseconds : second.iso8601Microseconds
        return full.prefix(10) + " " + full.dropFirst(11).prefix(8)
    }

    /// `+01:00`: the zone's offset from UTC at `date`.
    static func offset(_ date: Date, in timeZone: TimeZone) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3_600, abs(seconds) / 60 % 60)
    }

    /// A table header for a column of local times: `SUBMITTED (Europe/Paris)`.
    static func header(_ name: String, in timeZone: TimeZone) -> String {
        "\(name) (\(timeZone.nameForPeople))"
    }
}
