import Foundation

/// What the tests that interrupt writes (kills, full disks, cancelled tasks) and read beside them
/// share: the damage `repair` puts right, and the drafts as two runs of one write leave them alike.
public enum InterruptedWrites {
    /// SQL that leaves exercise positions as another program can (11, 12, 13 on every seventh
    /// day), for `repair` to renumber.
    public static let repairableDamage = "UPDATE exercises SET position = position + 10 WHERE day_pk % 7 = 0"

    /// A drafts JSON export (`logbook export drafts --format json`) without what a new run of a
    /// write draws afresh: the drafts' and items' ids, the creation and update times, and a
    /// submission time (only whether there is one); members sorted.
    public static func comparableDrafts(_ json: Data) throws -> String {
        guard let drafts = try JSONSerialization.jsonObject(with: json) as? [[String: Any]] else {
            throw NotADraftsExport(json: String(decoding: json.prefix(200), as: UTF8.self))
        }
        let comparable = drafts.map { draft in
            var draft = draft.filter { !["id", "createdAt", "updatedAt"].contains($0.key) }
            if let submitted = draft["submittedAt"], !(submitted is NSNull) { draft["submittedAt"] = true }
            if let items = draft["checklist"] as? [[String: Any]] { draft["checklist"] = items.map { $0.filter { $0.key != "id" } } }
            return draft
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: comparable, options: [.sortedKeys]), as: UTF8.self)
    }

    /// JSON that is not an array of drafts.
    public struct NotADraftsExport: Error {
        public let json: String
    }
}
