import Foundation

/// The `async` forms: each runs its synchronous namesake on the store's queue, never on the
/// caller's thread or actor, and stops its SQL when the task is cancelled.
extension Reports {
    /// The history report's rows, off the caller's thread.
    public func history(by period: ReportPeriod = .week, from: CalendarDay? = nil, to: CalendarDay? = nil) async throws -> [HistoryReportRow] {
        try await database.perform { try self.history(by: period, from: from, to: to) }
    }

    /// The exercises report's rows, off the caller's thread.
    public func exercises(from: CalendarDay? = nil, to: CalendarDay? = nil) async throws -> [ExerciseReportRow] {
        try await database.perform { try self.exercises(from: from, to: to) }
    }

    /// The streaks, off the caller's thread.
    public func streaks(from: CalendarDay? = nil, to: CalendarDay? = nil, asOf: CalendarDay? = nil) async throws -> StreakReport {
        try await database.perform { try self.streaks(from: from, to: to, asOf: asOf) }
    }

    /// The drafts report's rows, off the caller's thread.
    public func drafts(from: CalendarDay? = nil, to: CalendarDay? = nil) async throws -> [DraftReportRow] {
        try await database.perform { try self.drafts(from: from, to: to) }
    }

    /// `readsTallies()` off the caller's thread.
    public func readsTallies() async throws -> Bool {
        try await database.perform { try self.readsTallies() }
    }
}
