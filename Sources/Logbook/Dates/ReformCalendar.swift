import SQLiteQuery

/// The calendar in which Foundation's `PropertyListEncoder` writes, and `PropertyListDecoder`
/// reads, the text of an XML property list's `<date>`: the Gregorian calendar from its reform,
/// 1582-10-15, and the Julian calendar before it (the calendar Foundation's `Calendar` calls
/// Gregorian). That is swift-foundation's encoder and decoder, Swift 6's on Linux and Apple's on
/// its systems since swift-foundation replaced them (whose own tests expect it in both; measured
/// here on Linux only; an older system's decoder may read the text otherwise). `PropertyListSerialization`, the parser Logbook
/// reads property lists with and the history app's loader, reads the same text in the proleptic
/// Gregorian calendar, as ISO 8601 does. Before the reform the two readings of one text are up to
/// ten days apart (two days in year 1, five in year 1000): a draft the app had submitted at
/// `1000-01-01T00:00:00Z` was stored five days earlier than the app reads it (helper-94).
enum ReformCalendar {
    /// A day of a calendar, by its numbers.
    struct Day: Comparable {
        var year: Int, month: Int, day: Int

        static func < (lhs: Day, rhs: Day) -> Bool {
            (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
        }
    }

    /// The first day of the Gregorian calendar; the day before it is the Julian 1582-10-04.
    static let firstGregorianDay = Day(year: 1582, month: 10, day: 15)

    /// The ten days the reform skipped, 1582-10-05 to 1582-10-14: no day of this calendar, which
    /// `PropertyListDecoder` reads leniently as the Julian days they would have been (the ten
    /// days from 1582-10-15 on).
    static func isSkippedByTheReform(_ day: Day) -> Bool {
        day.year == 1582 && day.month == 10 && (5...14).contains(day.day)
    }

    /// Whether `day` (month 1…12, day 1…31) is a day of the Julian calendar that the proleptic
    /// Gregorian calendar lacks: February 29 of a year divisible by 4 and not a Gregorian leap
    /// year (1500-02-29), before the reform.
    static func isJulianLeapDayOnly(_ day: Day) -> Bool {
        day.month == 2 && day.day == 29 && day.year % 4 == 0 && day < firstGregorianDay
            && !ProlepticGregorian.isLeapYear(day.year)
    }

    /// The proleptic Gregorian day that is the same day as `day` read in this calendar: `day`
    /// itself from the reform on, and the Julian day's Gregorian date before it (Julian
    /// 1582-10-04 is 1582-10-14, Julian 0001-01-01 is 0000-12-30). For a day of year 0001 on,
    /// before the reform, that the Julian calendar has; no day skipped by the reform.
    static func prolepticDay(of day: Day) -> Day {
        guard day < firstGregorianDay else { return day }
        // Julian day number (days since 4713 BC, Julian), then as a day of the Unix epoch.
        let shift = (14 - day.month) / 12
        let year = day.year + 4_800 - shift, month = day.month + 12 * shift - 3
        let julianDayNumber = day.day + (153 * month + 2) / 5 + 365 * year + year / 4 - 32_083
        let (y, m, d) = ProlepticGregorian.date(ofDayNumber: julianDayNumber - unixEpochJulianDayNumber)
        return Day(year: y, month: m, day: d)
    }

    /// The Julian day number of 1970-01-01, day 0 of ``ProlepticGregorian``.
    private static let unixEpochJulianDayNumber = 2_440_588
}
