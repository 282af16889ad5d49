import Foundation
import SQLiteQuery

/// A date as people say it, parsed: what every date option of the `logbook` tool (`--from`, `--to`,
/// `--on`, `--since`, `--at`, `--as-of`) and every date in a `--where` filter accepts. Words that
/// depend on the clock and the calendar (`today`, `monday`, `7d`) are kept as said and become days
/// only in ``resolved(now:in:)``, with the clock and the time zone.
///
/// | text | means |
/// |---|---|
/// | `now` | this instant |
/// | `today`, `yesterday`, `tomorrow` | that day in the time zone |
/// | `monday` … `sunday` (or `mon` … `sun`) | the most recent such day, today included |
/// | `7d`, `2w`, `3m`, `1y` (optionally followed by `ago`) | that many days, weeks, months or years before today |
/// | `2026-11-19` | that day |
/// | `2026-11` | the days of that month |
/// | `2026-W47` | the days of that ISO 8601 week, Monday to Sunday |
/// | `2026` | the days of that year |
/// | `2026-11-19 07:30`, `2026-11-19T07:30:15` | that wall-clock time in the time zone |
/// | `2026-11-19T07:30:00Z`, `…+02:00`, fractional seconds allowed | that instant |
public enum DateExpression: Sendable, Equatable, CustomStringConvertible {
    /// `now`.
    case now
    /// `today` (0), `yesterday` (-1), `tomorrow` (1), `7d` (-7): days from today.
    case daysFromToday(Int)
    /// `3m`: the same day of the month this many months before today (the month's last day when
    /// it is shorter); `1y`: twelve months per year.
    case monthsBeforeToday(Int)
    /// `monday` (1) … `sunday` (7): the most recent such day, today included.
    case weekday(Int)
    /// `2026`.
    case year(Int)
    /// `2026-11`.
    case month(year: Int, month: Int)
    /// `2026-W47`.
    case isoWeek(year: Int, week: Int)
    /// `2026-11-19`.
    case day(CalendarDay)
    /// `2026-11-19 07:30`: a day and the seconds after its midnight on a wall clock of the time zone.
    case wallClock(CalendarDay, seconds: Int)
    /// `2026-11-19T07:30:00Z`: an exact instant.
    case instant(Date)

    /// What an expression means once the clock and the time zone are known.
    public enum Resolved: Sendable, Equatable {
        /// An instant: `now`, a time of day, or an ISO-8601 instant.
        case instant(Date)
        /// Whole calendar days, first to last (one day for `today`).
        case days(ClosedRange<CalendarDay>)

        /// The first day: the day itself, a range's first, or the day an instant falls on in `timeZone`.
        public func firstDay(in timeZone: TimeZone) -> CalendarDay {
            switch self {
            case .instant(let date): CalendarDay(date, in: timeZone)
            case .days(let days): days.lowerBound
            }
        }

        /// The last day: the day itself, a range's last, or the day an instant falls on in `timeZone`.
        public func lastDay(in timeZone: TimeZone) -> CalendarDay {
            switch self {
            case .instant(let date): CalendarDay(date, in: timeZone)
            case .days(let days): days.upperBound
            }
        }

        /// The instant: itself, or the start of the first day in `timeZone`.
        public func start(in timeZone: TimeZone) -> Date {
            switch self {
            case .instant(let date): date
            case .days(let days): days.lowerBound.start(in: timeZone)
            }
        }
    }

    /// The expression in its canonical text (`7d`, `2026-W05`), for messages.
    public var description: String {
        switch self {
        case .now: "now"
        case .daysFromToday(0): "today"
        case .daysFromToday(-1): "yesterday"
        case .daysFromToday(1): "tomorrow"
        case .daysFromToday(let count): count < 0 ? "\(-count)d" : "in \(count)d"
        case .monthsBeforeToday(let count): "\(count)m"
        case .weekday(let weekday): Self.weekdays[weekday - 1]
        case .year(let year): String(format: "%04d", year)
        case .month(let year, let month): String(format: "%04d-%02d", year, month)
        case .isoWeek(let year, let week): String(format: "%04d-W%02d", year, week)
        case .day(let day): day.description
        case .wallClock(let day, let seconds): "\(day) " + String(format: "%02d:%02d:%02d", seconds / 3_600, seconds / 60 % 60, seconds % 60)
        case .instant(let date): date.textForMessages
        }
    }

    /// Every form with what it means: the one table behind `logbook help dates` and the README's
    /// (a test keeps the README's rows equal to these).
    public static let forms: [(text: String, meaning: String)] = [
        ("`today`, `yesterday`, `tomorrow`", "that calendar day"),
        ("`monday` … `sunday` (`mon` … `sun`)", "the most recent such day, today included"),
        ("`7d`, `2w`, `3m`, `1y` (`7d ago`)",
         "that many days, weeks, months, years before today (`1m` from March 31 is the last day of February)"),
        ("`2026-11-19`", "that day (as an instant: its first moment; refused on a day the time zone skipped whole)"),
        ("`2026-11`, `2026-W47`, `2026`", "the days of that month, ISO 8601 week (Monday to Sunday), year (as an instant: its first day's first moment)"),
        ("`2026-11-19 07:30`, `2026-11-19T07:30:15`",
         "that time on a clock of the time zone (in a gap, moved on by the gap's length: 02:30 where 02:00 became 03:00 is 03:30; twice in an overlap, the first)"),
        ("`2026-11-19T07:30:00Z`, `…+02:00`, `…T07:30:00.123456Z`", "that instant"),
        ("`now`", "this instant"),
    ]

    /// The forms, for messages: what was expected.
    public static let expectedForms = "a day (2026-11-19, today, yesterday, monday, 7d, 2w, 3m), a month (2026-11), "
        + "an ISO week (2026-W47), a year (2026), or a time (2026-11-19 07:30, 2026-11-19T07:30:00Z)"

    private static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Each word that is a date (lowercase), with the date it says: `now`, `today`, `yesterday`,
    /// `tomorrow`, and each weekday by name and by its first three letters.
    private static let dateOfWord: [String: DateExpression] = {
        var words = ["now": DateExpression.now, "today": .daysFromToday(0), "yesterday": .daysFromToday(-1),
                     "tomorrow": .daysFromToday(1)]
        for (index, weekday) in weekdays.enumerated() {
            words[weekday] = .weekday(index + 1)
            words[String(weekday.prefix(3))] = .weekday(index + 1)
        }
        return words
    }()

    /// The words that are dates (lowercase). A filter reads them as dates, not fields.
    public static let words = Set(dateOfWord.keys)

    /// Parses `text` (words in any case, surrounding spaces ignored), or nil when it is none of the forms.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        let word = text.lowercased()
        if let date = Self.dateOfWord[word] {
            self = date
            return
        }
        if let relative = Self.relative(word) {
            self = relative
            return
        }
        guard let calendar = Self.calendarForm(text) else { return nil }
        self = calendar
    }

    /// Why ``init(_:)`` reads no date in `text`, for a message: what is wrong with a date written
    /// in one of the forms (an instant outside the years Logbook stores, a day the calendar does not
    /// have, a count of days past them), else the forms expected.
    public static func problem(reading text: String) -> String {
        let text = text.trimmingCharacters(in: .whitespaces)
        // A count of the form past the days stored (`4000001d`), or a year of other than four
        // digits, or 0000, before a month (`0000-01-01`, `10000-06`).
        let year = text.prefix { $0.isASCII && $0.isNumber }
        let isYearOutside = year.count >= 4 && text.dropFirst(year.count).first == "-" && !CalendarDay.supportedYears.contains(Int(year) ?? 0)
        if countAndUnit(text.lowercased()) != nil || isYearOutside || Date.reading(iso8601: text) == .outsideSupportedRange {
            return "outside \(CalendarDay.supportedYearsText)"
        }
        // 2026-02-29 or 2026-04-31 (alone or before a time): each part in range, but no such day.
        let dayText = text.prefix(10), parts = dayText.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, zip(parts, [4, 2, 2]).allSatisfy({ $0.count == $1 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
           let month = Int(parts[1]), (1...12).contains(month), let day = Int(parts[2]), (1...31).contains(day),
           CalendarDay(dayText) == nil {
            return "\(dayText) is no day of the calendar"
        }
        return "expected \(expectedForms)"
    }

    /// `7d`, `2w`, `3m`, `1y`, with an optional ` ago`.
    private static func relative(_ word: String) -> DateExpression? {
        guard let (digits, unit) = countAndUnit(word), let count = Int(digits), count <= 4_000_000 else { return nil }
        switch unit {
        case "d": return .daysFromToday(-count)
        case "w": return .daysFromToday(-7 * count)
        case "m": return .monthsBeforeToday(count)
        default: return .monthsBeforeToday(12 * count)
        }
    }

    /// The digits and the unit of `7d`, `2w`, `3m`, `1y` (lowercase), with an optional ` ago`, of
    /// any number of digits; nil for another form.
    private static func countAndUnit(_ word: String) -> (digits: Substring, unit: Character)? {
        let trimmed = (word.hasSuffix("ago") ? String(word.dropLast(3)) : word).trimmingCharacters(in: .whitespaces)
        guard let unit = trimmed.last, "dwmy".contains(unit), trimmed.count >= 2,
              trimmed.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return (Substring(trimmed).dropLast(), unit)
    }

    /// `2026`, `2026-11`, `2026-W47`, `2026-11-19`, a wall-clock time, or an ISO-8601 instant.
    private static func calendarForm(_ text: String) -> DateExpression? {
        let digits = { (part: Substring) in part.allSatisfy { $0.isASCII && $0.isNumber } }
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard let yearText = parts.first, yearText.count == 4, digits(yearText), let year = Int(yearText),
              CalendarDay.supportedYears.contains(year) else { return nil }
        if parts.count == 1 { return .year(year) }
        if parts.count == 2 {
            let second = parts[1]
            if second.count == 3, second.first == "W" || second.first == "w", digits(second.dropFirst()),
               let week = Int(second.dropFirst()), (1...53).contains(week) {
                return .isoWeek(year: year, week: week)
            }
            guard second.count == 2, digits(second), let month = Int(second), (1...12).contains(month) else { return nil }
            return .month(year: year, month: month)
        }
        if let day = CalendarDay(text) { return .day(day) }
        if let date = Date(iso8601: text) { return .instant(date) }
        return wallClock(text)
    }

    /// `YYYY-MM-DD HH:MM[:SS]` or `YYYY-MM-DDTHH:MM[:SS]`, no zone: a wall-clock time; with a
    /// zone but no seconds (`…T07:30Z`), the instant.
    private static func wallClock(_ text: String) -> DateExpression? {
        guard text.count >= 16, let day = CalendarDay(text.prefix(10)) else { return nil }
        let separator = text[text.index(text.startIndex, offsetBy: 10)]
        guard separator == " " || separator == "T" || separator == "t" else { return nil }
        let rest = text.dropFirst(11)
        let clock = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ":") }
        let zone = rest.dropFirst(clock.count)
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ $0.count == 2 }),
              let hour = Int(fields[0]), let minute = Int(fields[1]), hour < 24, minute < 60 else { return nil }
        let second = fields.count == 3 ? Int(fields[2]) ?? 60 : 0
        guard second < 60 else { return nil }
        if zone.isEmpty { return .wallClock(day, seconds: hour * 3_600 + minute * 60 + second) }
        guard fields.count == 2 else { return nil }  // with seconds, Date(iso8601:) already said no
        return Date(iso8601: "\(text.prefix(10))T\(clock):00\(zone)").map { .instant($0) }
    }

    /// What the expression means at `now` in `timeZone`. Throws
    /// ``LogbookError/invalidValue(field:value:reason:)`` when it falls outside the days Logbook
    /// stores (`9999-12-31` plus one day, `2026-W53` in a year of 52 weeks).
    public func resolved(now: Date, in timeZone: TimeZone) throws -> Resolved {
        // A clock outside the calendar's years has no today to count from: clamped to 9999-12-31,
        // `history delete --day today` deleted that day at 10000-01-01 (helper-77).
        var today: CalendarDay {
            get throws {
                guard let today = CalendarDay(exactly: now, in: timeZone) else {
                    throw LogbookError.invalidValue(field: "date", value: description, reason: "the system clock reads \(now.textForMessages), "
                                                        + "whose day in time zone \(timeZone.nameForPeople) is outside \(CalendarDay.supportedYearsText)")
                }
                return today
            }
        }
        func day(_ value: CalendarDay?) throws -> Resolved {
            guard let value else {
                throw LogbookError.invalidValue(field: "date", value: description, reason: "outside \(CalendarDay.supportedYearsText)")
            }
            return .days(value...value)
        }
        switch self {
        case .now:
            return .instant(now)
        case .daysFromToday(let count):
            return try day(try today.adding(days: count))
        case .monthsBeforeToday(let count):
            let today = try today
            let months = today.year * 12 + (today.month - 1) - count
            let (year, month) = (months >= 0 ? months / 12 : (months - 11) / 12, ((months % 12) + 12) % 12 + 1)
            guard CalendarDay.supportedYears.contains(year) else { return try day(nil) }
            return try day(CalendarDay(year: year, month: month, day: min(today.day, ProlepticGregorian.daysInMonth(year: year, month: month))))
        case .weekday(let weekday):
            let today = try today
            return try day(today.adding(days: -((today.daysSinceMonday + 1 - weekday + 7) % 7)))
        case .year(let year):
            return .days(CalendarDay(year: year, month: 1, day: 1)!...CalendarDay(year: year, month: 12, day: 31)!)
        case .month(let year, let month):
            let first = CalendarDay(year: year, month: month, day: 1)!
            let last = CalendarDay(year: year, month: month, day: ProlepticGregorian.daysInMonth(year: year, month: month))!
            return .days(first...last)
        case .isoWeek(let year, let week):
            let label = String(format: "%04d-W%02d", year, week)
            guard let monday = ReportPeriod.firstDay(ofPeriod: label), let thursday = monday.adding(days: 3),
                  thursday.year == year else {
                throw LogbookError.invalidValue(field: "date", value: label, reason: "\(year) has no ISO week \(week)")
            }
            // 9999-W52 ends on 10000-01-02: its days are those the calendar has, as its report row counts.
            return .days(monday...(monday.adding(days: 6) ?? .last))
        case .day(let value):
            return .days(value...value)
        case .wallClock(let value, let seconds):
            return .instant(Self.instant(at: seconds, on: value, in: timeZone))
        case .instant(let date):
            return .instant(date)
        }
    }

    /// The instant a wall clock in `timeZone` shows `seconds` after the midnight of `day`: in a
    /// gap (clocks put forward), moved on by the gap's length; in an overlap (clocks put back),
    /// the earlier one.
    static func instant(at seconds: Int, on day: CalendarDay, in timeZone: TimeZone) -> Date {
        // The wall clock read as if it were UTC; the offsets in force around it are the candidates.
        let wall = Date(timeIntervalSince1970: Double(day.dayNumber * 86_400 + seconds))
        let before = timeZone.secondsFromGMT(for: wall - 86_400)
        let offsets = [before, timeZone.secondsFromGMT(for: wall), timeZone.secondsFromGMT(for: wall + 86_400)]
        let instants = offsets.map { wall - Double($0) }.filter { timeZone.secondsFromGMT(for: $0) == Int(wall.timeIntervalSince($0)) }
        // None shows that wall clock: it falls in a gap, and the offset before the gap puts it after.
        return instants.min() ?? wall - Double(before)
    }
}
