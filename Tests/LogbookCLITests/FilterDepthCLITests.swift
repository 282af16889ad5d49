import Foundation
import LogbookTestSupport
import XCTest

/// How deep a `--where` filter may nest (Reliability, *What a command refuses*): every filter
/// within the limits runs and counts what this test's own evaluation counts; every deeper one is a
/// usage error, exit 2 with one `invalid --where` message and nothing on stdout, never a failure
/// (exit 1) or a crash; for drafts and history alike.
final class FilterDepthCLITests: XCTestCase {
    /// A filter over one count field (`exercises.count`, `checklist.count`), written as this test
    /// writes it, so that the parser's two measures of depth can be told from the tree.
    private indirect enum Filter {
        case above(Int)                 // `FIELD > k`
        case not(Filter)                // `!x`, or `!(x)` around `&&` and `||`
        case parentheses(Filter)        // `(x)`
        case and(Filter, Filter)        // `x && y`, each side in parentheses when it is `&&` or `||`
        case or(Filter, Filter)

        func text(_ field: String) -> String {
            switch self {
            case .above(let bound): "\(field) > \(bound)"
            case .not(let inner): "!" + inner.operand(field)
            case .parentheses(let inner): "(" + inner.text(field) + ")"
            case .and(let lhs, let rhs): lhs.operand(field) + " && " + rhs.operand(field)
            case .or(let lhs, let rhs): lhs.operand(field) + " || " + rhs.operand(field)
            }
        }

        private var isLogic: Bool {
            switch self {
            case .and, .or: true
            default: false
            }
        }

        /// The text as an operand of `!`, `&&` or `||`: in parentheses when it is `&&` or `||`.
        private func operand(_ field: String) -> String { isLogic ? "(" + text(field) + ")" : text(field) }

        func matches(_ count: Int) -> Bool {
            switch self {
            case .above(let bound): count > bound
            case .not(let inner): !inner.matches(count)
            case .parentheses(let inner): inner.matches(count)
            case .and(let lhs, let rhs): lhs.matches(count) && rhs.matches(count)
            case .or(let lhs, let rhs): lhs.matches(count) || rhs.matches(count)
            }
        }

        /// Parentheses and `!` open around the deepest comparison (at most 64).
        var nesting: Int {
            switch self {
            case .above: 0
            case .not(let inner): 1 + (inner.isLogic ? 1 : 0) + inner.nesting
            case .parentheses(let inner): 1 + inner.nesting
            case .and(let lhs, let rhs), .or(let lhs, let rhs):
                max((lhs.isLogic ? 1 : 0) + lhs.nesting, (rhs.isLogic ? 1 : 0) + rhs.nesting)
            }
        }

        /// Levels of the parsed tree, each `&&`, `||`, `!`, comparison, field and value one (at most 64).
        var levels: Int {
            switch self {
            case .above: 2
            case .not(let inner): 1 + inner.levels
            case .parentheses(let inner): inner.levels
            case .and(let lhs, let rhs), .or(let lhs, let rhs): 1 + max(lhs.levels, rhs.levels)
            }
        }

        /// Groups of SQL the comparison nests in as the store renders it: a comparison is one, a
        /// run of `!` one, and a chain of `&&` (or of `||`) one, however it is parenthesized.
        func groups(inside enclosing: String = "") -> Int {
            switch self {
            case .above: 1
            case .parentheses(let inner): inner.groups(inside: enclosing)
            case .not(let inner): (enclosing == "!" ? 0 : 1) + inner.groups(inside: "!")
            case .and(let lhs, let rhs): (enclosing == "&&" ? 0 : 1) + max(lhs.groups(inside: "&&"), rhs.groups(inside: "&&"))
            case .or(let lhs, let rhs): (enclosing == "||" ? 0 : 1) + max(lhs.groups(inside: "||"), rhs.groups(inside: "||"))
            }
        }
    }

    /// The most groups of SQL a filter may nest in and be sure to run: 27 levels of `&&` and `||`
    /// in turn around a comparison, the shape that costs SQLite's parser the most a group.
    private static let groupsSQLiteAlwaysTakes = 28

    private struct Kind {
        let command: [String], field: String, counts: [Int]
    }

    /// A store of four days holding 1 to 4 exercises and four drafts of 0 to 3 checklist items.
    private func store() throws -> (CLIHarness, [Kind]) {
        let cli = try CLIHarness()
        for count in 1...4 {
            let result = try cli.run(["history", "add"] + Array(repeating: "Squat", count: count) + ["--at", "2026-03-0\(count)T10:00:00Z"])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        for count in 0...3 {
            let id = try cli.run(["drafts", "add", "--version", "1.\(count)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            for item in 0..<count { XCTAssertEqual(try cli.run(["drafts", "item", "add", id, "Item \(item)"]).status, 0) }
        }
        return (cli, [Kind(command: ["count", "history"], field: "exercises.count", counts: [1, 2, 3, 4]),
                      Kind(command: ["count", "drafts"], field: "checklist.count", counts: [0, 1, 2, 3])])
    }

    /// Runs `filter` and checks the outcome the limits give it; returns the exit status.
    @discardableResult
    private func check(_ filter: Filter, _ kind: Kind, in cli: CLIHarness, _ note: String) throws -> Int32 {
        let text = filter.text(kind.field)
        let result = try cli.run(kind.command + ["--where", text])
        let described = "\(note): \(kind.command) --where \(text.prefix(160))… (nesting \(filter.nesting), levels \(filter.levels), "
            + "groups \(filter.groups())): exit \(result.status), \(result.stderr.prefix(300))"
        let parserTakesIt = filter.nesting <= 64 && filter.levels <= 64
        switch result.status {
        case 0:
            XCTAssertTrue(parserTakesIt, described)
            XCTAssertEqual(result.stdout, "\(kind.counts.filter(filter.matches).count)\n", described)
        case 2:
            XCTAssertEqual(result.stdout, "", described)
            XCTAssertTrue(result.stderr.hasPrefix("logbook: error: invalid --where: "), described)
            if parserTakesIt {
                XCTAssertGreaterThan(filter.groups(), Self.groupsSQLiteAlwaysTakes, described)
                XCTAssertTrue(result.stderr.contains("more deeply nested than SQLite's parser takes"), described)
            } else {
                XCTAssertTrue(result.stderr.contains("the expression nests deeper than 64 levels"), described)
            }
        default:
            XCTFail(described)
        }
        return result.status
    }

    /// The limits the documentation gives, at each side of each: `!` 62 times before a
    /// comparison, 64 pairs of parentheses, a chain of 63 conditions, 27 levels of `&&` and `||` in
    /// turn and 16 of `!(… || …)`.
    func testTheDocumentedLimitsHoldAtEachSide() throws {
        let (cli, kinds) = try store()
        let before = cli.snapshot()
        func repeated(_ count: Int, _ wrap: (Filter, Int) -> Filter) -> Filter {
            (0..<count).reduce(Filter.above(1)) { inner, level in wrap(inner, level) }
        }
        let chain = { (length: Int) in (1..<length).reduce(Filter.above(0)) { chain, index in .and(chain, .above(index % 3)) } }
        let cases: [(String, Filter, Int32)] = [
            ("62 !", repeated(62) { inner, _ in .not(inner) }, 0), ("63 !", repeated(63) { inner, _ in .not(inner) }, 2),
            ("64 ()", repeated(64) { inner, _ in .parentheses(inner) }, 0), ("65 ()", repeated(65) { inner, _ in .parentheses(inner) }, 2),
            ("63 &&", chain(63), 0), ("64 &&", chain(64), 2),
            ("27 in turn", repeated(27) { inner, level in level % 2 == 0 ? .or(.above(level % 4), inner) : .and(.above(level % 4), inner) }, 0),
            ("28 in turn", repeated(28) { inner, level in level % 2 == 0 ? .or(.above(level % 4), inner) : .and(.above(level % 4), inner) }, 2),
            ("16 !(||)", repeated(16) { inner, level in .not(.or(.above(level % 4), inner)) }, 0),
            ("17 !(||)", repeated(17) { inner, level in .not(.or(.above(level % 4), inner)) }, 2),
        ]
        for (name, filter, status) in cases {
            for kind in kinds { XCTAssertEqual(try check(filter, kind, in: cli, name), status, name) }
        }
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// Seeded filters down one deep path of random steps (`!`, parentheses, `&&` and `||` with a
    /// comparison on either side) to a random depth of up to 70, each run and checked against the
    /// limits and this test's own count (`LOGBOOK_FILTER_DEPTH_SEED`).
    func testEveryFilterWithinTheLimitsRunsAndEveryDeeperOneIsAUsageError() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_FILTER_DEPTH_SEED", default: 0xDE97)
        print("FilterDepthCLITests (LOGBOOK_FILTER_DEPTH_SEED=\(seed)): filters nested to random depths")
        var random = SplitMix64(seed: seed)
        let (cli, kinds) = try store()
        let before = cli.snapshot()
        var outcomes: [Int32: Int] = [:]
        for round in 0..<PropertyTestSettings.scaled(60, by: "LOGBOOK_PROPERTY_SCALE") {
            var filter = Filter.above(random.int(0...4))
            for _ in 0..<random.int(1...70) {
                let side = Filter.above(random.int(0...4))
                filter = switch random.int(0...5) {
                case 0: .not(filter)
                case 1: .parentheses(filter)
                case 2: .and(filter, side)
                case 3: .and(side, filter)
                case 4: .or(filter, side)
                default: .or(side, filter)
                }
            }
            for kind in kinds {
                let status = try check(filter, kind, in: cli, "seed \(seed), round \(round)")
                outcomes[status, default: 0] += 1
            }
        }
        print("FilterDepthCLITests: exit status → filters: \(outcomes.sorted { $0.key < $1.key })")
        XCTAssertEqual(cli.snapshot(), before)
    }

    /// `--sort` keys repeated past SQLite's limit of 2,000 terms in an `ORDER BY` sort as the keys
    /// once do: a key after one of the same field and direction or the other breaks no tie (it
    /// failed with SQLite's "too many terms in ORDER BY clause", exit 1; helper-70).
    func testRepeatedSortKeysSortAsTheKeysOnce() throws {
        let (cli, _) = try store()
        for (command, keys) in [(["history", "list"], ["exercises.count:desc", "day", "date:desc", "day:desc"]),
                                (["drafts", "list"], ["checklist.count", "version:desc", "whatsNew", "version"])] {
            let once = try cli.run(command + ["--sort", keys.prefix(3).joined(separator: ","), "--format", "ndjson"])
            XCTAssertEqual(once.status, 0, once.stderr)
            let repeated = try cli.run(command + ["--sort", (0..<2_400).map { keys[$0 % keys.count] }.joined(separator: ","),
                                                  "--format", "ndjson"])
            XCTAssertEqual(repeated.status, 0, "\(command): \(repeated.stderr)")
            XCTAssertEqual(repeated.stdout, once.stdout, "\(command)")
        }
    }
}
