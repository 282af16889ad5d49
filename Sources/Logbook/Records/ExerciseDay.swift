import Foundation

/// The exercises done on one calendar day. There is never more than one record per day.
public struct ExerciseDay: Codable, Sendable, Hashable, Identifiable {
    public var id: UUID
    /// The instant of the day's first exercise.
    public var date: Date
    /// The calendar day in the store's time zone when the record was written; never recomputed.
    public var day: CalendarDay
    /// Exercise names in the order done; a name appears once per time it was done.
    public var exercises: [String]

    public init(id: UUID = UUID(), date: Date, day: CalendarDay, exercises: [String]) {
        self.id = id
        self.date = date
        self.day = day
        self.exercises = exercises
    }
}
