import Foundation
import Logbook

/// Deterministic sample data: the same records every run, for both engines.
struct SampleData {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    static let exerciseNames = ["Squat", "Burpee", "Step Up", "Sun Salute", "Plank", "Lunge", "Row", "Push Up",
                                "Jumping Jack", "Mountain Climber", "Crunch", "Bridge", "Deadlift", "Pull Up", "Dip",
                                "Kettlebell Swing", "Box Jump", "Sprint", "Élan", "Sun Salute ☀︎"]

    static let firstDay = CalendarDay("1700-01-01")!

    /// `count` consecutive days from `first` (1700-01-01), `perDay` exercises each.
    mutating func days(_ count: Int, perDay: Int, from first: CalendarDay = Self.firstDay) -> [ExerciseDay] {
        (0..<count).map { offset in
            let day = first.adding(days: offset)!
            let date = Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400 + Double(below(86_400_000)) / 1000)
            var id = UUID().uuid
            withUnsafeMutableBytes(of: &id) { bytes in
                let high = next(), low = next()
                for index in 0..<8 {
                    bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * index))
                    bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (8 * index))
                }
            }
            return ExerciseDay(id: UUID(uuid: id), date: date, day: day,
                               exercises: (0..<perDay).map { _ in Self.exerciseNames[below(Self.exerciseNames.count)] })
        }
    }

    mutating func drafts(_ count: Int) -> [ReleaseDraft] {
        (0..<count).map { index in
            let created = Date(timeIntervalSinceReferenceDate: Double(index) * 3_600)
            return ReleaseDraft(version: "\(below(4)).\(below(20)).\(below(10))", whatsNew: "Notes for build \(index)",
                                checklist: (0..<below(31)).map { ChecklistItem(title: "Step \($0)", isDone: below(2) == 0) },
                                submittedAt: below(3) == 0 ? nil : created + 86_400, createdAt: created,
                                updatedAt: created + Double(below(1_000_000)))
        }
    }

    /// The days as the HIITFit app's `JSONEncoder` writes them: `[{"id","date","exercises"}]`, dates
    /// as the shortest text that round-trips the seconds since 2001.
    static func appJSON(_ days: [ExerciseDay]) -> Data {
        var text = "["
        for (index, day) in days.enumerated() {
            if index > 0 { text += "," }
            let names = day.exercises.map { "\"\($0)\"" }.joined(separator: ",")
            let seconds = day.date.timeIntervalSinceReferenceDate
            let number = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : "\(seconds)"
            text += "{\"id\":\"\(day.id.uuidString)\",\"date\":\(number),\"exercises\":[\(names)]}"
        }
        return Data((text + "]").utf8)
    }
}
