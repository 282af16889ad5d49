import Foundation

/// A release being prepared: its version, the "What's New" text, an ordered pre-flight checklist,
/// and when it was submitted (nil until then).
public struct ReleaseDraft: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    /// May be empty while editing; several drafts may share a version.
    public var version: String
    public var whatsNew: String
    public var checklist: [ChecklistItem]
    public var submittedAt: Date?
    /// Kept by the store: set when the draft is first saved and on every save.
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID = UUID(), version: String = "", whatsNew: String = "", checklist: [ChecklistItem] = [],
                submittedAt: Date? = nil, createdAt: Date = Date(), updatedAt: Date = Date()) {
        self.id = id
        self.version = version
        self.whatsNew = whatsNew
        self.checklist = checklist
        self.submittedAt = submittedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var isSubmitted: Bool { submittedAt != nil }

    /// The app's progress line: "2 of 4 done".
    public var summary: String { "\(checklist.doneCount) of \(checklist.count) done" }
}

/// One pre-flight step of a draft. Item ids are kept as given but are not keys: copies of a draft
/// share them, so an item is addressed by its draft and its 1-based position.
public struct ChecklistItem: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    public var title: String
    public var isDone: Bool

    public init(id: UUID = UUID(), title: String, isDone: Bool = false) {
        self.id = id
        self.title = title
        self.isDone = isDone
    }
}

extension Array where Element == ChecklistItem {
    /// How many items are done; queryable as `checklist.doneCount`.
    public var doneCount: Int { reduce(0) { $0 + ($1.isDone ? 1 : 0) } }
}
