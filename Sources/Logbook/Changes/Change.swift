import Foundation

/// One record's change in a change feed: its state now, or that it is gone.
public enum Change: Sendable, Hashable {
    /// A draft inserted or changed (its checklist included): the draft as it is now.
    case draft(ReleaseDraft)
    /// The draft with this id was deleted.
    case draftDeleted(UUID)
    /// A day inserted or changed (its exercises included): the day as it is now.
    case day(ExerciseDay)
    /// The day record with this id was deleted (or merged into another record of its day).
    case dayDeleted(UUID)

    /// What kind of record changed.
    public var kind: RecordKind {
        switch self {
        case .draft, .draftDeleted: .drafts
        case .day, .dayDeleted: .history
        }
    }

    /// The id of the record that changed.
    public var id: UUID {
        switch self {
        case .draft(let draft): draft.id
        case .day(let day): day.id
        case .draftDeleted(let id), .dayDeleted(let id): id
        }
    }

    /// Whether the record is gone.
    public var isDeletion: Bool {
        switch self {
        case .draftDeleted, .dayDeleted: true
        case .draft, .day: false
        }
    }
}

/// A ``Change`` with its place in the change log: changes come in commit order, positions growing.
public struct LoggedChange: Sendable, Hashable {
    /// The position of the record's newest change-log entry the feed read (for a feed without a
    /// token, the position of the token it ends with).
    public var position: Int64
    /// The change.
    public var change: Change
}
