import Foundation
import LogbookTestSupport
import XCTest

/// Hostile input, generated from a fixed seed: mutated files for every import reader and random
/// `--where` text. Whatever the input, `logbook` exits 0, 1 or 2 (never by a signal), says what
/// was wrong on a `logbook: error:` line, and leaves the database as it was when it fails.
///
/// LOGBOOK_FUZZ_ITERATIONS scales the runs, LOGBOOK_FUZZ_SEED changes the inputs,
/// LOGBOOK_FUZZ_MAX_BYTES bounds a mutated file. Inputs that fail are kept in
/// `$TMPDIR/logbook-fuzz-failures/` with the seed and iteration in their names.
final class FuzzTests: XCTestCase {
    private let iterations = Reliability.setting("LOGBOOK_FUZZ_ITERATIONS", default: 300)
    private let seed = UInt64(Reliability.setting("LOGBOOK_FUZZ_SEED", default: 20_260_131))
    private let maximumBytes = Reliability.setting("LOGBOOK_FUZZ_MAX_BYTES", default: 256 << 10)

    /// A valid input file for one reader: where mutations start.
    private struct Sample {
        let name: String
        let bytes: Data
        let format: String
    }

    /// A harness whose database holds both fixtures (as the apps' files would put them there).
    private func loadedHarness() throws -> CLIHarness {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["--time-zone", "America/New_York", "import", CLIHarness.fixture("history.plist").path]).status, 0)
        XCTAssertEqual(try cli.run(["import", CLIHarness.fixture("drafts.json").path]).status, 0)
        return cli
    }

    /// The fixtures (JSON, binary and XML property lists) and this tool's NDJSON and CSV exports of them.
    private func samples(_ cli: CLIHarness) throws -> [Sample] {
        var samples = try [("history.json", "json"), ("drafts.json", "json"), ("history.plist", "plist"),
                           ("release-draft.plist", "plist"), ("release-draft-multiline.xml.plist", "plist"),
                           ("release-draft-unsubmitted.xml.plist", "plist")].map { name, format in
            Sample(name: name, bytes: try Data(contentsOf: CLIHarness.fixture(name)), format: format)
        }
        for kind in ["history", "drafts"] {
            for format in ["ndjson", "csv"] {
                let export = try cli.run(["export", kind, "--format", format])
                XCTAssertEqual(export.status, 0, export.stderr)
                samples.append(Sample(name: "\(kind).\(format)", bytes: Data(export.stdout.utf8), format: format))
            }
        }
        return samples
    }

    /// Keeps `bytes` for a rerun when the iteration recorded a failure.
    private func keepIfFailed(_ failuresBefore: Int, _ bytes: Data, name: String) {
        guard (testRun?.totalFailureCount ?? 0) > failuresBefore else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-fuzz-failures")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try? bytes.write(to: url)
        print("FuzzTests: kept the failing input as \(url.path)")
    }

    /// The checks every run makes: an exit status, never a signal, and one error line on failure.
    private func assertOrderly(_ run: (result: CLIResult, signal: Int32?), _ context: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let (result, signal) = run
        XCTAssertNil(signal, "\(context): killed by signal \(signal ?? 0): \(result.stderr.prefix(2_000))", file: file, line: line)
        XCTAssertTrue([0, 1, 2].contains(result.status), "\(context): exit \(result.status)", file: file, line: line)
        if result.status != 0 {
            XCTAssertTrue(result.stderr.hasPrefix("logbook: error: "), "\(context): \(result.stderr.prefix(500))", file: file, line: line)
            XCTAssertEqual(result.stdout, "", "\(context): output on failure", file: file, line: line)
        }
    }

    func testMutatedImportFilesNeverCrashAndFailWithoutWriting() throws {
        let cli = try loadedHarness()
        let samples = try samples(cli)
        let baseline = try Data(contentsOf: cli.database)
        let before = cli.snapshot()
        var generator = SplitMix64(seed: seed)
        var tally: [String: Int] = [:]
        for iteration in 0..<iterations {
            let sample = samples[iteration % samples.count]
            let bytes = Mutator.mutate(sample.bytes, splicing: samples.map(\.bytes), maximumBytes: maximumBytes,
                                       using: &generator)
            let name = "seed\(seed)-\(iteration)-\(sample.name)"
            let url = cli.folder.appendingPathComponent(name)
            try bytes.write(to: url)
            var arguments = ["--time-zone", "America/New_York", "import", url.path]
            if Bool.random(using: &generator) { arguments += ["--format", sample.format] }
            if generator.next() % 4 == 0 { arguments += ["--on-conflict", ["skip", "replace", "fail"][iteration % 3]] }
            let dryRun = iteration % 4 == 3
            if dryRun { arguments.append("--dry-run") }

            let failures = testRun?.totalFailureCount ?? 0
            let run = try BackgroundRun(cli, arguments).wait()
            let context = "seed \(seed), iteration \(iteration), \(sample.name) mutated"
            assertOrderly(run, context)
            if run.result.status == 0 {
                XCTAssertTrue(run.result.stderr.hasPrefix(dryRun ? "logbook: dry run" : "logbook: imported"), "\(context): \(run.result.stderr)")
                if !dryRun {
                    let check = try cli.run(["check"])
                    XCTAssertEqual(check.status, 0, "\(context): the import left \(check.stdout)\(check.stderr)")
                }
            }
            if run.result.status != 0 || dryRun {
                XCTAssertEqual(cli.snapshot(), before, "\(context): the database changed")
            }
            keepIfFailed(failures, bytes, name: name)
            tally["exit \(run.result.status)", default: 0] += 1
            try Reliability.restore(cli, to: baseline)
            try FileManager.default.removeItem(at: url)
        }
        print("FuzzTests: \(iterations) mutated imports (seed \(seed)): \(tally.sorted { $0.key < $1.key })")
    }

    func testRandomFilterExpressionsNeverCrash() throws {
        let cli = try loadedHarness()
        let before = cli.snapshot()
        var generator = SplitMix64(seed: seed)
        let targets: [(command: [String], fields: [String])] = [
            (["count", "history"], FilterFuzzer.historyFields),
            (["history", "list", "--format", "ndjson"], FilterFuzzer.historyFields),
            (["export", "history", "--format", "csv"], FilterFuzzer.historyFields),
            (["count", "drafts"], FilterFuzzer.draftFields),
            (["drafts", "list", "--format", "json"], FilterFuzzer.draftFields),
            (["export", "drafts", "--format", "ndjson"], FilterFuzzer.draftFields),
        ]
        var tally: [String: Int] = [:]
        for iteration in 0..<iterations {
            let target = targets[iteration % targets.count]
            let expression = FilterFuzzer.expression(fields: target.fields, using: &generator)
            var arguments = target.command + ["--where", expression]
            if generator.next() % 3 == 0 { arguments += ["--sort", FilterFuzzer.sort(fields: target.fields, using: &generator)] }
            let failures = testRun?.totalFailureCount ?? 0
            let run = try BackgroundRun(cli, arguments).wait()
            assertOrderly(run, "seed \(seed), iteration \(iteration): \(arguments)")
            XCTAssertEqual(cli.snapshot(), before, "seed \(seed), iteration \(iteration): a read changed the database")
            keepIfFailed(failures, Data(arguments.joined(separator: "\n").utf8), name: "seed\(seed)-\(iteration)-where.txt")
            tally["exit \(run.result.status)", default: 0] += 1
        }
        print("FuzzTests: \(iterations) random filters (seed \(seed)): \(tally.sorted { $0.key < $1.key })")
    }
}

/// Byte-level mutations of a valid file.
enum Mutator {
    /// Bytes that mean something to one of the readers.
    private static let interesting: [UInt8] = Array(#"{}[]",:"\-+.0123456789eE<>/!?&;="#.utf8) + [0x00, 0x0A, 0x0D, 0x09, 0x20,
                                                                                                  0x7F, 0x80, 0xBF, 0xC0, 0xE2, 0xF0, 0xFF]

    /// One to three of: bit flips, truncation, inserted bytes, deleted bytes, a splice from another
    /// sample, a chunk repeated up to `maximumBytes`, an overwritten byte.
    static func mutate(_ data: Data, splicing others: [Data], maximumBytes: Int,
                       using generator: inout SplitMix64) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<7, using: &generator) {
            case 0 where !bytes.isEmpty:
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                }
            case 1:
                bytes.removeSubrange(position...)
            case 2:
                let inserted = (0..<Int.random(in: 1...16, using: &generator)).map { _ in
                    Bool.random(using: &generator) ? interesting.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0...255, using: &generator)
                }
                bytes.insert(contentsOf: inserted, at: position)
            case 3 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...64, using: &generator)))
            case 4:
                let other = [UInt8](others.randomElement(using: &generator) ?? Data())
                guard !other.isEmpty else { continue }
                let start = Int.random(in: 0..<other.count, using: &generator)
                let piece = other[start..<min(other.count, start + Int.random(in: 1...4_096, using: &generator))]
                if Bool.random(using: &generator) {
                    bytes.insert(contentsOf: piece, at: position)
                } else {
                    bytes = Array(bytes[..<position]) + piece
                }
            case 5 where !bytes.isEmpty:
                let chunk = Array(bytes[position..<min(bytes.count, position + Int.random(in: 1...64, using: &generator))])
                let length = chunk.count * Int.random(in: 2...max(2, (maximumBytes - bytes.count) / chunk.count), using: &generator)
                var repeated = chunk
                while repeated.count < length { repeated += repeated }
                bytes.insert(contentsOf: repeated.prefix(length), at: position)
            case 6 where !bytes.isEmpty:
                bytes[position] = interesting.randomElement(using: &generator) ?? 0
            default:
                continue
            }
        }
        return Data(bytes.prefix(maximumBytes))
    }
}

/// Random `--where` (and `--sort`) text: grammatical expressions over the real fields, with
/// wrong fields, odd values and stray characters mixed in.
enum FilterFuzzer {
    static let historyFields = ["id", "day", "date", "exercises", "exercises.count"]
    static let draftFields = ["id", "version", "whatsNew", "submittedAt", "createdAt", "updatedAt", "isSubmitted",
                              "checklist", "checklist.count", "checklist.doneCount"]
    private static let wrongFields = ["verison", "exercises.first", "Day", "_", "checklist.done", "id.id", "ö", "a1", "true1"]
    private static let operators = ["==", "!=", "<", "<=", ">", ">=", "contains", "icontains", "hasPrefix", "in",
                                    "=", "===", "<>", "~=", "like"]
    private static let values = [
        #""Burpee""#, #""""#, #""Sun Salute ☀︎""#, #""É""#, "\"e\u{301}\"", #""e\u{301}""#, #""\"quoted\" \\ back""#, #""tab\tnew\nline""#,
        #""bad \q escape""#, #""unterminated"#, #""🏋️‍♀️""#, #""2.""#, "0", "-1", "3", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "99999999999999999999999", "1.5", "-0.0", "1e10", ".5", "5.",
        "true", "false", "nil", "2026-01-31", "2026-02-30", "0000-01-01", "9999-12-31", "2026-1-1", "2025-02-05",
        "2026-01-31T08:30:00Z", "2026-01-31T08:30:00+02:00", "2026-01-31T25:00:00Z", "2026-01-31T08:30:00.123456789Z",
        "2026-01-31T08:30:00", "[]", #"["1.0", "1.1"]"#, "[1, 2, 3]", "[2026-01-31, nil]", #"[["nested"]]"#,
    ]
    private static let stray = ["(", ")", "[", "]", ",", "!", "&&", "||", "&", "|", "\"", "\\", "=", "<", ">", ".", "-",
                                ":", "T", "Z", "é", "\u{301}", "☀︎", "\t", "\n", " ", "'", "`", "$", "@", "?", ";",
                                "--", "/*", "*/", "%", "\u{7F}", "\u{FEFF}", "\u{202E}"]

    static func expression(fields: [String], using generator: inout SplitMix64) -> String {
        var text = grammatical(fields: fields, depth: Int.random(in: 0...4, using: &generator), using: &generator)
        // Now and then a very long or very deep one, past the parser's nesting limit.
        switch Int.random(in: 0..<20, using: &generator) {
        case 0: text = Array(repeating: text, count: Int.random(in: 2...120, using: &generator)).joined(separator: " || ")
        case 1:
            let depth = Int.random(in: 10...200, using: &generator)
            text = String(repeating: "!(", count: depth) + text + String(repeating: ")", count: depth)
        default: break
        }
        let mutations = Int.random(in: 0..<3, using: &generator) == 0 ? Int.random(in: 1...3, using: &generator) : 0
        for _ in 0..<mutations {
            var characters = Array(text)
            let position = Int.random(in: 0...characters.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: characters.insert(contentsOf: stray.randomElement(using: &generator) ?? "", at: position)
            case 1 where position < characters.count:
                characters.removeSubrange(position..<min(characters.count, position + Int.random(in: 1...8, using: &generator)))
            default:
                let start = Int.random(in: 0...position, using: &generator)
                characters.insert(contentsOf: characters[start..<position], at: position)
            }
            text = String(characters)
        }
        return text
    }

    private static func grammatical(fields: [String], depth: Int, using generator: inout SplitMix64) -> String {
        if depth == 0 || Int.random(in: 0..<3, using: &generator) == 0 {
            let field = fields.randomElement(using: &generator) ?? ""
            if Int.random(in: 0..<4, using: &generator) != 0 { return typed(field, using: &generator) }
            return wild(fields: fields, using: &generator)
        }
        let left = grammatical(fields: fields, depth: depth - 1, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return "!(\(left))"
        case 1: return "(\(left))"
        default:
            let right = grammatical(fields: fields, depth: depth - 1, using: &generator)
            return "\(left) \(Bool.random(using: &generator) ? "&&" : "||") \(right)"
        }
    }

    /// A comparison that suits the field's type, with values at and past the edges.
    private static func typed(_ field: String, using generator: inout SplitMix64) -> String {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &generator) ?? "" }
        let order = ["==", "!=", "<", "<=", ">", ">="]
        let strings = [#""Burpee""#, #""""#, #""Sun Salute ☀︎""#, #""é""#, "\"e\u{301}\"", #""SQUAT""#, #""1.""#,
                       #""' OR 1=1 --""#, #""%""#, #""_""#, #""\\""#, #""🏋️‍♀️""#]
        let days = ["2025-02-05", "2025-03-29", "2026-01-31", "0001-01-01", "9999-12-31", "2024-02-29"]
        let dates = ["2025-02-05T12:00:00Z", "2025-03-01T00:00:00-05:00", "2023-09-12T16:02:11.803112Z", "0001-01-01T00:00:00Z"]
        let integers = ["0", "1", "3", "-1", "9223372036854775807", "-9223372036854775808"]
        switch field {
        case "id": return "id \(pick(["==", "!="])) \(pick([#""00000000-0000-0000-0000-000000000001""#, #""x""#]))"
        case "day": return "day \(pick(order)) \(pick(days))"
        case "date", "createdAt", "updatedAt", "submittedAt":
            return Bool.random(using: &generator) ? "\(field) \(pick(["==", "!="])) nil" : "\(field) \(pick(order)) \(pick(dates + days))"
        case "exercises": return "exercises \(pick(["contains", "icontains"])) \(pick(strings))"
        case "exercises.count", "checklist.count", "checklist.doneCount": return "\(field) \(pick(order)) \(pick(integers))"
        case "version", "whatsNew":
            if Int.random(in: 0..<5, using: &generator) == 0 { return "\(field) in [\(pick(strings)), \(pick(strings))]" }
            return "\(field) \(pick(order + ["contains", "icontains", "hasPrefix"])) \(pick(strings))"
        case "isSubmitted": return pick(["isSubmitted", "isSubmitted == true", "isSubmitted != false", "!isSubmitted"])
        default: return "\(field).count > \(pick(integers))"
        }
    }

    /// A leaf that is often wrong: an unknown field, an operator that does not exist, a value of the
    /// wrong type, or the operands swapped.
    private static func wild(fields: [String], using generator: inout SplitMix64) -> String {
        let field = Int.random(in: 0..<3, using: &generator) == 0
            ? wrongFields.randomElement(using: &generator) ?? "" : fields.randomElement(using: &generator) ?? ""
        if Int.random(in: 0..<6, using: &generator) == 0 { return field }
        let value = values.randomElement(using: &generator) ?? ""
        return Int.random(in: 0..<10, using: &generator) == 0
            ? "\(value) \(operators.randomElement(using: &generator) ?? "") \(field)"
            : "\(field) \(operators.randomElement(using: &generator) ?? "") \(value)"
    }

    static func sort(fields: [String], using generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            let field = Int.random(in: 0..<6, using: &generator) == 0
                ? wrongFields.randomElement(using: &generator) ?? "" : fields.randomElement(using: &generator) ?? ""
            return field + (["", ":asc", ":desc", ":up", ":", "::desc"].randomElement(using: &generator) ?? "")
        }.joined(separator: ",")
    }
}
