import Foundation

/// How a call names one draft: by its id, exactly, or by text as the CLI takes it.
public enum DraftReference: Sendable {
    /// The draft with this id; nothing else matches.
    case id(ReleaseDraft.ID)
    /// The draft whose id, unique id prefix (any case) or version (as Swift compares strings) this is.
    case text(String)
}

/// What the repository's calls accept where they name a draft: a `ReleaseDraft.ID` (a `UUID`),
/// which names the draft by id only, or a `String`, read as the CLI reads it.
///
/// ```swift
/// try store.drafts.submit(draft.id)        // by id
/// try store.drafts.submit("2.5.0")         // by version, id or id prefix
/// ```
public protocol DraftReferring: Sendable {
    /// The reference this value makes.
    var draftReference: DraftReference { get }
}

extension UUID: DraftReferring {
    /// The draft with this id.
    public var draftReference: DraftReference { .id(self) }
}

extension String: DraftReferring {
    /// The draft this text names: its id, a unique id prefix, or its version.
    public var draftReference: DraftReference { .text(self) }
}

extension DraftReference: DraftReferring, CustomStringConvertible {
    /// Itself.
    public var draftReference: DraftReference { self }

    /// The id or the text, as messages show the reference.
    public var description: String {
        switch self {
        case .id(let id): id.uuidString
        case .text(let text): text
        }
    }
}
