import Foundation
import Logbook

/// `--from`, `--to`, `--on` and `--since`: the days a listing, an export or a report covers,
/// declared once. Each takes any ``DateExpression``: `--from` uses its first day, `--to` its last,
/// `--on` both (`--on 2026-11` is that month), `--since` is `--from`.
enum DayRangeOptions {
    static let from = Option<DateExpression>.date("--from", help: "Only days on or after WHEN (2026-11-19, 2026-11, 7d, monday, …).")
    static let to = Option<DateExpression>.date("--to", help: "Only days on or before WHEN (the last day of a month, week or year).")
    static let on = Option<DateExpression>.date("--on", help: "Only the days of WHEN: a day, a month, an ISO week or a year.")
    static let since = Option<DateExpression>.date("--since", help: "The same as --from: since WHEN (7d, 2w, yesterday, …).")
    static let specs = [from.spec, to.spec, on.spec, since.spec]
}

extension Invocation {
    /// The value of a text option, read from stdin when it is `-`.
    func text(_ option: Option<String>) throws -> String? {
        guard let value = try arguments.value(of: option) else { return nil }
        guard value == "-" else { return value }
        let data = try StandardInput.readAll(for: "\(option.spec.name) -")
        // Byte for byte: a byte order mark, U+0000 and CRLF are kept as read.
        guard let text = String(exactUTF8: data) else {
            throw CommandFailure("\(option.spec.name) -: stdin is not valid UTF-8")
        }
        return text
    }

    /// What a date option says, read at the current time in the store's time zone; nil when not given.
    func resolved(_ option: Option<DateExpression>) throws -> DateExpression.Resolved? {
        guard let expression = try arguments.value(of: option) else { return nil }
        do {
            return try expression.resolved(now: Date(), in: try timeZone())
        } catch let error as LogbookError {
            throw invalidDate(option, error)
        }
    }

    /// The day `date` falls on in the time zone, read for `option`: a usage error naming the
    /// option when that day is outside years 0001 to 9999 (an instant near either end, in a zone
    /// ahead of or behind UTC), which the day options took as the calendar's last or first day
    /// (`history delete --day 9999-12-31T20:00:00Z` in Asia/Tokyo deleted 9999-12-31: helper-64).
    func day(of date: Date, for option: Option<DateExpression>) throws -> CalendarDay {
        do {
            return try CalendarDay.storable(date, in: try timeZone())
        } catch let error as LogbookError {
            throw invalidDate(option, error)
        }
    }

    /// The first and last day of what `option` says: an instant's day both, each as
    /// ``day(of:for:)`` reads it.
    private func days(_ resolved: DateExpression.Resolved, for option: Option<DateExpression>) throws -> (first: CalendarDay, last: CalendarDay) {
        if case .instant(let date) = resolved {
            let day = try day(of: date, for: option)
            return (day, day)
        }
        let zone = try timeZone()
        return (resolved.firstDay(in: zone), resolved.lastDay(in: zone))
    }

    /// `option`'s value refused for `error`'s reason, as typed (`9000y`, not the `108000m` it reads as).
    private func invalidDate(_ option: Option<DateExpression>, _ error: LogbookError) -> UsageError {
        let reason = if case .invalidValue(_, _, let reason) = error { reason } else { "\(error)" }
        return invalidDate(option, reason: reason)
    }

    private func invalidDate(_ option: Option<DateExpression>, reason: String) -> UsageError {
        let typed = arguments.texts(named: option.spec.name).last ?? (try? arguments.value(of: option))?.description ?? ""
        return UsageError(message: "invalid date '\(typed)' for '\(option.spec.usage)': \(reason)", command: arguments.command)
    }

    /// A date option's instant (a day's is its start in the time zone), or nil when not given. A
    /// day the zone skipped whole (Pacific/Apia's 2011-12-30) has no instant: its start would be
    /// the next day's, so a record would be filed there; it is refused, as imports and moves
    /// refuse it.
    func date(_ option: Option<DateExpression>) throws -> Date? {
        guard let resolved = try resolved(option) else { return nil }
        let zone = try timeZone()
        if case .days(let days) = resolved, let reason = days.lowerBound.skippedDayReason(in: zone) {
            throw UsageError(message: "invalid date '\(days.lowerBound)' for '\(option.spec.usage)': \(reason)", command: arguments.command)
        }
        let start = resolved.start(in: zone)
        guard start.isSupported else {
            // An instant is named as itself: '9999-12-31 23:00' in New York was said to be a day
            // that starts at 10000-01-01T04:00:00Z (helper-77).
            let instant = if case .days = resolved {
                "\(resolved.firstDay(in: zone)) starts at \(start.textForMessages) in time zone \(zone.nameForPeople)"
            } else {
                "it is \(start.textForMessages)"
            }
            throw invalidDate(option, reason: "\(instant), outside the instants Logbook stores (0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999969Z)")
        }
        return start
    }

    /// A date option that names one day (`2026-11-19`, `yesterday`, `monday`), or nil when not given.
    func day(_ option: Option<DateExpression>) throws -> CalendarDay? {
        guard let resolved = try resolved(option) else { return nil }
        let (first, last) = try days(resolved, for: option)
        guard first == last else {
            throw UsageError(message: "'\(option.spec.name)' takes one day, not \(first) to \(last)", command: arguments.command)
        }
        return first
    }

    /// A day option the command's spec requires (``CommandSpec/requiredOptions``), which the
    /// parser has checked is given.
    func requiredDay(_ option: Option<DateExpression>) throws -> CalendarDay {
        guard let day = try day(option) else { preconditionFailure("\(option.spec.name) is not a required option of \(arguments.command)") }
        return day
    }

    /// The days `--from`, `--to`, `--on` and `--since` select (each end nil when open); a usage
    /// error when they contradict each other or the first is after the last.
    func dayRange() throws -> (from: CalendarDay?, to: CalendarDay?) {
        let from = try resolved(DayRangeOptions.from), to = try resolved(DayRangeOptions.to)
        let on = try resolved(DayRangeOptions.on), since = try resolved(DayRangeOptions.since)
        let command = arguments.command
        if on != nil && (from != nil || to != nil || since != nil) {
            throw UsageError(message: "--on gives both ends: use it without --from, --to and --since", command: command)
        }
        if from != nil && since != nil {
            throw UsageError(message: "--since is --from: give one of them", command: command)
        }
        let start = on.map { ($0, DayRangeOptions.on) } ?? from.map { ($0, DayRangeOptions.from) } ?? since.map { ($0, DayRangeOptions.since) }
        let end = on.map { ($0, DayRangeOptions.on) } ?? to.map { ($0, DayRangeOptions.to) }
        let first = try start.map { try days($0, for: $1).first }, last = try end.map { try days($0, for: $1).last }
        if let first, let last, first > last {
            throw UsageError(message: "the range starts on \(first), after its end \(last)", command: command)
        }
        return (first, last)
    }

    /// A positional argument that must be a 1-based position.
    func position(_ text: String, name: String) throws -> Int {
        guard let number = Int(text), number >= 1 else {
            throw UsageError(message: "invalid \(name) '\(text)': expected a whole number ≥ 1", command: arguments.command)
        }
        return number
    }
}
