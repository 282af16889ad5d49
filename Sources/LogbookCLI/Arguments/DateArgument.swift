import Foundation
import Logbook

/// A date as the command line takes it: `2026-01-31` (the start of that day in the store's time
/// zone), `2026-01-31T08:30:00Z` or `2026-01-31T08:30:00+02:00` (fractional seconds allowed). The
/// text is checked as the option is read; the day becomes an instant once the time zone is known.
enum DateArgument: Sendable {
    case day(CalendarDay)
    case instant(Date)

    init?(_ text: String) {
        if let day = CalendarDay(text) {
            self = .day(day)
        } else if let date = Date(iso8601: text) {
            self = .instant(date)
        } else {
            return nil
        }
    }

    /// The instant: a day's start in `timeZone`, which must be an instant Logbook stores.
    func date(in timeZone: TimeZone, command: String) throws -> Date {
        switch self {
        case .instant(let date):
            return date
        case .day(let day):
            let start = day.start(in: timeZone)
            guard start.isSupported else {
                throw UsageError(message: "\(day) starts at \(start.textForMessages) in time zone \(timeZone.identifier), "
                                    + "outside the instants Logbook stores (0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999969Z)",
                                 command: command)
            }
            return start
        }
    }
}

/// `--from DAY --to DAY`: the days a listing, an export or a report covers, declared once.
enum DayRangeOptions {
    static let from = Option<CalendarDay>.day("--from", help: "Only days on or after DAY (YYYY-MM-DD).")
    static let to = Option<CalendarDay>.day("--to", help: "Only days on or before DAY.")
    static let specs = [from.spec, to.spec]
}

extension Invocation {
    /// The value of a text option, read from stdin when it is `-`.
    func text(_ option: Option<String>) throws -> String? {
        guard let value = try arguments.value(of: option) else { return nil }
        guard value == "-" else { return value }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        // Byte for byte: a byte order mark, U+0000 and CRLF are kept as read.
        guard let text = String(exactUTF8: data) else {
            throw CommandFailure("\(option.spec.name) -: stdin is not valid UTF-8")
        }
        return text
    }

    /// A date option's instant, or nil when not given.
    func date(_ option: Option<DateArgument>) throws -> Date? {
        try arguments.value(of: option)?.date(in: try timeZone(), command: arguments.command)
    }

    /// `--from` and `--to` (each nil when absent); a usage error when `--from` is after `--to`.
    func dayRange() throws -> (from: CalendarDay?, to: CalendarDay?) {
        let from = try arguments.value(of: DayRangeOptions.from), to = try arguments.value(of: DayRangeOptions.to)
        if let from, let to, from > to {
            throw UsageError(message: "--from \(from) is after --to \(to)", command: arguments.command)
        }
        return (from, to)
    }

    /// A positional argument that must be a 1-based position.
    func position(_ text: String, name: String) throws -> Int {
        guard let number = Int(text), number >= 1 else {
            throw UsageError(message: "invalid \(name) '\(text)': expected a whole number ≥ 1", command: arguments.command)
        }
        return number
    }
}
