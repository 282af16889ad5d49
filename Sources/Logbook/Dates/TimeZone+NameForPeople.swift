import Foundation

extension TimeZone {
    /// The zone's name in messages and headers: its identifier, except that the zone Foundation
    /// names "GMT" (which `TimeZone(identifier: "UTC")` and `--time-zone UTC` give too) is said as
    /// people now say it, "UTC", and that a fixed offset of seconds past the minute (a POSIX `$TZ`
    /// such as `<+0530>-5:30:17`) is named with its seconds, `GMT+05:30:17`: Foundation's name
    /// rounds it to the nearest minute (`GMT+0530`; `GMT` within 30 seconds of UTC). Whole minutes
    /// keep Foundation's name (`GMT+0530`).
    package var nameForPeople: String {
        let offset = secondsFromGMT()
        guard identifier.hasPrefix("GMT"), offset % 60 != 0 else { return identifier == "GMT" ? "UTC" : identifier }
        let size = abs(offset)
        let parts = [size / 3600, size / 60 % 60, size % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }
        return "GMT" + (offset < 0 ? "-" : "+") + parts.joined(separator: ":")
    }
}
