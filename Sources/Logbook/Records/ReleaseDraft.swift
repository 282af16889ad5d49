import Foundation

/// A release being prepared: its version, the "What's New" text, an ordered pre-flight checklist,
/// and when it was submitted (nil until then).
public struct ReleaseDraft: Codable, Sendable, Hashable, Identifiable {
    /// The draft's identity, unique in the store; a draft is also found by a unique prefix of it.
    public var id: UUID
    /// May be empty while editing; several drafts may share a version.
    public var version: String
    /// The "What's New" text, stored byte for byte (CRLF, tabs and NFD text kept).
    public var whatsNew: String
    /// The pre-flight steps in order; the editing calls address them by 1-based position or by id.
    public var checklist: [ChecklistItem]
    /// When the draft was submitted; nil until then.
    public var submittedAt: Date?
    /// When the draft was made: stored as given by `DraftRepository.save(_:)` (so drafts moved in
    /// keep their dates); no editing call changes it.
    public var createdAt: Date
    /// When the draft last changed: stored as given by `DraftRepository.save(_:)`, set to the store's clock
    /// by the editing calls (`DraftRepository.edit(_:version:whatsNew:)`,
    /// `DraftRepository.submit(_:at:)`, …) that change something (one that changes nothing writes nothing).
    public var updatedAt: Date

    /// A draft with the values given. `createdAt` and `updatedAt` not given are both the one instant
    /// the draft was made (`createdAt` when only it is given).
    public init(id: UUID = UUID(), version: String = "", whatsNew: String = "", checklist: [ChecklistItem] = [],
                submittedAt: Date? = nil, createdAt: Date? = nil, updatedAt: Date? = nil) {
        let made = createdAt ?? Date()
        self.id = id
        self.version = version
        self.whatsNew = whatsNew
        self.checklist = checklist
        self.submittedAt = submittedAt
        self.createdAt = made
        self.updatedAt = updatedAt ?? made
    }

    /// Whether the draft has a submission date; queryable as `isSubmitted`.
    public var isSubmitted: Bool { submittedAt != nil }

    /// The app's progress line: "2 of 4 done".
    public var summary: String { "\(checklist.doneCount) of \(checklist.count) done" }
}

/// One pre-flight step of a draft, addressed by its draft and its id or its 1-based position.
/// Ids are kept as given: a copy of a draft shares its items' ids, which stay unique within each
/// checklist unless a file repeats one (then the editing calls by id refuse it, naming the positions).
public struct ChecklistItem: Codable, Sendable, Hashable, Identifiable {
    /// The item's identity in its checklist (a SwiftUI `List` of a draft's items); kept as given.
    public var id: UUID
    /// The step's text, stored byte for byte.
    public var title: String
    /// Whether the step is checked off.
    public var isDone: Bool

    /// An item titled `title`, with a new id and not done unless given.
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
