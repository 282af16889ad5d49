import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery

/// Logbooks of a known shape for the tests that interrupt writes or read beside them: one day a
/// day from 2001-01-01 (UTC), each with the same exercises, and drafts "1.0", "1.1", … with three
/// checklist items each.
enum SampleLogbook {
    static let utc = TimeZone(identifier: "UTC")!

    /// Writes such a logbook of `days` (three exercises a day: Squat, Burpee, Élan) and `drafts`
    /// drafts at `url`, and closes it.
    static func make(at url: URL, days: Range<Int>, drafts: Int) throws {
        let store = try Logbook(path: url.path, timeZone: utc)
        _ = try store.importRecords(from: history(days: days, exercises: ["Squat", "Burpee", "Élan"]), named: "days.ndjson")
        for index in 0..<drafts {
            try store.drafts.save(ReleaseDraft(version: "1.\(index)", whatsNew: "Fixes \(index)",
                                               checklist: (1...3).map { ChecklistItem(title: "Step \($0)", isDone: $0 == 1) }))
        }
    }

    /// NDJSON of `days`, each with `exercises`, with ids fixed by the day's number.
    static func history(days: Range<Int>, exercises: [String]) -> Data {
        let names = exercises.map { "\"\($0)\"" }.joined(separator: ",")
        var text = ""
        for index in days {
            let date = Date(timeIntervalSinceReferenceDate: Double(index) * 86_400 + 3_600)
            let id = String(format: "00000000-0000-4000-8000-%012d", index)
            text += #"{"id":"\#(id)","day":"\#(CalendarDay(date, in: utc))","date":"\#(date.iso8601Microseconds)","exercises":[\#(names)]}"# + "\n"
        }
        return Data(text.utf8)
    }

    /// A store on a copy of the closed logbook at `base`, in `folder`; when `damaged`, its
    /// positions first left as another program can leave them (11, 12, 13 on every seventh day:
    /// `repair`'s work).
    static func copy(of base: URL, damaged: Bool, in folder: TemporaryFolder) throws -> Logbook {
        let path = folder.file("copy-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: base, to: path)
        if damaged {
            var options = Connection.Options()
            options.createIfMissing = false
            try Connection(path: path.path, options: options).execute(InterruptedWrites.repairableDamage)
        }
        return try Logbook(path: path.path, timeZone: utc)
    }

    /// A write to run on a store opened on a fresh copy of a sample logbook.
    struct Write: Sendable {
        let name: String
        /// Whether the copy is damaged first, as another program can leave it (`repair`'s work).
        var damaged = false
        let run: @Sendable (Logbook) async throws -> Void
    }

    /// The writes that change the most at once, on the sample of days 0 to 6,000: an import with
    /// `replace` of days 2,000 to 8,000, a merge of the logbook at `other`, a rename of Squat
    /// across the history, a move of 2001-01-05, and `repair` of a damaged copy.
    static func largeWrites(merging other: URL) -> [Write] {
        let replacing = history(days: 2_000..<8_000, exercises: ["Row", "Squat"])
        return [
            Write(name: "import with replace") { store in
                _ = try await store.importRecords(from: replacing, named: "replacing.ndjson", options: ImportOptions(onConflict: .replace))
            },
            Write(name: "merge of another logbook") { _ = try await $0.importRecords(from: other) },
            Write(name: "rename across the history") { _ = try await $0.history.renameExercise("Squat", to: "Squat (deep)") },
            Write(name: "move of a day") {
                _ = try await $0.history.moveDay(CalendarDay(year: 2001, month: 1, day: 5)!, to: CalendarDay(year: 2040, month: 1, day: 1)!)
            },
            Write(name: "repair", damaged: true) { _ = try await $0.repair() },
        ]
    }
}
