import Foundation
import Logbook
import SQLiteQuery

/// How `drafts show` prints one draft for people: fields, the What's New text, the checklist with
/// its summary line ("2 of 4 done"). Control characters in the text are shown as escapes
/// (``Console/cell(_:)``), What's New keeping its line breaks: nothing in a draft can move the
/// cursor, recolor the terminal or pass for another line (`--format json` keeps every byte).
enum DraftView {
    /// The draft for people, its dates on the wall clock of `timeZone`.
    static func render(_ draft: ReleaseDraft, in timeZone: TimeZone) -> String {
        let date = { (value: Date) in LocalTime.text(value, in: timeZone) + " " + LocalTime.offset(value, in: timeZone) }
        var lines = [
            "id:         \(draft.id.uuidString)",
            "version:    \(draft.version.isEmpty ? "(none)" : Console.cell(draft.version))",
            "submitted:  \(draft.submittedAt.map(date) ?? "not submitted")",
            "created:    \(date(draft.createdAt))",
            "updated:    \(date(draft.updatedAt))",
        ]
        if draft.whatsNew.isEmpty {
            lines.append("what's new: (empty)")
        } else {
            lines.append("what's new:")
            // Lines end at every LF scalar, a CRLF's too (Swift's "\r\n" is one Character, which a
            // split at the Character "\n" passed over, showing a CRLF text as one escaped line).
            let parts = draft.whatsNew.split(atEvery: "\n")
            lines += parts.enumerated().map { index, line in
                let endsInCRLF = index < parts.count - 1 && line.ends(with: "\r")
                return "  " + Console.cell(endsInCRLF ? String(String.UnicodeScalarView(line.unicodeScalars.dropLast())) : line)
            }
        }
        lines.append("checklist:  \(draft.summary)")
        for (offset, item) in draft.checklist.enumerated() {
            lines.append("  \(offset + 1). [\(item.isDone ? "x" : " ")] \(Console.cell(item.title))")
        }
        return lines.joined(separator: "\n")
    }
}

/// Instants for people: the wall clock of the time zone a command runs in, to the second.
enum LocalTime {
    /// `2026-01-31 09:30:00`: what a clock in `timeZone` showed at `date` (proleptic Gregorian),
    /// on whole seconds: rounding a moment before midnight to the microsecond showed the next
    /// day's 00:00:00. Where that clock is before year 1 or after year 9999 (the first hours of
    /// 0001 west of UTC, the last of 9999 east of it), the year is `0000` or `10000`: the time
    /// was shown on the UTC clock under the zone's name and offset, naming another instant
    /// (helper-28).
    static func text(_ date: Date, in timeZone: TimeZone) -> String {
        let wall = Int(date.timeIntervalSinceReferenceDate.rounded(.down)) + ProlepticGregorian.referenceDateUnixTime
            + timeZone.secondsFromGMT(for: date)
        let (days, second) = wall.quotientAndRemainder(dividingBy: ProlepticGregorian.secondsPerDay)
        let (dayNumber, secondOfDay) = second < 0 ? (days - 1, second + ProlepticGregorian.secondsPerDay) : (days, second)
        let (year, month, day) = ProlepticGregorian.date(ofDayNumber: dayNumber)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", year, month, day, secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// `+01:00`: the zone's offset from UTC at `date`, with its seconds where it has some (a local
    /// mean time before standard time, `-04:56:02` in New York): without them the time and the
    /// offset named another instant.
    static func offset(_ date: Date, in timeZone: TimeZone) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        let sign = seconds < 0 ? "-" : "+", magnitude = abs(seconds)
        let hoursAndMinutes = String(format: "%@%02d:%02d", sign, magnitude / 3_600, magnitude / 60 % 60)
        return magnitude % 60 == 0 ? hoursAndMinutes : hoursAndMinutes + String(format: ":%02d", magnitude % 60)
    }

    /// A table header for a column of local times: `SUBMITTED (Europe/Paris)`.
    static func header(_ name: String, in timeZone: TimeZone) -> String {
        "\(name) (\(timeZone.nameForPeople))"
    }
}
