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

    // MARK: Fixing mistakes

    /// `removeExercises(atPositions:named:from:dryRun:)` off the caller's thread.
    @discardableResult
    public func removeExercises(atPositions positions: [Int] = [], named names: [String] = [], from day: CalendarDay,
                                dryRun: Bool = false) async throws -> HistoryEdit {
        try await database.performWriting { try self.removeExercises(atPositions: positions, named: names, from: day, dryRun: dryRun) }
    }

    /// `renameExercise(_:to:from:to:dryRun:)` off the caller's thread.
    @discardableResult
    public func renameExercise(_ old: String, to new: String, from: CalendarDay? = nil, to: CalendarDay? = nil,
                               dryRun: Bool = false) async throws -> HistoryEdit {
        try await database.performWriting { try self.renameExercise(old, to: new, from: from, to: to, dryRun: dryRun) }
    }

    /// `moveDay(_:to:dryRun:)` off the caller's thread.
    @discardableResult
    public func moveDay(_ day: CalendarDay, to newDay: CalendarDay, dryRun: Bool = false) async throws -> HistoryEdit {
        try await database.performWriting { try self.moveDay(day, to: newDay, dryRun: dryRun) }
    }

    /// `exerciseNames()` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func exerciseNames() async throws -> [String] {
        try await database.performReading { try self.exerciseNames() }
    }

    /// `exerciseNames(matching:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func exerciseNames(matching name: String) async throws -> [String] {
        try await database.performReading { try self.exerciseNames(matching: name) }
    }

    /// `knownExercise(resembling:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func knownExercise(resembling name: String) async throws -> String? {
        try await database.performReading { try self.knownExercise(resembling: name) }
    }

    /// `knownExercises(resembling:)` off the caller's actor (a read: see `Database.performReading(_:)`).
    public func knownExercises(resembling names: [String]) async throws -> [(name: String, known: String)] {
        try await database.performReading { try self.knownExercises(resembling: names) }
    }
}
