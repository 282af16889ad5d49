import Foundation

/// One period of `report history`.
public struct HistoryReportRow: Sendable, Hashable, Codable, Identifiable {
    /// The period's label, as ``ReportPeriod`` shows: `2026-01-31`, `2026-W05` (the ISO week belongs to the
    /// year of its Thursday), `2026-01` or `2026`.
    public var period: String
    /// The period's first day: the day itself, the Monday of an ISO week, the 1st of a month or
    /// January 1st of a year; for a chart's axis, `start.start(in: store.timeZone)` is its first
    /// instant as a `Date`. Encoded beside the label.
    public var start: CalendarDay
    /// Days in the period with at least one exercise.
    public var activeDays: Int
    /// Exercises done, counting repeats.
    public var exercises: Int
    /// Different exercise names (canonically equivalent names are one).
    public var distinctExercises: Int
    /// The most done exercise (ties: the first by name), nil for an empty period.
    public var topExercise: String?

    /// A row with the values given.
    public init(period: String, start: CalendarDay, activeDays: Int, exercises: Int, distinctExercises: Int, topExercise: String?) {
        self.period = period
        self.start = start
        self.activeDays = activeDays
        self.exercises = exercises
        self.distinctExercises = distinctExercises
        self.topExercise = topExercise
    }

    /// The period's label, unique in a report.
    public var id: String { period }

    private enum CodingKeys: String, CodingKey {
        case period, start, activeDays, exercises, distinctExercises, topExercise
    }

    /// Decodes a row; one without `start` (the CLI's `report history --format json` prints the
    /// label only) takes the first day its label names, and a label that names none is an error.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        period = try container.decode(String.self, forKey: .period)
        if let start = try container.decodeIfPresent(CalendarDay.self, forKey: .start) {
            self.start = start
        } else if let start = ReportPeriod.firstDay(ofPeriod: period) {
            self.start = start
        } else {
            throw DecodingError.dataCorruptedError(forKey: .period, in: container,
                                                   debugDescription: "'\(period)' names no day, week, month or year")
        }
        activeDays = try container.decode(Int.self, forKey: .activeDays)
        exercises = try container.decode(Int.self, forKey: .exercises)
        distinctExercises = try container.decode(Int.self, forKey: .distinctExercises)
        topExercise = try container.decodeIfPresent(String.self, forKey: .topExercise)
    }
}

/// One exercise name of `report exercises`.
public struct ExerciseReportRow: Sendable, Hashable, Codable, Identifiable {
    /// The exercise name; canonically equivalent spellings (NFC and NFD) are one row, shown in the spelling
    /// whose UTF-8 bytes sort first.
    public var exercise: String
    /// Times done in the range, counting repeats on one day.
    public var count: Int
    /// Calendar days in the range on which it was done at least once.
    public var days: Int
    /// The first day in the range on which it was done.
    public var firstDay: CalendarDay
    /// The last day in the range on which it was done.
    public var lastDay: CalendarDay

    /// The exercise name, unique in a report.
    public var id: String { exercise }
}

/// `report streaks`: runs of consecutive calendar days with an exercise (a day record another
/// program emptied of its exercises breaks a run, as it counts as no active day in the history
/// report).
public struct StreakReport: Sendable, Hashable, Codable {
    /// The run that ends on `asOf`, or on the day before when `asOf` has no record yet (the
    /// streak is still alive); 0 when neither day has one.
    public var currentStreak: Int
    /// The length in days of the longest run in the range, up to `asOf`; 0 when there is none.
    public var longestStreak: Int
    /// The longest run's first and last day (the latest such run when several tie); nil with no history.
    public var longestStart: CalendarDay?
    /// The longest run's last day; nil with no history.
    public var longestEnd: CalendarDay?
    /// The day the streaks are counted up to: the one asked for, else today in the store's time zone.
    public var asOf: CalendarDay
}

/// One draft of `report drafts`.
public struct DraftReportRow: Sendable, Hashable, Codable, Identifiable {
    /// The draft's id.
    public var id: UUID
    /// The draft's version, as stored (may be empty).
    public var version: String
    /// Whether the draft has a submission date.
    public var isSubmitted: Bool
    /// When the draft was submitted; nil until then.
    public var submittedAt: Date?
    /// Checklist items checked.
    public var done: Int
    /// Checklist items in all.
    public var total: Int

    /// The app's progress line: "2 of 4 done".
    public var summary: String { "\(done) of \(total) done" }
}
