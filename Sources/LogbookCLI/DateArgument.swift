import Foundation
import Logbook

/// The date forms the command line accepts: `2026-01-31` (the start of that day in the store's time
/// zone), `2026-01-31T08:30:00Z` and `2026-01-31T08:30:00+02:00` (fractional seconds allowed).
enum DateArgument {
    static func parse(_ text: String, option: String, timeZone: TimeZone, command: String) throws -> Date {
        if let day = CalendarDay(text) {
            let start = day.start(in: timeZone)
            guard start.isSupported else {
                throw UsageError(message: "\(day) starts at \(start.textForMessages) in time zone \(timeZone.identifier), "
                                    + "outside the instants Logbook stores (0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999969Z)",
                                 command: command)
            }
            return start
        }
        if let date = Date(iso8601: text) { return date }
        throw UsageError(message: "invalid date '\(text)' for '\(option)': expected 2026-01-31, "
                            + "2026-01-31T08:30:00Z or 2026-01-31T08:30:00+02:00", command: command)
    }

    static func parseDay(_ text: String, option: String, command: String) throws -> CalendarDay {
        guard let day = CalendarDay(text) else {
            throw UsageError(message: "invalid day '\(text)' for '\(option)': expected YYYY-MM-DD, e.g. 2026-01-31",
                             command: command)
        }
        return day
    }
}

extension Invocation {
    /// The value of a text option, read from stdin when it is `-`.
    func text(_ option: String) throws -> String? {
        guard let value = arguments.value(option) else { return nil }
        guard value == "-" else { return value }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        // Byte for byte: a byte order mark, U+0000 and CRLF are kept as read.
        guard let text = String(exactUTF8: data) else {
            throw CommandFailure("\(option) -: stdin is not valid UTF-8")
        }
        return text
    }

    /// The `--at` date, or nil when not given.
    func date(_ option: String) throws -> Date? {
        guard let text = arguments.value(option) else { return nil }
        return try DateArgument.parse(text, option: option, timeZone: try timeZone(), command: arguments.command)
    }

    /// `--from` and `--to` as days (each nil when absent); a usage error when `--from` is after `--to`.
    func dayRange() throws -> (from: CalendarDay?, to: CalendarDay?) {
        let command = arguments.command
        let from = try arguments.value("--from").map { try DateArgument.parseDay($0, option: "--from <day>", command: command) }
        let to = try arguments.value("--to").map { try DateArgument.parseDay($0, option: "--to <day>", command: command) }
        if let from, let to, from > to {
            throw UsageError(message: "--from \(from) is after --to \(to)", command: command)
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
