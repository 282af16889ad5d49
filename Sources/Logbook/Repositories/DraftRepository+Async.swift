import Foundation

/// The `async` forms: each runs its synchronous namesake on the store's queue, never on the
/// caller's thread or actor, and stops its SQL when the task is cancelled.
extension DraftRepository {
    /// `save(_:)` off the caller's thread.
    @discardableResult
    public func save(_ draft: ReleaseDraft) async throws -> ReleaseDraft {
        try await database.performWriting { try self.save(draft) }
    }

    /// `save(contentsOf:)` off the caller's thread: every draft in one transaction.
    public func save(contentsOf drafts: [ReleaseDraft]) async throws {
        try await database.performWriting { try self.save(contentsOf: drafts) }
    }

    /// `fetch(id:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetch(id: UUID) async throws -> ReleaseDraft? {
        try await database.performReading { try self.fetch(id: id) }
    }

    /// `fetch(version:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetch(version: String) async throws -> [ReleaseDraft] {
        try await database.performReading { try self.fetch(version: version) }
    }

    /// `fetchAll()` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetchAll() async throws -> [ReleaseDraft] {
        try await database.performReading { try self.fetchAll() }
    }

    /// `count()` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func count() async throws -> Int {
        try await database.performReading { try self.count() }
    }

    /// `resolve(_:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func resolve(_ reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performReading { try self.resolve(reference) }
    }

    /// `edit(_:version:whatsNew:)` off the caller's thread.
    @discardableResult
    public func edit(_ reference: some DraftReferring, version: String? = nil, whatsNew: String? = nil) async throws -> ReleaseDraft {
        try await database.performWriting { try self.edit(reference, version: version, whatsNew: whatsNew) }
    }

    /// `addItems(_:to:)` off the caller's thread.
    @discardableResult
    public func addItems(_ titles: [String], to reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performWriting { try self.addItems(titles, to: reference) }
    }

    /// `setItem(at:done:in:)` off the caller's thread.
    @discardableResult
    public func setItem(at position: Int, done: Bool, in reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performWriting { try self.setItem(at: position, done: done, in: reference) }
    }

    /// `removeItem(at:from:)` off the caller's thread.
    @discardableResult
    public func removeItem(at position: Int, from reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performWriting { try self.removeItem(at: position, from: reference) }
    }

    /// `moveItem(from:to:in:)` off the caller's thread.
    @discardableResult
    public func moveItem(from position: Int, to destination: Int, in reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performWriting { try self.moveItem(from: position, to: destination, in: reference) }
    }

    /// `setItem(_:done:in:)` (by item id) off the caller's thread.
    @discardableResult
    public func setItem(_ item: ChecklistItem.ID, done: Bool, in reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performWriting { try self.setItem(item, done: done, in: reference) }
    }

    /// `removeItem(_:from:)` (by item id) off the caller's thread.
    @discardableResult
    public func removeItem(_ item: ChecklistItem.ID, from reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performWriting { try self.removeItem(item, from: reference) }
    }

    /// `moveItem(_:to:in:)` (by item id) off the caller's thread.
    @discardableResult
    public func moveItem(_ item: ChecklistItem.ID, to destination: Int, in reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performWriting { try self.moveItem(item, to: destination, in: reference) }
    }

    /// `submit(_:at:)` off the caller's thread.
    @discardableResult
    public func submit(_ reference: some DraftReferring, at date: Date? = nil) async throws -> ReleaseDraft {
        try await database.performWriting { try self.submit(reference, at: date) }
    }

    /// `delete(_:)` off the caller's thread.
    @discardableResult
    public func delete(_ reference: some DraftReferring) async throws -> ReleaseDraft {
        try await database.performWriting { try self.delete(reference) }
    }
}
