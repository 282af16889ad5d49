import Foundation

/// The exercises done on one calendar day. There is never more than one record per day.
public struct ExerciseDay: Codable, Sendable, Hashable, Identifiable {
    /// The record's identity, unique in the store.
    public var id: UUID
    /// The instant of the day's first exercise.
    public var date: Date
    /// The calendar day in the store's time zone when the record was written; never recomputed.
    public var day: CalendarDay
    /// Exercise names in the order done; a name appears once per time it was done.
    public var exercises: [String]

    /// A record with the values given, unchecked (the repository validates it when it is saved). `day` is not
    /// derived from `date`: pass the day `date` falls on in the time zone the exercises were done in, as
    /// ``CalendarDay/storable(_:in:field:)`` computes it.
    public init(id: UUID = UUID(), date: Date, day: CalendarDay, exercises: [String]) {
        self.id = id
        self.date = date
        self.day = day
        self.exercises = exercises
    }
}
