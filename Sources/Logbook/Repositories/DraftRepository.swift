import Foundation
import SQLiteQuery

/// Release drafts: save, find, edit the checklist, submit, delete. Each method is one transaction.
public struct DraftRepository: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    var table: TableDescription<ReleaseDraft> { Tables.drafts }

    /// Inserts a new draft or replaces the stored one with the same id, its checklist in order.
    /// Returns the draft as stored.
    ///
    /// Every field is stored as given, `createdAt` and `updatedAt` included, so drafts moved in
    /// from an app's files keep their dates. What the caller does not set, the initializer fills
    /// in: `ReleaseDraft(…)` stamps both dates with the moment it was made unless they are passed.
    /// The editing methods below (`edit(_:version:whatsNew:)`, `setItem(at:done:in:)`,
    /// `submit(_:at:)`, …) set `updatedAt` to the store's clock.
    @discardableResult
    public func save(_ draft: ReleaseDraft) throws -> ReleaseDraft {
        try database.write { connection in try save(draft, in: connection) }
    }

    /// Saves many drafts as given, in one transaction: all or none.
    public func save(contentsOf drafts: some Sequence<ReleaseDraft>) throws {
        try database.write { connection in
            for draft in drafts { _ = try save(draft, in: connection) }
        }
    }

    func save(_ draft: ReleaseDraft, in connection: Connection) throws -> ReleaseDraft {
        try draft.validate()
        try table.upsert(draft, in: connection)
        return draft
    }

    /// The draft with `id`, with its checklist.
    public func fetch(id: UUID) throws -> ReleaseDraft? {
        try database.read { try table.fetchOne(identity: id, in: $0) }
    }

    /// Every draft whose version equals `version` as Swift compares strings, oldest first.
    public func fetch(version: String) throws -> [ReleaseDraft] {
        try database.read { connection in
            try table.fetchAll(where: "drafts.version_key = ?", arguments: [.text(version.comparisonKey)],
                               orderBy: "drafts.created_at, drafts.id", in: connection)
        }
    }

    /// Every draft, oldest first.
    public func fetchAll() throws -> [ReleaseDraft] {
        try database.read { try table.fetchAll(orderBy: "drafts.created_at, drafts.id", in: $0) }
    }

    /// The number of drafts stored.
    public func count() throws -> Int {
        try database.read { try table.count(in: $0) }
    }

    /// Finds the one draft that `reference` names: an id (a `ReleaseDraft.ID`) exactly, or text
    /// as the CLI reads it: an id, a unique prefix of one (any case), or a version. Throws ``LogbookError/draftNotFound(_:)`` or
    /// ``LogbookError/ambiguousDraft(_:ids:)``.
    public func resolve(_ reference: some DraftReferring) throws -> ReleaseDraft {
        try database.read { try resolve(reference, in: $0) }
    }

    func resolve(_ reference: some DraftReferring, in connection: Connection) throws -> ReleaseDraft {
        switch reference.draftReference {
        case .id(let id):
            guard let draft = try table.fetchOne(identity: id, in: connection) else { throw LogbookError.draftNotFound(id.uuidString) }
            return draft
        case .text(let text):
            return try resolve(text: text, in: connection)
        }
    }

    private func resolve(text reference: String, in connection: Connection) throws -> ReleaseDraft {
        if let id = UUID(uuidString: reference), let draft = try table.fetchOne(identity: id, in: connection) {
            return draft
        }
        var matches = try table.fetchAll(where: "drafts.version_key = ?", arguments: [.text(reference.comparisonKey)],
                                         orderBy: "drafts.created_at, drafts.id", in: connection)
        // Only ASCII hex digits and dashes are an id's prefix, in either case (`uppercased()` makes
        // FF of the ligature U+FB00).
        let prefix = String(decoding: reference.utf8.map { (97...102).contains($0) ? $0 - 32 : $0 }, as: UTF8.self)
        if matches.isEmpty, !prefix.isEmpty, prefix.utf8.allSatisfy({ isHexOrDash($0) }) {
            // `id >= prefix AND id < prefix + '\u{FFFF}'` walks the unique index on id.
            matches = try table.fetchAll(where: "drafts.id >= ? AND drafts.id < ?",
                                         arguments: [.text(prefix), .text(prefix + "\u{FFFF}")],
                                         orderBy: "drafts.id", in: connection)
        }
        guard let first = matches.first else { throw LogbookError.draftNotFound(reference) }
        guard matches.count == 1 else { throw LogbookError.ambiguousDraft(reference, ids: matches.map(\.id)) }
        return first
    }

    private func isHexOrDash(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || byte == 45
    }

    // MARK: Editing

    /// Changes the fields given (nil leaves a field as it is) of the draft `reference` names.
    @discardableResult
    public func edit(_ reference: some DraftReferring, version: String? = nil, whatsNew: String? = nil) throws -> ReleaseDraft {
        try modify(reference) { draft in
            if let version { draft.version = version }
            if let whatsNew { draft.whatsNew = whatsNew }
        }
    }

    /// Appends items, not done, to the checklist, in order.
    @discardableResult
    public func addItems(_ titles: [String], to reference: some DraftReferring) throws -> ReleaseDraft {
        try modify(reference) { $0.checklist += titles.map { ChecklistItem(title: $0) } }
    }

    /// Marks the item at the 1-based `position` done or not done.
    @discardableResult
    public func setItem(at position: Int, done: Bool, in reference: some DraftReferring) throws -> ReleaseDraft {
        try modify(reference) { draft in
            try checkPosition(position, in: draft)
            draft.checklist[position - 1].isDone = done
        }
    }

    /// Removes the item at the 1-based `position`; the items after it move up.
    @discardableResult
    public func removeItem(at position: Int, from reference: some DraftReferring) throws -> ReleaseDraft {
        try modify(reference) { draft in
            try checkPosition(position, in: draft)
            draft.checklist.remove(at: position - 1)
        }
    }

    /// Moves the item at 1-based `position` so that it ends up at `destination`.
    @discardableResult
    public func moveItem(from position: Int, to destination: Int, in reference: some DraftReferring) throws -> ReleaseDraft {
        try modify(reference) { draft in
            try checkPosition(position, in: draft)
            try checkPosition(destination, in: draft)
            let item = draft.checklist.remove(at: position - 1)
            draft.checklist.insert(item, at: destination - 1)
        }
    }

    /// Marks the item with id `item` done or not done; throws ``LogbookError/ambiguousItem(id:positions:draft:)``
    /// when several items of the checklist carry that id.
    @discardableResult
    public func setItem(_ item: ChecklistItem.ID, done: Bool, in reference: some DraftReferring) throws -> ReleaseDraft {
        try modify(reference) { draft in
            draft.checklist[try index(of: item, in: draft)].isDone = done
        }
    }

    /// Removes the item with id `item`; throws ``LogbookError/ambiguousItem(id:positions:draft:)`` when
    /// several items of the checklist carry that id.
    @discardableResult
    public func removeItem(_ item: ChecklistItem.ID, from reference: some DraftReferring) throws -> ReleaseDraft {
        try modify(reference) { draft in
            draft.checklist.remove(at: try index(of: item, in: draft))
        }
    }

    /// Moves the item with id `item` so that it ends up at the 1-based `destination`; throws
    /// ``LogbookError/ambiguousItem(id:positions:draft:)`` when several items of the checklist carry that id.
    @discardableResult
    public func moveItem(_ item: ChecklistItem.ID, to destination: Int, in reference: some DraftReferring) throws -> ReleaseDraft {
        try modify(reference) { draft in
            let position = try index(of: item, in: draft)
            try checkPosition(destination, in: draft)
            let moved = draft.checklist.remove(at: position)
            draft.checklist.insert(moved, at: destination - 1)
        }
    }

    /// Marks the draft submitted at `date`. Refused, changing nothing, when its version is empty:
    /// "Refusing to submit: no version set".
    @discardableResult
    public func submit(_ reference: some DraftReferring, at date: Date? = nil) throws -> ReleaseDraft {
        try modify(reference) { draft in
            guard !draft.version.isEmpty else { throw LogbookError.emptyVersionOnSubmit(id: draft.id) }
            draft.submittedAt = date ?? now()
        }
    }

    /// Deletes the draft and its checklist. Returns the deleted draft.
    @discardableResult
    public func delete(_ reference: some DraftReferring) throws -> ReleaseDraft {
        try database.write { connection in
            let draft = try resolve(reference, in: connection)
            try table.delete(identity: draft.id, in: connection)
            return draft
        }
    }

    /// Reads, changes and saves one draft in one transaction.
    private func modify(_ reference: some DraftReferring, _ change: (inout ReleaseDraft) throws -> Void) throws -> ReleaseDraft {
        try database.write { connection in
            let stored = try resolve(reference, in: connection)
            var draft = stored
            try change(&draft)
            // A change that changes nothing (an item checked again, a text set to its own bytes)
            // writes nothing: no new `updatedAt`, no change in the feed.
            guard !draft.hasSameStoredValues(as: stored) else { return stored }
            draft.updatedAt = now()
            return try save(draft, in: connection)
        }
    }

    /// The index of the one item with id `item`; throws when there is none, or several.
    private func index(of item: ChecklistItem.ID, in draft: ReleaseDraft) throws -> Int {
        let indexes = draft.checklist.indices.filter { draft.checklist[$0].id == item }
        guard let index = indexes.first else { throw LogbookError.itemNotFound(id: item, draft: draft.id) }
        guard indexes.count == 1 else {
            throw LogbookError.ambiguousItem(id: item, positions: indexes.map { $0 + 1 }, draft: draft.id)
        }
        return index
    }

    private func checkPosition(_ position: Int, in draft: ReleaseDraft) throws {
        guard (1...max(draft.checklist.count, 1)).contains(position), !draft.checklist.isEmpty else {
            throw LogbookError.itemPositionOutOfRange(position: position, count: draft.checklist.count, draft: draft.id)
        }
    }
}
