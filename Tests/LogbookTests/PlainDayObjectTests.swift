import Foundation
import LogbookTestSupport
@testable import Logbook
import SQLiteQuery
import XCTest

/// A day object in the plain shape is read straight from its bytes (`PlainDayObject`) instead of
/// through a `JSONValue` tree: each test checks that whatever the shortcut reads, the general path
/// (`JSONParser`, then `JSONRecordDecoding.day`) reads from the same bytes to the same record,
/// byte for byte, with the same length consumed; and that every object the general path rejects,
/// the shortcut leaves to it.
final class PlainDayObjectTests: XCTestCase {
    /// The names decoded last, shared by every object a test reads, as by every record of an import.
    private let names = RecentTexts()

    /// What the general path makes of the value at the start of `bytes`: the record and the bytes
    /// consumed, or the error (syntax or field) it stops at.
    private func generalRead(_ bytes: [UInt8], isLineDelimited: Bool) -> Result<(DayInput, Int), Error> {
        Result {
            let stream = ByteStream(data: Data(bytes))
            let parser = JSONParser(stream: stream, isLineDelimited: isLineDelimited)
            let value = try isLineDelimited ? parser.lineValue() : parser.elementValue()
            return (try JSONRecordDecoding.day(value), stream.offset)
        }
    }

    /// Fails unless the shortcut agrees with the general path on `bytes`; returns whether the
    /// shortcut read them.
    @discardableResult
    private func assertAgrees(_ bytes: [UInt8], isLineDelimited: Bool, seed: UInt64) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        let shortcut = bytes.withUnsafeBufferPointer { PlainDayObject.read($0, isLineDelimited: isLineDelimited, names: names) }
        let general = generalRead(bytes, isLineDelimited: isLineDelimited)
        guard let (record, length) = shortcut else {
            // The general path reads it (or rejects it): nothing to compare.
            return false
        }
        switch general {
        case .failure(let error):
            XCTFail("the shortcut read \(text), which the general path rejects: \(error) (seed \(seed))")
        case .success(let (expected, consumed)):
            XCTAssertEqual(length, consumed, "bytes consumed in \(text) (seed \(seed))")
            XCTAssertEqual(record.id, expected.id, "id of \(text) (seed \(seed))")
            XCTAssertEqual(record.day, expected.day, "day of \(text) (seed \(seed))")
            XCTAssertEqual(record.date?.timeIntervalSinceReferenceDate.bitPattern,
                           expected.date?.timeIntervalSinceReferenceDate.bitPattern, "date of \(text) (seed \(seed))")
            XCTAssertEqual(record.exercises.map { Array($0.utf8) }, expected.exercises.map { Array($0.utf8) },
                           "exercises of \(text) (seed \(seed))")
        }
        return true
    }

    func testRandomDayObjectsReadAsTheGeneralPathReadsThem() {
        let seed = PropertyTestSettings.seed("LOGBOOK_PLAIN_DAY_SEED", default: 0x504C_4149_4E44_4159)
        var random = SplitMix64(seed: seed)
        var generator = DayObjectText(random: SplitMix64(seed: seed &+ 1))
        var (read, total) = (0, 0)
        for round in 0..<PropertyTestSettings.scaled(10_000, by: "LOGBOOK_PROPERTY_SCALE") {
            let isLineDelimited = round % 2 == 0
            var bytes = generator.object(isLineDelimited: isLineDelimited)
            if random.chance(0.3) { DayObjectText.mutate(&bytes, using: &random) }
            // What follows the object in a file: the shortcut must stop where the object ends.
            bytes += Array(random.pick(["", "\n", " \n{", ",", "]", "}", "x"]).utf8)
            if assertAgrees(bytes, isLineDelimited: isLineDelimited, seed: seed) { read += 1 }
            total += 1
        }
        print("the shortcut read \(read) of \(total) objects")
        // Unmutated objects of the plain shape are most of the input: the shortcut must take them.
        XCTAssertGreaterThan(read, total / 4, "the shortcut read \(read) of \(total) objects (seed \(seed))")
    }

    func testObjectsOutsideThePlainShapeAreLeftToTheGeneralPath() {
        let leftAlone = [
            #"{"day":"2026-01-05","exercises":["Squat"],"note":"x"}"#,          // another member
            #"{"day":"2026-01-05","exercise":"Squat"}"#,                         // the hand-made form
            #"{"day":"2026-01-05","day":"2026-01-06","exercises":[]}"#,          // a member twice
            #"{"day":"2026-01-05","exercises":["Sq\u0075at"]}"#,                 // an escape
            "{\"day\":\"2026-01-05\",\"exercises\":[\"Sq\u{0}at\"]}",            // NUL
            "{\"day\":\"2026-01-05\",\n\"exercises\":[]}",                       // a line break in NDJSON
            #"{"day":"2026-02-30","exercises":[]}"#,                             // no such day
            #"{"date":1e400,"exercises":[]}"#,                                   // not finite
            #"{"date":-1e12,"exercises":[]}"#,                                   // outside years 1 to 9999
            #"{"date":01,"exercises":[]}"#,                                      // leading zero
            #"{"date":"2026-01-05","exercises":[]}"#,                            // not ISO-8601 date and time
            #"{"id":"not-a-uuid","day":"2026-01-05","exercises":[]}"#,
            #"{"exercises":["Squat"]}"#,                                         // neither day nor date
            #"{"day":"2026-01-05"}"#,                                            // no exercises
            #"{"day":"2026-01-05","exercises":["Squat",]}"#,                     // a trailing comma
            #"{"day":"2026-01-05","exercises":["Squat",1]}"#,                    // not a string
            #"{"day":"2026-01-05","exercises":null}"#,
            #"{"day":"2026-01-05","exercises":["Squat"]"#,                       // cut short
        ]
        for text in leftAlone {
            let bytes = Array(text.utf8)
            XCTAssertNil(bytes.withUnsafeBufferPointer { PlainDayObject.read($0, isLineDelimited: true, names: names) }, text)
        }
        let invalidUTF8: [UInt8] = Array(#"{"day":"2026-01-05","exercises":[""#.utf8) + [0xC3, 0x28] + Array(#""]}"#.utf8)
        XCTAssertNil(invalidUTF8.withUnsafeBufferPointer { PlainDayObject.read($0, isLineDelimited: true, names: names) })
    }

    /// Exported history, most of it in the plain shape and some not (names with escapes), imported
    /// from a file several times the stream's 64 KiB reads, so that objects straddle reads (left to
    /// the general path there) and the shortcut takes the rest: exporting the import gives the
    /// same bytes, in NDJSON and as a JSON array.
    func testAnExportAcrossManyReadsImportsToTheSameBytes() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_PLAIN_DAY_SEED", default: 0x504C_4149_4E46_494C)
        var random = SplitMix64(seed: seed)
        var dayNumbers = Set<Int>()
        let days: [ExerciseDay] = (0..<2_500).map { _ in
            var number = random.int(CalendarDay.first.dayNumber...CalendarDay.last.dayNumber)
            while !dayNumbers.insert(number).inserted { number = random.int(CalendarDay.first.dayNumber...CalendarDay.last.dayNumber) }
            let seconds = AdversarialDates.seconds(in: -63_113_904_000...252_423_993_599, using: &random)
            let names: [String] = (0..<random.int(1...6)).map { _ in
                random.chance(0.9) ? random.pick(["Squat", "Row", "Élan", "Sun Salute ☀︎", "e\u{301}", "Kettlebell Swing"])
                                   : AdversarialText.string(using: &random, maxPieces: 3, nonEmpty: true)
            }
            return ExerciseDay(id: UUID(), date: Date(timeIntervalSinceReferenceDate: seconds), day: CalendarDay(dayNumber: number)!,
                               exercises: names)
        }
        let source = try TestStore()
        try source.store.history.save(days)
        for format in [ExportFormat.ndjson, .json] {
            var exported = Data()
            try source.store.exportHistory(format: format) { exported.append($0) }
            XCTAssertGreaterThan(exported.count, 4 << 16, "\(format): the file spans several reads")
            let copy = try TestStore()
            let file = copy.folder.appendingPathComponent("history.\(format.rawValue)")
            try exported.write(to: file)
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            _ = try copy.store.importRecords(from: handle, file: file.path,
                                             options: ImportOptions(kind: .history, format: ImportFormat(rawValue: format.rawValue)!))
            var reexported = Data()
            try copy.store.exportHistory(format: format) { reexported.append($0) }
            XCTAssertTrue(exported == reexported, "\(format): import → export changed the bytes (seed \(seed))")
        }
    }

    func testThePlainShapesOfExportsAndTheAppsAreReadByTheShortcut() {
        let plain = [
            #"{"id":"12C8B5FC-BCCE-4D3B-89FE-2CB19C5A4CF1","day":"2026-01-01","date":"2026-01-01T10:00:00.000000Z","exercises":["Squat","Row"]}"#,
            #"{"id":"12c8b5fc-bcce-4d3b-89fe-2cb19c5a4cf1","date":786297600.25,"exercises":["Élan","Sun Salute ☀︎"]}"#,
            #"{ "exercises" : [ ] , "date" : -1.5e3 , "id" : null , "day" : null }"#,
        ]
        for text in plain {
            XCTAssertTrue(assertAgrees(Array(text.utf8), isLineDelimited: true, seed: 0), text)
        }
    }
}

/// Random JSON text of day objects: mostly the plain shape (members in any order, whitespace,
/// adversarial names, dates as numbers of every form and as ISO-8601 text, nulls), and now and then
/// every way out of it.
private struct DayObjectText {
    var random: SplitMix64
    /// Names written before: a history repeats a few, and a repeated name (or one mutated inside a
    /// repeated one, the same length and ends) is found among the import's recent names.
    private var written: [String] = []

    init(random: SplitMix64) { self.random = random }

    mutating func object(isLineDelimited: Bool) -> [UInt8] {
        var members: [String] = []
        if random.chance(0.7) { members.append(#""id":\#(idValue())"#) }
        if random.chance(0.7) { members.append(#""day":\#(dayValue())"#) }
        if random.chance(0.8) { members.append(#""date":\#(dateValue())"#) }
        if random.chance(0.95) { members.append(#""exercises":\#(exercisesValue())"#) }
        if random.chance(0.03) { members.append(random.pick([#""note":"x""#, #""exercise":"Squat""#, #""day":null"#, #""id":null"#])) }
        members.shuffle(using: &random)
        let separator = { (random: inout SplitMix64) -> String in
            random.chance(0.8) ? "" : random.pick([" ", "\t", "\r", "  ", isLineDelimited && random.chance(0.9) ? " " : "\n"])
        }
        var text = "{" + separator(&random)
        for (index, member) in members.enumerated() {
            if index > 0 { text += separator(&random) + "," + separator(&random) }
            // A space on either side of the colon, now and then.
            text += random.chance(0.9) ? member : member.replacingOccurrences(of: "\":", with: "\"\(separator(&random)):\(separator(&random))")
        }
        return Array((text + separator(&random) + "}").utf8)
    }

    mutating func idValue() -> String {
        let uuid = random.uuid().uuidString
        switch random.int(0...19) {
        case 0: return "null"
        case 1: return "\"\(uuid.lowercased())\""
        case 2: return "\"\(uuid.dropLast())\""
        case 3: return "\"\(uuid.replacingOccurrences(of: "-", with: "\\u002D"))\""
        case 4: return "1"
        default: return "\"\(uuid)\""
        }
    }

    mutating func dayValue() -> String {
        switch random.int(0...19) {
        case 0: return "null"
        case 1: return "\"\(random.int(0...10_000))-\(random.int(0...13))-\(random.int(0...32))\""
        case 2: return random.pick([#""2026-02-29""#, #""2024-02-29""#, #""0000-01-01""#, #""9999-12-31""#, #""2026-01-05 ""#, "\"２０２６-01-05\""])
        case 3: return "true"
        default:
            let day = CalendarDay(dayNumber: random.int(-719_162...2_932_896)) ?? CalendarDay(year: 2026, month: 1, day: 5)!
            return "\"\(day)\""
        }
    }

    mutating func dateValue() -> String {
        let seconds = AdversarialDates.seconds(in: -63_113_904_000...252_423_993_599, using: &random)
        switch random.int(0...19) {
        case 0: return "null"
        case 1: return Date(timeIntervalSinceReferenceDate: seconds).iso8601Microseconds.quoted
        case 2: return random.pick(["2026-01-05T08:30:00Z", "2026-01-05t08:30:00.123456789+02:00", "2026-01-05 08:30:00-23:59",
                                    "2026-01-05T08:30:00", "2026-01-05T24:00:00Z", "0001-01-01T00:00:00Z",
                                    "9999-12-31T23:59:59.9999999999Z", "2026-01-05T08:30:00.Z"]).quoted
        case 3: return String(Int64(seconds))
        case 4: return random.pick(["-0", "0", "1e5", "1E+5", "2.5e-3", "-1.5E3", "01", "1.", ".5", "-", "1e", "+1",
                                    "1e400", "-1e12", "252423993600", "-63113904001", "1.7976931348623157e308",
                                    String(repeating: "9", count: 70)])
        case 5: return "\"\(seconds)\""
        case 6: return "[]"
        default: return "\(seconds)"
        }
    }

    mutating func exercisesValue() -> String {
        if random.chance(0.03) { return random.pick(["null", "\"Squat\"", "[1]", "[[]]", "[\"a\",]", "[,]", "{}"]) }
        var names: [String] = []
        for _ in 0..<random.int(0...6) { names.append(name()) }
        return "[" + names.joined(separator: random.pick([",", " , ", ",\t"])) + "]"
    }

    /// A JSON string of adversarial text (``AdversarialText/jsonLiteral(_:escaping:using:)``). Most
    /// names have no quote, backslash or control character to escape, as most names in files.
    mutating func name() -> String {
        if !written.isEmpty, random.chance(0.5) { return random.pick(written) }
        var text = AdversarialText.string(using: &random, maxPieces: 4)
        if random.chance(0.85) { text.unicodeScalars.removeAll { $0.value < 0x20 || $0 == "\"" || $0 == "\\" } }
        let literal = AdversarialText.jsonLiteral(text, escaping: 0.002, using: &random)
        if written.count < 40 { written.append(literal) } else { written[random.int(0...39)] = literal }
        return literal
    }

    /// One byte changed, removed or added, or a slice removed: anywhere.
    static func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        let index = random.int(0...bytes.count - 1)
        let byte = random.pick([0x00, 0x0A, 0x22, 0x5C, 0x2C, 0x3A, 0x7B, 0x7D, 0x5B, 0x5D, 0x80, 0xC3, 0xFF, 0x20, 0x65, 0x2E]
                               + [UInt8(truncatingIfNeeded: random.next())])
        switch random.int(0...3) {
        case 0: bytes[index] = byte
        case 1: bytes.remove(at: index)
        case 2: bytes.insert(byte, at: index)
        default: bytes.removeSubrange(index..<min(bytes.count, index + random.int(1...8)))
        }
    }
}

private extension String {
    var quoted: String { "\"\(self)\"" }
}
