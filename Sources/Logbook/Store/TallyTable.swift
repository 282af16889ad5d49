/// How the tallies store each period they count per exercise name (migrations 0004 and 0011):
/// `exercise_weeks` keyed by the week's Monday, `exercise_months` by `YYYY-MM`, `exercise_years` by
/// `YYYY`; the months and years also hold the days done and the first and last of them.
extension ReportPeriod {
    /// The periods the tallies count, in the order they are written.
    static let tallied: [ReportPeriod] = [.week, .month, .year]

    /// The tally table of a week, month or year.
    var tallyTable: String {
        switch self {
        case .day: preconditionFailure("days are totalled in exercise_day_totals, not tallied per name")
        case .week: "exercise_weeks"
        case .month: "exercise_months"
        case .year: "exercise_years"
        }
    }

    /// The tally table's column holding the period's key.
    var tallyColumn: String { rawValue }

    /// Whether the tally rows also hold `days`, `first_day` and `last_day`.
    var talliesDays: Bool { self != .week }

    /// The period's key in its tally table, as SQL of the period's first day `start` (`YYYY-MM-DD`).
    func tallyKey(ofStart start: String) -> String {
        switch self {
        case .day, .week: start
        case .month: "substr(\(start), 1, 7)"
        case .year: "substr(\(start), 1, 4)"
        }
    }

    /// The period's first day, as SQL of its key `key` in the tally table.
    func start(ofTallyKey key: String) -> String {
        switch self {
        case .day, .week: key
        case .month: "\(key) || '-01'"
        case .year: "\(key) || '-01-01'"
        }
    }

    /// The last day of the period that starts on the day `start` (SQL of `YYYY-MM-DD`), as SQL
    /// (for a month, its 31st: every day of the month sorts on or before it).
    func endSQL(ofStart start: String) -> String {
        switch self {
        case .day: start
        case .week: "coalesce(date(\(start), '+6 days'), '9999-12-31')"  // date() is NULL past 9999
        case .month: "substr(\(start), 1, 7) || '-31'"
        case .year: "substr(\(start), 1, 4) || '-12-31'"
        }
    }

    /// The first day of the period that the day `day` (SQL of `YYYY-MM-DD`) falls in, as SQL.
    func startSQL(of day: String) -> String {
        switch self {
        case .day: day
        case .week: "date(\(day), '-6 days', 'weekday 1')"
        case .month: "substr(\(day), 1, 7) || '-01'"
        case .year: "substr(\(day), 1, 4) || '-01-01'"
        }
    }
}
