import Foundation

/// The ISO-8601 UTC forms the CLI writes: microseconds in data (`2026-01-31T08:30:00.123456Z`).
enum Timestamp {
    static func iso8601(_ date: Date) -> String { date.iso8601Microseconds }
}
