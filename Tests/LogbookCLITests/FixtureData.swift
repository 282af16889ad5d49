import Foundation
import Logbook
import LogbookTestSupport

/// The shared fixtures decoded the way the apps themselves decode them (their own `Codable` types,
/// `JSONDecoder` defaults), independently of Logbook's importers, so tests can compute expectations.
enum FixtureData {
    /// `history.json`, recorded in America/New_York: days computed there with Foundation's Calendar.
    static func history() throws -> [ExerciseDay] {
        let data = try Data(contentsOf: CLIHarness.fixture("history.json"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        return try JSONDecoder().decode([AppExerciseDay].self, from: data).map { day in
            let parts = calendar.dateComponents([.year, .month, .day], from: day.date)
            return ExerciseDay(id: day.id, date: day.date,
                               day: CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)!,
                               exercises: day.exercises)
        }
    }

    /// `drafts.json`, with ids made from the index so tests can name them.
    static func drafts() throws -> [ReleaseDraft] {
        let data = try Data(contentsOf: CLIHarness.fixture("drafts.json"))
        return try JSONDecoder().decode([AppReleaseDraft].self, from: data).enumerated().map { index, draft in
            ReleaseDraft(id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index))!,
                         version: draft.version, whatsNew: draft.whatsNew,
                         checklist: draft.checklist.map { ChecklistItem(id: $0.id, title: $0.title, isDone: $0.isDone) },
                         submittedAt: draft.submittedAt)
        }
    }

    /// Writes both fixtures into the harness's database through the library.
    static func load(into cli: CLIHarness) throws -> (drafts: [ReleaseDraft], history: [ExerciseDay]) {
        let store = try Logbook(path: cli.database.path, timeZone: TimeZone(identifier: "America/New_York")!)
        let history = try history()
        try store.history.save(history)
        let drafts = try drafts().map { try store.drafts.save($0) }
        return (drafts, history)
    }
}
