import Foundation

extension TimeZone {
    /// The zone's name in messages and headers: its identifier, except that the zone Foundation
    /// names "GMT" (which `TimeZone(identifier: "UTC")` and `--time-zone UTC` give too) is said as
    /// people now say it, "UTC".
    package var nameForPeople: String {
        identifier == "GMT" ? "UTC" : identifier
    }
}
