import Foundation

/// How `report history` groups days.
public enum ReportPeriod: String, Sendable, CaseIterable {
    /// `2026-01-31`
    case day
    /// ISO 8601 weeks, Monday first: `2026-W05`
    case week
    /// `2026-01`
    case month
    /// `2026`
    case year
}

/// One period of `report history`.
public struct HistoryReportRow: Sendable, Equatable {
    public var period: String
    /// Days in the period with at least one exercise.
    public var activeDays: Int
    /// Exercises done, counting repeats.
    public var exercises: Int
    /// Different exercise names (canonically equivalent names are one).
    public var distinctExercises: Int
    /// The most done exercise (ties: the first by name), nil for an empty period.
    public var topExercise: String?
}

/// One exercise name of `report exercises`.
public struct ExerciseReportRow: Sendable, Equatable {
    public var exercise: String
    public var count: Int
    public var days: Int
    public var firstDay: CalendarDay
    public var lastDay: CalendarDay
}

/// `report streaks`: runs of consecutive calendar days with exercise.
public struct StreakReport: Sendable, Equatable {
    /// The run that ends on `asOf`, or on the day before when `asOf` has no exercise yet (the
    /// streak is still alive); 0 when neither day has exercise.
    public var currentStreak: Int
    public var longestStreak: Int
    /// The longest run's first and last day (the latest such run when several tie); nil with no history.
    public var longestStart: CalendarDay?
    public var longestEnd: CalendarDay?
    public var asOf: CalendarDay
}

/// One draft of `report drafts`.
public struct DraftReportRow: Sendable, Equatable {
    public var id: UUID
    public var version: String
    public var isSubmitted: Bool
    public var submittedAt: Date?
    public var done: Int
    public var total: Int

    /// The app's progress line: "2 of 4 done".
    public var summary: String { "\(done) of \(total) done" }
}
