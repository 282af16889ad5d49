import Foundation

/// The `async` forms: each runs its synchronous namesake on the store's queue, never on the
/// caller's thread or actor, and stops its SQL when the task is cancelled.
extension HistoryRepository {
    /// `addDoneExercise(_:at:)` off the caller's thread.
    @discardableResult
    public func addDoneExercise(_ exercise: String, at date: Date? = nil) async throws -> ExerciseDay {
        try await database.performWriting { try self.addDoneExercise(exercise, at: date) }
    }

    /// `addDoneExercises(_:at:)` off the caller's thread.
    @discardableResult
    public func addDoneExercises(_ exercises: [String], at date: Date? = nil) async throws -> ExerciseDay {
        try await database.performWriting { try self.addDoneExercises(exercises, at: date) }
    }

    /// `fetch(day:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetch(day: CalendarDay) async throws -> ExerciseDay? {
        try await database.performReading { try self.fetch(day: day) }
    }

    /// `fetch(id:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetch(id: UUID) async throws -> ExerciseDay? {
        try await database.performReading { try self.fetch(id: id) }
    }

    /// `fetchAll()` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func fetchAll() async throws -> [ExerciseDay] {
        try await database.performReading { try self.fetchAll() }
    }

    /// `count()` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func count() async throws -> Int {
        try await database.performReading { try self.count() }
    }

    /// `delete(day:)` off the caller's thread.
    @discardableResult
    public func delete(day: CalendarDay) async throws -> ExerciseDay {
        try await database.performWriting { try self.delete(day: day) }
    }

    /// `save(_:)` off the caller's thread: every day in one transaction.
    public func save(_ days: [ExerciseDay]) async throws {
        try await database.performWriting { try self.save(days) }
    }
}
