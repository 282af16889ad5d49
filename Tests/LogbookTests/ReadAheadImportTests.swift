import Foundation
import LogbookTestSupport
import Logbook
import XCTest

/// An import of a regular file or of bytes in memory reads its records on a thread of its own, a
/// few batches ahead of the writes; an import of a pipe reads them as it writes. Each test imports
/// the same generated file both ways, into two stores holding the same records, and checks the
/// two end the same: the same summary, the same records byte for byte, the same error (naming
/// the same record and field) with nothing written, the same progress calls. The files are long
/// enough to span many batches, some end batches on their byte limit (long names), and the
/// failures come before, on and after the batches' edges: a record the file cannot hold (a syntax
/// error, an empty name), a record the database refuses (a stored id under `--on-conflict fail`),
/// and both, where the earlier one must win.
final class ReadAheadImportTests: XCTestCase {
    private enum Format: CaseIterable {
        case ndjson, json, csv

        var importFormat: ImportFormat {
            switch self {
            case .ndjson: .ndjson
            case .json: .json
            case .csv: .csv
            }
        }
    }

    /// A generated day record, as the file gives it.
    private struct Record {
        var id: UUID
        var day: String
        var names: [String]
    }

    /// A fault put into a file at a record.
    private enum Fault: CaseIterable {
        /// The record's bytes are no JSON (no CSV row): the reader fails there.
        case syntax
        /// The record holds an empty exercise name: the import refuses it as the library's save does.
        case emptyName
        /// The record's id is stored already, and the policy is `fail`: the writer refuses it.
        case storedID
    }

    func testAFileReadAheadImportsAsThePipeReadAsItGoes() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_READ_AHEAD_SEED", default: 0x5245_4144_4148_4544)
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder()
        for round in 0..<PropertyTestSettings.scaled(12, by: "LOGBOOK_PROPERTY_SCALE") {
            let format = Format.allCases[round % Format.allCases.count]
            // Long names in some rounds, so that batches end on their byte limit before their record limit.
            let longNames = round % 4 == 3
            let count = random.int(1...(longNames ? 700 : 1_600))
            let records = (0..<count).map { index in
                Record(id: random.uuid(), day: day(index, in: &random),
                       names: (0..<random.int(1...4)).map { _ in name(long: longNames, using: &random) })
            }
            // Up to two faults, each before, on or after a batch's edge (512 records) or anywhere;
            // in every other round, one the writer meets and a syntax error a few records after it,
            // which the reader meets first, likely in the same batch.
            var faults: [Int: Fault] = [:]
            if round % 2 == 1, count > 2 {
                let at = random.int(0...(count - 2))
                faults[at] = random.pick([Fault.emptyName, .storedID])
                faults[min(count - 1, at + random.int(1...40))] = .syntax
            } else {
                for _ in 0..<random.int(0...2) {
                    let edges = [0, 510, 511, 512, 513, 1_023, 1_024, 1_025, count - 1, random.int(0...(count - 1))]
                    let at = min(count - 1, max(0, random.pick(edges)))
                    faults[at] = random.pick(Fault.allCases)
                }
            }
            let stored = faults.compactMap { $0.value == .storedID ? records[$0.key] : nil }
            let text = file(records, format: format, faults: faults, using: &random)
            let context = "round \(round), \(format), \(count) records, faults \(faults.sorted { $0.key < $1.key }) (seed \(seed))"
            let policy: ConflictPolicy = faults.values.contains(.storedID) ? .fail : random.pick([.skip, .replace])

            let path = folder.file("round-\(round).\(format)")
            try Data(text.utf8).write(to: path)
            let fromFile = try imported(stored: stored, into: folder.file("file-\(round).sqlite"), policy: policy, format: format) {
                try $0.importRecords(from: path, options: $1)
            }
            let piped = pipe(text)
            let fromPipe = try imported(stored: stored, into: folder.file("pipe-\(round).sqlite"), policy: policy, format: format) {
                try $0.importRecords(from: piped, file: path.path, options: $1)
            }
            // What a refused import left unread, so that the writing thread never writes to a closed pipe.
            _ = piped.readDataToEndOfFile()
            let fromData = try imported(stored: stored, into: folder.file("data-\(round).sqlite"), policy: policy, format: format) {
                try $0.importRecords(from: Data(text.utf8), named: path.path, options: $1)
            }
            XCTAssertEqual(fromFile.outcome, fromPipe.outcome, context)
            XCTAssertEqual(fromFile.stored, fromPipe.stored, "stored records, \(context)")
            XCTAssertEqual(fromFile.progress, fromPipe.progress, "progress, \(context)")
            XCTAssertEqual(fromData.outcome, fromPipe.outcome, "from bytes in memory, \(context)")
            XCTAssertEqual(fromData.stored, fromPipe.stored, "stored records from bytes in memory, \(context)")
            if case .failure = fromPipe.outcome {
                XCTAssertEqual(fromFile.stored, fromFile.before, "a refused file writes nothing, \(context)")
            } else {
                XCTAssertEqual(fromFile.progress.last?.last, text.utf8.count, "the last progress counts every byte, \(context)")
            }
            // The faults put in must be what stopped the import, the earliest one.
            if let first = faults.keys.min() {
                guard case .failure(let message) = fromPipe.outcome else {
                    XCTFail("the file with a fault at record \(first + 1) was imported, \(context)")
                    continue
                }
                if format != .csv {
                    XCTAssertTrue(message.contains("record \(first + 1)"), "\(message) names record \(first + 1), \(context)")
                }
            }
        }
    }

    /// The switch between the two ways: a regular file and bytes in memory are read ahead, a pipe
    /// as it comes (so the test above compares the two).
    func testRegularFilesAndBytesAreReadAheadAndPipesAsTheyCome() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("days.ndjson")
        try Data("{}\n".utf8).write(to: path)
        let file = try FileHandle(forReadingFrom: path)
        defer { try? file.close() }
        XCTAssertTrue(ByteStream(handle: file).readsWithoutWaiting)
        XCTAssertTrue(ByteStream(data: Data("{}".utf8)).readsWithoutWaiting)
        let piped = pipe("{}\n")
        XCTAssertFalse(ByteStream(handle: piped).readsWithoutWaiting)
        _ = piped.readDataToEndOfFile()
    }

    /// What an import did: its summary's counts or its error's text.
    private enum Outcome: Equatable {
        case success(read: Int, inserted: Int, skipped: Int, merged: Int, replaced: Int)
        case failure(String)
    }

    private struct Imported {
        var outcome: Outcome
        /// Every record before and after, as bytes: id, day, date's bits, each name's UTF-8.
        var before: [String]
        var stored: [String]
        /// Each progress call's records and bytes.
        var progress: [[Int]]
    }

    /// A new store holding `stored`, then `run` on it with `policy`.
    private func imported(stored: [Record], into path: URL, policy: ConflictPolicy, format: Format,
                          _ run: (Logbook, ImportOptions) throws -> ImportSummary) throws -> Imported {
        let store = try Logbook(path: path.path, timeZone: TimeZone(identifier: "UTC")!)
        try store.history.save(stored.map {
            ExerciseDay(id: $0.id, date: Date(timeIntervalSinceReferenceDate: 0), day: CalendarDay($0.day)!, exercises: ["Stored"])
        })
        let before = try snapshot(store)
        let progress = ProgressLog()
        var options = ImportOptions(kind: .history, format: format.importFormat, onConflict: policy)
        options.progress = { progress.add(records: $0, bytes: $1) }
        let outcome: Outcome
        do {
            let summary = try run(store, options)
            outcome = .success(read: summary.read, inserted: summary.inserted, skipped: summary.skipped,
                               merged: summary.merged, replaced: summary.replaced)
        } catch {
            outcome = .failure(String(describing: error))
        }
        return Imported(outcome: outcome, before: before, stored: try snapshot(store), progress: progress.entries.map { [$0.records, $0.bytes] })
    }

    private func snapshot(_ store: Logbook) throws -> [String] {
        try store.history.fetch(FetchDescriptor(sortBy: [SortDescriptor(\.day)])).map { day in
            "\(day.id.uuidString) \(day.day) \(day.date.timeIntervalSinceReferenceDate.bitPattern) "
                + day.exercises.map { Array($0.utf8).map(String.init).joined(separator: ".") }.joined(separator: " ")
        }
    }

    /// A pipe a thread writes `text` into, for the import to read as it comes.
    private func pipe(_ text: String) -> FileHandle {
        let pipe = Pipe()
        let writing = pipe.fileHandleForWriting
        let bytes = Data(text.utf8)
        Thread.detachNewThread {
            writing.write(bytes)
            try? writing.close()
        }
        return pipe.fileHandleForReading
    }

    // MARK: The generated file

    private func file(_ records: [Record], format: Format, faults: [Int: Fault], using random: inout SplitMix64) -> String {
        var lines: [String] = []
        if format == .csv { lines.append("id,day,date,position,exercise") }
        for (index, record) in records.enumerated() {
            var names = record.names
            if faults[index] == .emptyName { names[names.count / 2] = "" }
            switch format {
            case .ndjson, .json:
                var object = #"{"id":"\#(record.id.uuidString)","day":"\#(record.day)","exercises":["#
                    + names.map { AdversarialText.jsonLiteral($0, escaping: 0.2, using: &random) }.joined(separator: ",") + "]}"
                if faults[index] == .syntax { object.removeLast() }
                lines.append(object + (format == .json && index < records.count - 1 ? "," : ""))
            case .csv:
                for (position, name) in names.enumerated() {
                    // A row with a field more than the header has.
                    let extra = faults[index] == .syntax && position == 0 ? ",extra" : ""
                    lines.append("\(record.id.uuidString),\(record.day),,\(position + 1),\(csvField(name))\(extra)")
                }
            }
        }
        let body = lines.joined(separator: "\n") + "\n"
        return format == .json ? "[\n" + body + "]\n" : body
    }

    private func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) || text.first == " " || text.last == " "
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// A day of year 2000 onward; now and then one an earlier record had, so that records merge
    /// (not the record just before's: CSV refuses two ids for the rows of one day in a row).
    private func day(_ index: Int, in random: inout SplitMix64) -> String {
        let offset = index >= 2 && random.chance(0.05) ? random.int(0...(index - 2)) : index
        return CalendarDay(year: 2000, month: 1, day: 1)!.adding(days: offset)!.description
    }

    private func name(long: Bool, using random: inout SplitMix64) -> String {
        let name = AdversarialText.string(using: &random, nonEmpty: true)
        // Long: a few KiB, mostly ASCII (cheap to key), so 512 records hold more than a batch's MiB.
        return long ? name + String(repeating: "x", count: random.int(2_000...6_000)) + name : name
    }
}

/// The progress calls of one import, from whatever thread makes them.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [(records: Int, bytes: Int)] = []

    func add(records: Int, bytes: Int) {
        lock.lock()
        calls.append((records, bytes))
        lock.unlock()
    }

    var entries: [(records: Int, bytes: Int)] {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }
}
