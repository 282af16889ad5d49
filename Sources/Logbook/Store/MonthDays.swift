import SQLiteQuery

/// `exercise_month_days` (migrations 0018 and 0021): the tallied days of each month that have a
/// row in `exercise_day_totals` (an exercise), as the bits of one integer (bit d - 1 for day d),
/// so that the streak report reads one row per month. A day that waits to be tallied
/// (``TalliedThrough``) has no bit yet: the report reads those few from their day totals, and a
/// small save writes one page less. Written with the rows of the day totals that
/// ``ExerciseTallies`` writes for tallied days and when it counts the waiting days
/// (``add(_:in:)``), and recomputed from the day totals for the months of the days it recounts in
/// SQL (``recount(monthsOfDaysIn:in:)``; no day waits then), which are the only writes that take a
/// day out of the day totals.
enum MonthDays {
    /// Sets the bits of `days` (each with a row in the day totals now) in their months' rows: one
    /// statement per run of days in one month (a bulk import's days come in order).
    static func add(_ days: some Sequence<CalendarDay>, in connection: Connection) throws {
        var month: (start: CalendarDay, days: Int)?
        for day in days {
            let start = ReportPeriod.month.start(of: day)
            if let pending = month, pending.start != start {
                try add(pending.days, toMonthStarting: pending.start, in: connection)
                month = nil
            }
            month = (start, (month?.days ?? 0) | bit(of: day))
        }
        if let month { try add(month.days, toMonthStarting: month.start, in: connection) }
    }

    /// A row of one statement: a statement that may write several rows and abort half-way keeps a
    /// statement journal (``ReplacingRowBatch``), and an upsert's `DO UPDATE` may abort.
    private static func add(_ days: Int, toMonthStarting start: CalendarDay, in connection: Connection) throws {
        try connection.run("""
            INSERT INTO exercise_month_days (start, days) VALUES (?1, ?2)
            ON CONFLICT (start) DO UPDATE SET days = days | excluded.days
            """, [start.databaseValue, .integer(Int64(days))])
    }

    /// The bit of `day` in its month's `days`.
    static func bit(of day: CalendarDay) -> Int { 1 << (day.day - 1) }

    /// SQL true when the day whose text is in the column `day` has its bit set.
    static func isSetSQL(_ day: String) -> String {
        """
        EXISTS (SELECT 1 FROM exercise_month_days WHERE start = \(ReportPeriod.month.startSQL(of: day)) \
        AND (days >> (CAST(substr(\(day), 9, 2) AS INTEGER) - 1)) & 1)
        """
    }

    /// Tells whether days have their bit, reading a month's row once for a run of days in it.
    struct Reader {
        private var month: (start: CalendarDay, days: Int?)?

        /// Whether `day`'s bit is set; nil when its month's row holds no integer (another
        /// program's value, which `check` names).
        mutating func isSet(_ day: CalendarDay, in connection: Connection) throws -> Bool? {
            let start = ReportPeriod.month.start(of: day)
            if month?.start != start {
                let row = try connection.cachedStatement("SELECT days FROM exercise_month_days WHERE start = ?")
                defer { row.reset() }
                try row.bind(start, at: 1)
                let days: DatabaseValue = try row.step() ? row.column(0) : .integer(0)
                if case .integer(let bits) = days { month = (start, Int(bits)) } else { month = (start, nil) }
            }
            return month?.days.map { $0 & MonthDays.bit(of: day) != 0 }
        }
    }

    /// Recomputes from the day totals the rows of the months of the days in `days` (SQL of a
    /// relation with a column `day`), deleting those of months left with no exercise.
    static func recount(monthsOfDaysIn days: String, in connection: Connection) throws {
        let months = "SELECT DISTINCT \(ReportPeriod.month.startSQL(of: "day")) AS start FROM \(days)"
        try connection.execute("""
            DELETE FROM exercise_month_days WHERE start IN (\(months));
            INSERT INTO exercise_month_days (start, days) \(rows(days: """
                (SELECT t.day FROM (\(months)) AS m
                 CROSS JOIN exercise_day_totals AS t ON t.day BETWEEN m.start AND \(ReportPeriod.month.endSQL(ofStart: "m.start")))
                """));
            """)
    }

    /// Rows of `exercise_month_days` for the days in `days` (SQL of a relation with a column `day`,
    /// each day once), leaving out a day whose text is no calendar day (another program's).
    static func rows(days: String) -> String {
        """
        SELECT \(ReportPeriod.month.startSQL(of: "day")) AS start, sum(1 << (CAST(substr(day, 9, 2) AS INTEGER) - 1)) AS days
        FROM \(days) WHERE \(StoredValueAudit.isCalendarDay("day")) GROUP BY 1
        """
    }
}
