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
            try Connection(path: path.path, options: options).execute("UPDATE exercises SET position = position + 10 WHERE day_pk % 7 = 0")
        }
        return try Logbook(path: path.path, timeZone: utc)
    }
}
