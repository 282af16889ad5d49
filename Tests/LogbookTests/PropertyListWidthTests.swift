import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// Exported binary property lists at the sizes where their reference and offset widths change:
/// the object count crossing 255/256 and 65,535/65,536, and the offset table starting on either
/// side of byte 255/256 and 65,535/65,536 while the last object starts before it. At each, the
/// export must be read by both of Foundation's readers (`PropertyListSerialization`, which
/// `logbook import` uses, and `PropertyListDecoder`) and be the very bytes Foundation's own
/// `PropertyListEncoder` writes for the apps' types. (Widths sized by the last object's number and
/// offset made files of exactly 256 objects, or with a long name near the end, that the apps and
/// `logbook import` refused.) The ids and dates come from `LOGBOOK_PLIST_WIDTH_SEED`; the texts
/// are ASCII and the dates distinct and non-zero, since Foundation's encoder stores strings and
/// dates equal by `==` once, where Logbook keeps canonically equivalent texts apart.
final class PropertyListWidthTests: XCTestCase {
    private var random = SplitMix64(seed: 0)

    override func setUp() {
        random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_PLIST_WIDTH_SEED", default: 2_611, test: name))
    }

    private func randomUUID() -> UUID {
        UUID(uuid: (UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                    UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                    UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                    UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                    UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                    UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                    UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                    UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next())))
    }

    /// `count` days on distinct calendar days, each with a fractional, distinct instant, whose
    /// names are taken in turn from `names`.
    private func days(_ count: Int, names: [String]) -> [ExerciseDay] {
        (0..<count).map { index in
            let seconds = Double(index) * 86_400 + 3_600 + Double(random.int(1...999_999)) / 1_000_000
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            return ExerciseDay(id: randomUUID(), date: date, day: CalendarDay(date, in: TimeZone(identifier: "UTC")!),
                               exercises: [names[index % names.count]])
        }
    }

    private func exportHistory(_ days: [ExerciseDay]) throws -> Data {
        let test = try TestStore()
        try test.store.history.save(days)
        var data = Data()
        try test.store.exportHistory(format: .plist) { data.append($0) }
        return data
    }

    private func encoderBytes<T: Encodable>(_ value: T) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(value)
    }

    /// The object count, reference width, offset width and offset table offset in `data`'s trailer.
    private func trailer(_ data: Data) -> String {
        let bytes = Array(data.suffix(32))
        func integer(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 << 8 | Int($1) } }
        return "\(integer(8..<16)) objects, references \(bytes[7]) bytes, offsets \(bytes[6]) bytes, table at \(integer(24..<32))"
    }

    private func assertReadAndAsWritten(_ exported: Data, expected: Data, _ what: String,
                                        file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoThrow(try PropertyListSerialization.propertyList(from: exported, options: [], format: nil),
                         "\(what) (\(trailer(exported))): PropertyListSerialization refuses it", file: file, line: line)
        XCTAssertTrue(exported == expected, "\(what): \(trailer(exported)), Foundation's encoder: \(trailer(expected))",
                      file: file, line: line)
    }

    func testHistoriesAtEveryObjectCountBoundaryAreReadAndAreTheEncodersBytes() throws {
        // A history of d days with k distinct names is 1 + 4d + k objects: the root, and per day
        // its array, id, date and list of names.
        for objects in [254, 255, 256, 257, 65_535, 65_536, 65_537] {
            let nameCount = (objects - 1) % 4 == 0 ? 4 : (objects - 1) % 4
            let names = (0..<nameCount).map { "Exercise \($0)" }
            let history = days((objects - 1 - nameCount) / 4, names: names)
            let exported = try exportHistory(history)
            let appDays = history.sorted { $0.day > $1.day }.map { AppExerciseDay(id: $0.id, date: $0.date, exercises: $0.exercises).plistElement }
            assertReadAndAsWritten(exported, expected: try encoderBytes(appDays), "history of \(objects) objects")
            let decoded = try PropertyListDecoder().decode([[PropertyListAny]].self, from: exported)
            XCTAssertEqual(decoded.count, history.count, "history of \(objects) objects: PropertyListDecoder")
        }
    }

    func testHistoriesWhoseOffsetTableCrossesAWidthAreReadAndAreTheEncodersBytes() throws {
        // One day with one name: the name is the last object, so its length moves the offset
        // table's start across 256 and 65,536 while the last object starts below it.
        for length in Array(215...260) + Array(65_480...65_530) {
            let history = days(1, names: [String(repeating: "x", count: length)])
            let exported = try exportHistory(history)
            let appDays = history.map { AppExerciseDay(id: $0.id, date: $0.date, exercises: $0.exercises).plistElement }
            assertReadAndAsWritten(exported, expected: try encoderBytes(appDays), "one day, a name of \(length) bytes")
        }
    }

    func testDraftsAtEveryWidthBoundaryAreReadAndAreTheEncodersBytes() throws {
        // A draft with n items is 1 + 1 + 4 keys + version + whatsNew + checklist + the items'
        // 3 keys, their ids, titles, and true/false: n items cross 256 objects near 81.
        for itemCount in 76...86 {
            let test = try TestStore()
            let items = (0..<itemCount).map { ChecklistItem(id: randomUUID(), title: "Step \($0)", isDone: $0 % 3 == 0) }
            let submitted = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
            let draft = ReleaseDraft(version: "2.0", whatsNew: "Faster", checklist: items, submittedAt: submitted)
            try test.store.drafts.save(draft)
            var exported = Data()
            try test.store.exportDrafts(format: .plist) { exported.append($0) }
            let appDraft = AppReleaseDraft(version: draft.version, whatsNew: draft.whatsNew,
                                           checklist: items.map { AppChecklistItem(id: $0.id, title: $0.title, isDone: $0.isDone) },
                                           submittedAt: submitted)
            assertReadAndAsWritten(exported, expected: try encoderBytes([appDraft]), "drafts of \(itemCount) items")
            assertReadAndAsWritten(try test.store.releaseDraftPropertyList(draft), expected: try encoderBytes(appDraft),
                                   "release-draft.plist of \(itemCount) items")
        }
    }
}

/// Any property list value, to decode a file whose arrays mix types with `PropertyListDecoder`.
private struct PropertyListAny: Decodable {
    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if (try? container.decode(String.self)) != nil { return }
        if (try? container.decode(Date.self)) != nil { return }
        _ = try container.decode([String].self)
    }
}
