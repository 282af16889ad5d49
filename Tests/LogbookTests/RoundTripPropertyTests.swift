import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// The round-trip promises, tried with adversarial data through the public API: random drafts and
/// days whose text comes from ``AdversarialText`` (every plane, the newest combining marks, NFC and
/// NFD spellings, U+0000, controls, CR/LF) and whose dates are any `Double` in the supported range.
///
/// - json, ndjson, csv: export → import into an empty store → export gives the same bytes, and the
///   records come back with every text byte and each date as the `Double` nearest its microsecond.
/// - plist and the apps' JSON: lossless both ways, text byte for byte and dates bit for bit, read
///   with Foundation's own decoders as the apps read them; the plist, imported from either and
///   exported again, gives the same bytes.
///
/// `LOGBOOK_ROUNDTRIP_SEED` repeats a run; `LOGBOOK_PROPERTY_SCALE` multiplies the record count.
final class RoundTripPropertyTests: XCTestCase {
    private static let dateRange = Date.supportedRange.lowerBound.timeIntervalSinceReferenceDate
        ... Date.supportedRange.upperBound.timeIntervalSinceReferenceDate
    private let utc = TimeZone(identifier: "UTC")!

    // MARK: Records

    private func randomDate(_ random: inout SplitMix64) -> Date {
        Date(timeIntervalSinceReferenceDate: AdversarialDates.seconds(in: Self.dateRange, using: &random))
    }

    /// Random drafts; every fifth is the canonical twin of the one before (its text in the other
    /// normalization form), so that equal-but-different strings meet in one file.
    private func randomDrafts(_ count: Int, _ random: inout SplitMix64) -> [ReleaseDraft] {
        var drafts: [ReleaseDraft] = []
        for _ in 0..<count {
            if let last = drafts.last, random.chance(0.2) {
                var twin = last
                twin.id = UUID()
                twin.version = AdversarialText.twin(of: last.version)
                twin.whatsNew = AdversarialText.twin(of: last.whatsNew)
                twin.checklist = last.checklist.map { ChecklistItem(id: UUID(), title: AdversarialText.twin(of: $0.title), isDone: $0.isDone) }
                drafts.append(twin)
                continue
            }
            var checklist = (0..<random.int(0...4)).map { _ in
                ChecklistItem(title: AdversarialText.string(using: &random, maxPieces: 3), isDone: random.chance(0.5))
            }
            // Copies of a Swift value share ids: now and then an item holds an earlier item's id.
            if checklist.count > 1, random.chance(0.3) {
                let copied = checklist[checklist.count - 1]
                checklist[checklist.count - 1] = ChecklistItem(id: checklist[0].id, title: copied.title, isDone: copied.isDone)
            }
            drafts.append(ReleaseDraft(id: UUID(), version: AdversarialText.string(using: &random, maxPieces: 3),
                         whatsNew: AdversarialText.string(using: &random), checklist: checklist,
                         submittedAt: random.chance(0.3) ? nil : randomDate(&random),
                         createdAt: randomDate(&random), updatedAt: randomDate(&random)))
        }
        return drafts
    }

    private func randomDays(_ count: Int, _ random: inout SplitMix64) -> [ExerciseDay] {
        var used = Set<Int>()
        return (0..<count).map { _ in
            var day = random.int(CalendarDay.first.dayNumber...CalendarDay.last.dayNumber)
            while !used.insert(day).inserted { day = random.int(CalendarDay.first.dayNumber...CalendarDay.last.dayNumber) }
            return ExerciseDay(id: UUID(), date: randomDate(&random), day: CalendarDay(dayNumber: day)!,
                               exercises: (0..<random.int(1...5)).flatMap { _ in
                                   // A name and, now and then, its canonical twin on the same day.
                                   let name = AdversarialText.string(using: &random, maxPieces: 3, nonEmpty: true)
                                   return random.chance(0.2) ? [name, AdversarialText.twin(of: name)] : [name]
                               })
        }
    }

    // MARK: The spec's formats: fixed points

    func testDraftsExportImportExportIsAFixedPointInEveryTextFormat() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_ROUNDTRIP_SEED", default: 1_401))
        let drafts = randomDrafts(PropertyTestSettings.scaled(120, by: "LOGBOOK_PROPERTY_SCALE"), &random)
        let source = try TestStore()
        try source.store.drafts.save(contentsOf: drafts)
        for format in [ExportFormat.json, .ndjson, .csv] {
            let first = try export(source.store, .drafts, format)
            let copy = try TestStore()
            try importData(first, into: copy.store, .drafts, format)
            let second = try export(copy.store, .drafts, format)
            XCTAssertTrue(first == second, "\(format): export → import → export changed \(firstDifference(first, second))")
            let restored = try copy.store.drafts.fetchAll()
            XCTAssertEqual(restored.map(Exact.init), drafts.map { Exact(Self.atMicroseconds($0)) }.sortedLike(restored),
                           "\(format): records changed")
        }
    }

    func testHistoryExportImportExportIsAFixedPointInEveryTextFormat() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_ROUNDTRIP_SEED", default: 1_402))
        let days = randomDays(PropertyTestSettings.scaled(150, by: "LOGBOOK_PROPERTY_SCALE"), &random)
        let source = try TestStore()
        try source.store.history.save(days)
        for format in [ExportFormat.json, .ndjson, .csv] {
            let first = try export(source.store, .history, format)
            let copy = try TestStore()
            try importData(first, into: copy.store, .history, format)
            let second = try export(copy.store, .history, format)
            XCTAssertTrue(first == second, "\(format): export → import → export changed \(firstDifference(first, second))")
            let restored = try copy.store.history.fetchAll()
            let expected = days.sorted { $0.day < $1.day }.map { day in
                var copy = day
                copy.date = Date(iso8601: day.date.iso8601Microseconds)!
                return Exact(copy)
            }
            XCTAssertEqual(restored.map(Exact.init), expected, "\(format): records changed")
        }
    }

    /// Logbook's CSV as a spreadsheet or a script saves it again imports to the same records: each
    /// row ended by CRLF, LF or a CR alone (a CR alone was kept as the last field's last character,
    /// so `Squat\r` became another exercise: helper-90), a byte order mark, Excel's `sep=,` line
    /// (quoted too), blank lines and rows of empty cells (`,,,`, as many as the header's columns or
    /// more) before the header, after the `sep=,` line and between rows (refused as records, or as
    /// rows wider than the header: fifty-first session), empty unnamed columns after the data
    /// (refused as a column named twice), `TRUE`/`FALSE` in any case (refused), fields quoted or
    /// not where either reads the same. Checked by exporting the import again: the same bytes as the
    /// first export. Seeded (`LOGBOOK_ROUNDTRIP_SEED`), over adversarial text with CRs and LFs.
    func testCSVSavedAgainAsSpreadsheetsAndScriptsWriteItImportsToTheSameRecords() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_ROUNDTRIP_SEED", default: 1_409))
        let source = try TestStore()
        try source.store.drafts.save(contentsOf: randomDrafts(PropertyTestSettings.scaled(60, by: "LOGBOOK_PROPERTY_SCALE"), &random))
        try source.store.history.save(randomDays(PropertyTestSettings.scaled(60, by: "LOGBOOK_PROPERTY_SCALE"), &random))
        for kind in [RecordKind.drafts, .history] {
            let first = try export(source.store, kind, .csv)
            let records = try CSVRecords.parse(Array(first))
            let doneColumn = records[0].firstIndex(of: "itemIsDone")
            for round in 0..<4 {
                var bytes: [UInt8] = random.chance(0.5) ? [0xEF, 0xBB, 0xBF] : []
                let endings: [[UInt8]] = [[0x0D, 0x0A], [0x0A], [0x0D]]
                let ending = random.pick(endings)
                func endLine() { bytes += random.chance(0.8) ? ending : random.pick(endings) }
                if random.chance(0.3) {
                    bytes += Array(random.pick(["sep=,", "\"sep=,\""]).utf8)
                    endLine()
                }
                let unnamed = random.int(0...2)
                // A blank line, or a row of empty cells as a spreadsheet saves an empty row.
                func blankLine() {
                    if random.chance(0.5) { bytes += Array(repeating: 0x2C, count: records[0].count + unnamed - 1 + random.int(0...2)) }
                    endLine()
                }
                for (index, record) in records.enumerated() {
                    while random.chance(index == 0 ? 0.3 : 0.05) { blankLine() }
                    let cells = record.enumerated().map { column, cell -> [UInt8] in
                        guard var text = cell else { return [] }
                        if column == doneColumn && index > 0 && !text.isEmpty {
                            text = random.pick([text, text.uppercased(), text.prefix(1).uppercased() + text.dropFirst()])
                        }
                        let needsQuotes = text.isEmpty || text.utf8.contains { [0x2C, 0x22, 0x0D, 0x0A].contains($0) }
                        guard needsQuotes || random.chance(0.3) else { return Array(text.utf8) }
                        return [0x22] + Array(text.replacingOccurrences(of: "\"", with: "\"\"").utf8) + [0x22]
                    } + Array(repeating: [], count: unnamed)
                    bytes += Array(cells.joined(separator: [0x2C]))
                    if index < records.count - 1 || random.chance(0.7) { endLine() }
                }
                let copy = try TestStore()
                try importData(Data(bytes), into: copy.store, kind, ExportFormat.csv)
                let second = try export(copy.store, kind, .csv)
                XCTAssertTrue(first == second, "\(kind), round \(round): \(firstDifference(first, second))")
            }
        }
    }

    // MARK: The apps' formats: lossless

    func testDraftsThroughTheAppsPropertyListsAndJSONAreLossless() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_ROUNDTRIP_SEED", default: 1_403))
        let drafts = randomDrafts(PropertyTestSettings.scaled(120, by: "LOGBOOK_PROPERTY_SCALE"), &random)
        let source = try TestStore()
        try source.store.drafts.save(contentsOf: drafts)
        func content(_ draft: ReleaseDraft) -> String {
            Exact.content(version: draft.version, whatsNew: draft.whatsNew, checklist: draft.checklist,
                          submittedAt: draft.submittedAt)
        }
        func content(_ draft: AppReleaseDraft) -> String {
            Exact.content(version: draft.version, whatsNew: draft.whatsNew,
                          checklist: draft.checklist.map { ChecklistItem(id: $0.id, title: $0.title, isDone: $0.isDone) },
                          submittedAt: draft.submittedAt)
        }

        // Logbook's plist, read by the app's decoder.
        let plist = try export(source.store, .drafts, .plist)
        let decoded = try PropertyListDecoder().decode([AppReleaseDraft].self, from: plist)
        XCTAssertEqual(decoded.map(content), drafts.map(content), "the app reads back every draft exactly")

        // The app's plist and JSON, read by Logbook.
        for (format, data) in [(ImportFormat.plist, plist), (.json, try JSONEncoder().encode(decoded))] {
            let copy = try TestStore()
            try importData(data, into: copy.store, .drafts, format)
            // Every draft, identical ones too (the apps' drafts have no ids: compared sorted, not as a set).
            XCTAssertEqual(try copy.store.drafts.fetchAll().map(content).sorted(), drafts.map(content).sorted(), "\(format)")
            // And written out again, the same bytes.
            let again = try export(copy.store, .drafts, .plist)
            XCTAssertTrue(again == plist, "\(format): export → import → export changed \(firstDifference(plist, again))")
        }
    }

    /// A drafts XML property list's dates are read as the app's `PropertyListDecoder` reads them,
    /// which is in the Julian calendar before 1582-10-15 (`PropertyListSerialization`, Logbook's
    /// parser, reads them in the proleptic Gregorian calendar, up to ten days apart: helper-94),
    /// and go back out to the app as the same instants. Seeded (`LOGBOOK_ROUNDTRIP_SEED`): instants
    /// over the whole range as the app's `PropertyListEncoder` writes them, half before the reform,
    /// with both ends and the reform's first second; then texts the app may hold, random days of
    /// the Julian calendar (its leap days of 1500 and the like too): taken as the decoder reads
    /// them, or, for a day before year 0001 as the decoder reads it, refused quoting the text.
    func testTheAppsXMLDraftDatesAreReadAsItsPropertyListDecoderReadsThem() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_ROUNDTRIP_SEED", default: 1_582)
        var random = SplitMix64(seed: seed)
        let first = Date.supportedRange.lowerBound.timeIntervalSinceReferenceDate
        let reform = -13_197_600_000.0  // 1582-10-15T00:00:00Z
        let last = Date.supportedRange.upperBound.timeIntervalSinceReferenceDate.rounded(.down)
        var seconds = [first, last, reform, reform - 1, 0]
        for _ in 0..<PropertyTestSettings.scaled(200, by: "LOGBOOK_PROPERTY_SCALE") {
            seconds.append(Double(random.int(Int(first)...Int(random.chance(0.5) ? reform : last))))
        }
        let drafts = seconds.enumerated().map { AppReleaseDraft(version: "\($0.offset)", whatsNew: "", checklist: [], submittedAt: Date(timeIntervalSinceReferenceDate: $0.element)) }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let written = try encoder.encode(drafts)
        XCTAssertEqual(try PropertyListDecoder().decode([AppReleaseDraft].self, from: written), drafts, "the app's own round trip")
        let store = try TestStore()
        try importData(written, into: store.store, .drafts, ImportFormat.plist)
        func submitted(_ store: Logbook) throws -> [String: Date] {
            Dictionary(uniqueKeysWithValues: try store.drafts.fetchAll().map { ($0.version, $0.submittedAt ?? .distantFuture) })
        }
        let stored = try submitted(store.store)
        for draft in drafts {
            XCTAssertEqual(stored[draft.version], draft.submittedAt, "seed \(seed): the instant \(draft.submittedAt!.timeIntervalSinceReferenceDate)")
        }
        let exported = try PropertyListDecoder().decode([AppReleaseDraft].self, from: export(store.store, .drafts, .plist))
        XCTAssertEqual(Set(exported.map { "\($0.version) \($0.submittedAt!.timeIntervalSinceReferenceDate)" }),
                       Set(drafts.map { "\($0.version) \($0.submittedAt!.timeIntervalSinceReferenceDate)" }), "seed \(seed): back out to the app")

        // Texts of every Julian day before the reform, as a hand-made list or another writer holds them.
        for round in 0..<PropertyTestSettings.scaled(60, by: "LOGBOOK_PROPERTY_SCALE") {
            let year = random.chance(0.3) ? random.pick([1, 100, 1000, 1500, 1582]) : random.int(1...1582)
            let month = year == 1582 ? random.int(1...9) : random.int(1...12)
            let days = month == 2 ? (year % 4 == 0 ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
            let day = random.chance(0.2) ? days : random.int(1...days)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, random.int(0...23), random.int(0...59), random.int(0...59))
            let list = Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict><key>checklist</key><array/>"
                             + "<key>submittedAt</key><date>\(text)</date><key>version</key><string>1</string>"
                             + "<key>whatsNew</key><string></string></dict>\n</plist>\n").utf8)
            let decoded = try XCTUnwrap(try PropertyListDecoder().decode(AppReleaseDraft.self, from: list).submittedAt)
            let copy = try TestStore()
            if Date.supportedRange.contains(decoded) {
                try importData(list, into: copy.store, .drafts, ImportFormat.plist)
                XCTAssertEqual(try copy.store.drafts.fetchAll().first?.submittedAt, decoded, "seed \(seed), round \(round): \(text)")
            } else {
                XCTAssertThrowsError(try importData(list, into: copy.store, .drafts, ImportFormat.plist), "seed \(seed), round \(round): \(text)") { error in
                    XCTAssertTrue("\(error)".contains("the <date> \"\(text)\" is, as the apps' PropertyListDecoder reads it (in the Julian "
                                  + "calendar), a day before 0001-01-01"), "\(error)")
                }
            }
        }
        print("RoundTripPropertyTests (LOGBOOK_ROUNDTRIP_SEED=\(seed)): drafts' XML dates read as PropertyListDecoder reads them")
    }

    func testHistoryThroughTheAppsPropertyListAndJSONIsLossless() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_ROUNDTRIP_SEED", default: 1_404))
        // The apps' files have no day: it is computed from the date, so dates fall on distinct days.
        let days = randomDays(PropertyTestSettings.scaled(150, by: "LOGBOOK_PROPERTY_SCALE"), &random).map { day in
            var copy = day
            copy.day = CalendarDay(day.date, in: utc)
            return copy
        }.reduce(into: [CalendarDay: ExerciseDay]()) { $0[$1.day] = $1 }.values.sorted { $0.day > $1.day }
        let source = try TestStore()
        try source.store.history.save(days)
        func content(id: UUID, date: Date, exercises: [String]) -> String {
            id.uuidString + " " + Exact.bits(date) + " "
                + exercises.map(Exact.bytes).joined(separator: ",")
        }
        let expected = days.map { content(id: $0.id, date: $0.date, exercises: $0.exercises) }

        // history.plist, newest first, read as the app reads it.
        let plist = try export(source.store, .history, .plist)
        let elements = try XCTUnwrap(PropertyListSerialization.propertyList(from: plist, format: nil) as? [[Any]])
        XCTAssertEqual(elements.map { element in
            content(id: UUID(uuidString: element[0] as! String)!, date: element[1] as! Date, exercises: element[2] as! [String])
        }, expected)

        let appJSON = try JSONEncoder().encode(days.map { AppExerciseDay(id: $0.id, date: $0.date, exercises: $0.exercises) })
        for (format, data) in [(ImportFormat.plist, plist), (.json, appJSON)] {
            let copy = try TestStore()
            try importData(data, into: copy.store, .history, format)
            XCTAssertEqual(try copy.store.history.fetchAll().reversed().map { content(id: $0.id, date: $0.date, exercises: $0.exercises) },
                           expected, "\(format)")
            let again = try export(copy.store, .history, .plist)
            XCTAssertTrue(again == plist, "\(format): export → import → export changed \(firstDifference(plist, again))")
        }
    }

    // MARK: Helpers

    private func export(_ store: Logbook, _ kind: RecordKind, _ format: ExportFormat) throws -> Data {
        var data = Data()
        switch kind {
        case .drafts: try store.exportDrafts(format: format) { data.append($0) }
        case .history: try store.exportHistory(format: format) { data.append($0) }
        }
        return data
    }

    private func importData(_ data: Data, into store: Logbook, _ kind: RecordKind, _ format: ExportFormat) throws {
        try importData(data, into: store, kind, ImportFormat(rawValue: format.rawValue)!)
    }

    private func importData(_ data: Data, into store: Logbook, _ kind: RecordKind, _ format: ImportFormat) throws {
        let folder = try TemporaryFolder("roundtrip")
        let file = folder.file("import")
        try data.write(to: file)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        _ = try store.importRecords(from: handle, file: file.path, options: ImportOptions(kind: kind, format: format))
    }

    /// `draft` with each date moved to the `Double` nearest its microsecond, as text formats keep it.
    private static func atMicroseconds(_ draft: ReleaseDraft) -> ReleaseDraft {
        func rounded(_ date: Date) -> Date { Date(iso8601: date.iso8601Microseconds)! }
        var copy = draft
        copy.submittedAt = draft.submittedAt.map(rounded)
        copy.createdAt = rounded(draft.createdAt)
        copy.updatedAt = rounded(draft.updatedAt)
        return copy
    }

    private func firstDifference(_ first: Data, _ second: Data) -> String {
        let (a, b) = (Array(first), Array(second))
        let index = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count
        let context = { (bytes: [UInt8]) in String(decoding: bytes[min(bytes.count, max(0, index - 60))..<min(bytes.count, index + 60)], as: UTF8.self) }
        return "at byte \(index):\n\(context(a))\n---\n\(context(b))"
    }
}

/// A record written out exactly: text as UTF-8 bytes in hex, dates as bit patterns, so that two
/// are equal only when every byte and bit is.
struct Exact: Equatable, CustomStringConvertible {
    let description: String

    init(_ draft: ReleaseDraft) {
        description = draft.id.uuidString + " " + Exact.content(version: draft.version, whatsNew: draft.whatsNew,
                                                                checklist: draft.checklist, submittedAt: draft.submittedAt)
            + " " + Exact.bits(draft.createdAt) + " " + Exact.bits(draft.updatedAt)
    }

    init(_ day: ExerciseDay) {
        description = "\(day.id.uuidString) \(day.day) \(Exact.bits(day.date)) " + day.exercises.map(Exact.bytes).joined(separator: ",")
    }

    static func content(version: String, whatsNew: String, checklist: [ChecklistItem], submittedAt: Date?) -> String {
        bytes(version) + " " + bytes(whatsNew) + " " + (submittedAt.map(bits) ?? "nil") + " ["
            + checklist.map { "\($0.id.uuidString):\(bytes($0.title)):\($0.isDone)" }.joined(separator: ",") + "]"
    }

    static func bytes(_ text: String) -> String { text.utf8.map { String($0, radix: 16) }.joined(separator: ".") }
    /// The date's bits, -0.0 as 0.0: the same instant, and SQLite stores it as 0.0.
    static func bits(_ date: Date) -> String { String((date.timeIntervalSinceReferenceDate + 0).bitPattern, radix: 16) }
}

private extension Array where Element == Exact {
    /// In the order of `records`' ids (a store lists drafts by creation date, not insertion).
    func sortedLike(_ records: [ReleaseDraft]) -> [Exact] {
        let order = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($1.id.uuidString, $0) })
        return sorted { (order[String($0.description.prefix(36))] ?? 0) < (order[String($1.description.prefix(36))] ?? 0) }
    }
}
