import Foundation
import Logbook

/// How `drafts show` prints one draft for people: fields, the What's New text, the checklist with
/// its summary line ("2 of 4 done").
enum DraftView {
    static func render(_ draft: ReleaseDraft) -> String {
        var lines = [
            "id:         \(draft.id.uuidString)",
            "version:    \(draft.version.isEmpty ? "(none)" : draft.version)",
            "submitted:  \(draft.submittedAt.map(shortDate) ?? "not submitted")",
            "created:    \(shortDate(draft.createdAt))",
            "updated:    \(shortDate(draft.updatedAt))",
        ]
        if draft.whatsNew.isEmpty {
            lines.append("what's new: (empty)")
        } else {
            lines.append("what's new:")
            lines += draft.whatsNew.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        }
        lines.append("checklist:  \(draft.summary)")
        for (offset, item) in draft.checklist.enumerated() {
            lines.append("  \(offset + 1). [\(item.isDone ? "x" : " ")] \(item.title)")
        }
        return lines.joined(separator: "\n")
    }

    /// `2026-01-31 08:30:00Z`: a date for people, to the second.
    static func shortDate(_ date: Date) -> String {
        let full = date.iso8601Microseconds
        return full.prefix(10) + " " + full.dropFirst(11).prefix(8) + "Z"
    }
}
