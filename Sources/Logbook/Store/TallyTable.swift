/// How the derived data stores each period (migrations 0004, 0011 and 0012): every week, month
/// and year with an exercise has a row of `exercise_period_totals`; the months and years are also
/// tallied per exercise name, in `exercise_months` keyed by `YYYY-MM` and `exercise_years` by
/// `YYYY` (with the days done and the first and last of them), for the exercise totals. (Weeks
/// were tallied per name too, in `exercise_weeks`, until migration 0012.)
extension ReportPeriod {
    /// The periods with totals in `exercise_period_totals`, in the order they are written.
    static let totalled: [ReportPeriod] = [.week, .month, .year]

    /// The periods the tallies count per name, in the order they are written.
    static let tallied: [ReportPeriod] = [.month, .year]

    /// The tally table of a month or year.
    var tallyTable: String {
        switch self {
        case .day, .week: preconditionFailure("only months and years are tallied per name (migration 0012)")
        case .month: "exercise_months"
        case .year: "exercise_years"
        }
    }

    /// The tally table's column holding the period's key.
    var tallyColumn: String { rawValue }

    /// The period's key in its tally table, as SQL of the period's first day `start` (`YYYY-MM-DD`).
    func tallyKey(ofStart start: String) -> String {
        switch self {
        case .day, .week: start
        case .month: "substr(\(start), 1, 7)"
        case .year: "substr(\(start), 1, 4)"
        }
    }

    /// The key in the tally table of the month or year that starts on `start`, its label
    /// (`YYYY-MM`, `YYYY`): the value of ``tallyKey(ofStart:)`` computed in Swift, to bind where a
    /// statement writes several tally rows. (A statement that calls an SQL function may fail
    /// half-way, so SQLite keeps a statement journal for it when it writes several rows; see
    /// ``ReplacingRowBatch``.)
    func tallyKey(of start: CalendarDay) -> String {
        precondition(self == .month || self == .year, "only months and years are tallied per name (migration 0012)")
        return label(ofPeriodStartingOn: start)
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
