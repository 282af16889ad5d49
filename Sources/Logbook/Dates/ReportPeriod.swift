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

    /// The first day of the period a report labels `label` (`2026-01-31`, `2026-W05`, `2026-01`,
    /// `2026`), or nil for text that is no such label.
    public static func firstDay(ofPeriod label: String) -> CalendarDay? {
        let parts = label.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, first.count == 4, let year = Int(first) else { return nil }
        switch parts.count {
        case 1:
            return CalendarDay(year: year, month: 1, day: 1)
        case 2 where parts[1].hasPrefix("W"):
            // ISO 8601: week 1 is the week holding January 4th; weeks start on Monday.
            guard parts[1].count == 3, let week = Int(parts[1].dropFirst()), (1...53).contains(week),
                  let january4 = CalendarDay(year: year, month: 1, day: 4) else { return nil }
            return january4.adding(days: 7 * (week - 1) - january4.daysSinceMonday)
        case 2:
            guard parts[1].count == 2, let month = Int(parts[1]) else { return nil }
            return CalendarDay(year: year, month: month, day: 1)
        default:
            return CalendarDay(label)
        }
    }
}

extension ReportPeriod {
    /// The first day of the period that `day` falls in: the day itself, the Monday of its ISO
    /// week (0001-01-01 was a Monday, so every day has one), the 1st of its month, January 1st.
    func start(of day: CalendarDay) -> CalendarDay {
        switch self {
        case .day: day
        case .week: CalendarDay(dayNumber: day.dayNumber - day.daysSinceMonday) ?? .first
        case .month: CalendarDay(year: day.year, month: day.month, day: 1) ?? .first
        case .year: CalendarDay(year: day.year, month: 1, day: 1) ?? .first
        }
    }

    /// The first day of the period after the one that starts on `start`, or nil after 9999.
    func start(after start: CalendarDay) -> CalendarDay? {
        switch self {
        case .day: start.adding(days: 1)
        case .week: start.adding(days: 7)
        case .month: start.month == 12 ? CalendarDay(year: start.year + 1, month: 1, day: 1)
                                       : CalendarDay(year: start.year, month: start.month + 1, day: 1)
        case .year: CalendarDay(year: start.year + 1, month: 1, day: 1)
        }
    }

    /// The last day of the period that starts on `start` (9999-12-31 for a week that runs past it).
    func end(ofPeriodStartingOn start: CalendarDay) -> CalendarDay {
        self.start(after: start)?.adding(days: -1) ?? .last
    }

    /// The label of the period that starts on `start`: `2026-01-31`, `2026-W05` (the ISO week
    /// belongs to the year of its Thursday, and is numbered by that Thursday's day of the year),
    /// `2026-01`, `2026`.
    func label(ofPeriodStartingOn start: CalendarDay) -> String {
        switch self {
        case .day:
            return start.description
        case .week:
            // A week starts on a Monday, so its Thursday is a day of years 0001 to 9999 too
            // (9999-12-31 is a Friday).
            let thursday = start.adding(days: 3) ?? start
            return String(unsafeUninitializedCapacity: 8) { buffer in
                CalendarDay.writeFourDigits(thursday.year, into: buffer, at: 0)
                buffer[4] = UInt8(ascii: "-")
                buffer[5] = UInt8(ascii: "W")
                CalendarDay.writeTwoDigits((thursday.dayOfYear - 1) / 7 + 1, into: buffer, at: 6)
                return 8
            }
        case .month:
            return String(unsafeUninitializedCapacity: 7) { buffer in
                CalendarDay.writeFourDigits(start.year, into: buffer, at: 0)
                buffer[4] = UInt8(ascii: "-")
                CalendarDay.writeTwoDigits(start.month, into: buffer, at: 5)
                return 7
            }
        case .year:
            return String(unsafeUninitializedCapacity: 4) { buffer in
                CalendarDay.writeFourDigits(start.year, into: buffer, at: 0)
                return 4
            }
        }
    }
}

extension ReportPeriod {
    /// The days of the periods that lie wholly inside `first...last`: from the first day of the
    /// first such period to the last day of the last, or nil when there is none.
    func wholePeriods(from first: CalendarDay, through last: CalendarDay) -> ClosedRange<CalendarDay>? {
        let firstStart = start(of: first)
        let lastStart = start(of: last)
        guard let lower = firstStart == first ? first : start(after: firstStart),
              let upper = end(ofPeriodStartingOn: lastStart) == last ? last : lastStart.adding(days: -1),
              lower <= upper else { return nil }
        return lower...upper
    }
}
