import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest
@testable import Logbook

/// The filter language (`--where`) against `#Predicate`, differentially: random filters over the
/// adversarial text pools (every plane, the newest combining marks, a text that starts with one,
/// NUL and other controls, NFC and NFD twins), and dates and days in time zones with awkward
/// midnights (RandomDateFilters.swift), are compiled from their text and run in SQLite, and
/// the same filters built as `Predicate`s are evaluated in Swift on the same records; each must
/// select the same records. Seeded: `LOGBOOK_FILTER_SEED` (printed), `LOGBOOK_FILTER_COUNT` filters
/// per record type.
final class FilterDifferentialTests: XCTestCase {
    private static func seed(test: String = #function) -> UInt64 {
        PropertyTestSettings.seed("LOGBOOK_FILTER_SEED", default: 0x4649_4C54, test: test)
    }
    private let count = Int(ProcessInfo.processInfo.environment["LOGBOOK_FILTER_COUNT"] ?? "") ?? 500

    func testDraftFiltersSelectWhatTheirPredicatesSelect() throws {
        let seed = Self.seed()
        let test = try TestStore()
        var drafts = RandomRecords(seed: seed).drafts(400)
        for index in drafts.indices {
            if index % 3 == 0 { drafts[index].createdAt = Self.startOfDay(drafts[index].createdAt, index) }
            if index % 4 == 1 { drafts[index].submittedAt = drafts[index].submittedAt.map { Self.startOfDay($0, index) } }
            if index % 7 == 2 {
                drafts[index].createdAt = Self.afterClocksWentBack(index)
                drafts[index].updatedAt = Self.afterClocksWentBack(index + 1)
                drafts[index].submittedAt = Self.afterClocksWentBack(index + 2)
            }
        }
        let dates = drafts.flatMap { [$0.createdAt, $0.updatedAt] + ($0.submittedAt.map { [$0] } ?? []) }
        try check(test.store.drafts, drafts, dates: dates, days: [], seed: seed, kind: "draft") { $0.draftAtom() }
    }

    func testHistoryFiltersSelectWhatTheirPredicatesSelect() throws {
        let seed = Self.seed()
        let test = try TestStore()
        var days = RandomRecords(seed: seed &+ 2).days(400)
        for index in days.indices where index % 3 == 0 { days[index].date = Self.startOfDay(days[index].date, index) }
        for index in days.indices where index % 7 == 2 { days[index].date = Self.afterClocksWentBack(index) }
        try check(test.store.history, days, dates: days.map(\.date), days: days.map(\.day), seed: seed, kind: "history") {
            $0.dayAtom()
        }
    }

    /// An instant on or up to an hour after a clock was set back across midnight (`index`
    /// chooses which and how long after): on the earlier day, though after the next day's start.
    private static func afterClocksWentBack(_ index: Int) -> Date {
        let instants = clocksBackAcrossMidnight
        let after = [0, 1, 59.5, 1_800, 3_599][index / instants.count % 5]
        return Date(timeIntervalSince1970: instants[index % instants.count].unixTime + after)
    }

    /// The start of `date`'s day, or of the first day of its ISO week, month or year, in one of
    /// the filters' time zones (`index` chooses both), so that records lie exactly on the
    /// boundaries of days and ranges of days.
    private static func startOfDay(_ date: Date, _ index: Int) -> Date {
        let zone = TimeZone(identifier: RandomFilters.timeZones[index % RandomFilters.timeZones.count])!
        let day = CalendarDay(date, in: zone)
        let first: CalendarDay = switch index / RandomFilters.timeZones.count % 4 {
        case 0: day
        case 1: CalendarDay(dayNumber: day.dayNumber - day.daysSinceMonday)!
        case 2: CalendarDay(year: day.year, month: day.month, day: 1)!
        default: CalendarDay(year: day.year, month: 1, day: 1)!
        }
        return first.start(in: zone)
    }

    /// Stores `records` through `repository`'s table, then runs `count` random filters of `atom`s
    /// both ways.
    private func check<Repository: QueryableRepository>(
        _ repository: Repository, _ records: [Repository.Record], dates: [Date], days: [CalendarDay], seed: UInt64, kind: String,
        atom: @escaping (inout RandomFilters) -> Term<PredicateExpressions.Variable<Repository.Record>, Bool>
    ) throws where Repository.Record: Identifiable, Repository.Record.ID == UUID {
        try repository.storage.database.write { connection in
            for record in records { try repository.storage.table.insert(record, in: connection) }
        }
        var random = RandomFilters(seed: seed &+ (kind == "draft" ? 1 : 3), dates: dates, days: days)
        for index in 0..<count {
            random.chooseTimeZone()
            let filter = random.logic(3, atom)
            let predicate = Predicate<Repository.Record>({ filter.make($0) })
            let expected = Set(try records.filter { try predicate.evaluate($0) }.map(\.id))
            let context = "seed \(seed), filter \(index) in \(random.timeZone.identifier): \(filter.text.debugDescription)"
            // A filter that does not compile, or a fetch that throws, fails here with its error.
            let query = try repository.query(where: filter.text, timeZone: random.timeZone)
            let found = Set(try repository.fetch(query).map(\.id))
            let extra = found.subtracting(expected), missing = expected.subtracting(found)
            XCTAssert(extra.isEmpty && missing.isEmpty, "\(context): \(extra.count) selected that the predicate rejects "
                      + "(\(Array(extra.prefix(3)))), \(missing.count) missed (\(Array(missing.prefix(3))))")
        }
        print("FilterDifferentialTests (LOGBOOK_FILTER_SEED=\(seed)): \(count) \(kind) filters")
    }
}

/// Random filters: each a `Term` whose text is in the filter language and whose `make` builds
/// the `Predicate` expression that text means.
struct RandomFilters {
    var random: SplitMix64
    /// The time zone the current filter's days are read in (``chooseTimeZone()``).
    private(set) var timeZone = TimeZone(identifier: "UTC")!
    /// Instants the date atoms take their values near: the stored records' dates.
    let anchorDates: [Date]
    /// Days the day atoms take their values near: the stored records' days.
    let anchorDays: [CalendarDay]

    init(seed: UInt64, dates: [Date] = [], days: [CalendarDay] = []) {
        random = SplitMix64(seed: seed)
        anchorDates = dates
        anchorDays = days
    }

    mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    mutating func chance(_ probability: Double) -> Bool { Double(random.next() % 1_000) < probability * 1_000 }

    /// The anchor dates on the edges of days in ``timeZone``, which the date atoms aim at: those
    /// that start a day, and those in the hour after its clock went back across midnight.
    private(set) var edges: [Date] = []

    /// Picks the time zone of the next filter from ``RandomFilters/timeZones``.
    mutating func chooseTimeZone() {
        let zone = TimeZone(identifier: pick(Self.timeZones))!
        timeZone = zone
        let clockWentBack = clocksBackAcrossMidnight.filter { $0.zone == zone.identifier }.map(\.unixTime)
        edges = anchorDates.filter { date in
            CalendarDay(date, in: zone).start(in: zone) == date
                || clockWentBack.contains { (0..<3_600).contains(date.timeIntervalSince1970 - $0) }
        }
    }

    /// `&&`, `||` and `!` over `atom`s, nested to `depth`.
    mutating func logic<C>(_ depth: Int, _ atom: (inout RandomFilters) -> Term<C, Bool>) -> Term<C, Bool> {
        if depth <= 0 || chance(0.3) { return atom(&self) }
        switch random.next() % 3 {
        case 0:
            let (lhs, rhs) = (logic(depth - 1, atom), logic(depth - 1, atom))
            return Term("(\(lhs.text) && \(rhs.text))") { Build.and(lhs.make($0), rhs.make($0)) }
        case 1:
            let (lhs, rhs) = (logic(depth - 1, atom), logic(depth - 1, atom))
            return Term("(\(lhs.text) || \(rhs.text))") { Build.or(lhs.make($0), rhs.make($0)) }
        default:
            let inner = logic(depth - 1, atom)
            return Term("!(\(inner.text))") { Build.not(inner.make($0)) }
        }
    }

    /// A text in the filter language's quotes: `\"`, `\\`, `\n` and `\t` escaped, every other
    /// scalar as it is (a combining mark right after the opening quote included).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private mutating func needle() -> String { pick(chance(0.5) ? Pools.words : Pools.needles) }

    private mutating func textComparison<C>(_ field: String, _ keyPath: @escaping (C) -> Expr<String>) -> Term<C, Bool> {
        let value = needle()
        switch random.next() % 4 {
        case 0:
            let op = pick(ComparisonOp.allCases)
            return Term("\(field) \(op.symbol) \(Self.quoted(value))") { Build.compare(keyPath($0), op, Build.value(value)) }
        case 1:
            return Term("\(field) contains \(Self.quoted(value))") { Build.contains(keyPath($0), Build.value(value)) }
        case 2:
            return Term("\(field) hasPrefix \(Self.quoted(value))") { Build.startsWith(keyPath($0), Build.value(value)) }
        default:
            let other = needle()
            return Term("\(field) in [\(Self.quoted(value)), \(Self.quoted(other))]") {
                Build.or(Build.equal(keyPath($0), Build.value(value)), Build.equal(keyPath($0), Build.value(other)))
            }
        }
    }

    mutating func draftAtom() -> Term<DraftVariable, Bool> {
        switch random.next() % 7 {
        case 5, 6:
            let fields: [DateField<DraftVariable>] = [
                .optional("submittedAt") { Build.keyPath($0, \.submittedAt) },
                .required("createdAt") { Build.keyPath($0, \.createdAt) },
                .required("updatedAt") { Build.keyPath($0, \.updatedAt) },
            ]
            let field = pick(fields)
            return dateAtom(field, others: fields.filter { $0.name != field.name })
        case 0, 1: return textComparison("version") { Build.keyPath($0, \.version) }
        case 2: return textComparison("whatsNew") { Build.keyPath($0, \.whatsNew) }
        case 3:
            return countAtom("checklist.count", upTo: 6) { Build.keyPath(Build.keyPath($0, \.checklist), \.count) }
        default:
            let negated = chance(0.5)
            return Term("submittedAt \(negated ? "!=" : "==") nil") {
                Build.equal(Build.keyPath($0, \.submittedAt), Build.value(Date?.none), negated: negated)
            }
        }
    }

    /// A count compared with a whole number, or a third of the time with a decimal (`2.5`, `2.25`,
    /// `2.0`, `-0.5`), which the filter compares as the number it is: the predicate compares the
    /// count with the whole numbers that give the same answer (`> 2.5` is `> 2`, `== 2.5` holds
    /// for no count).
    mutating func countAtom<Variable>(_ field: String, upTo limit: UInt64,
                                      _ count: @escaping (Variable) -> Expr<Int>) -> Term<Variable, Bool> {
        let op = pick(ComparisonOp.allCases), whole = Int(random.next() % limit) - (chance(0.1) ? 1 : 0)
        guard chance(1.0 / 3) else {
            return Term("\(field) \(op.symbol) \(whole)") { Build.compare(count($0), op, Build.value(whole)) }
        }
        let fraction = pick(["5", "25", "0", "75", "000"])
        let text = whole < 0 ? "-0.\(fraction)" : "\(whole).\(fraction)"
        guard fraction.contains(where: { $0 != "0" }) else {
            return Term("\(field) \(op.symbol) \(text)") { Build.compare(count($0), op, Build.value(max(whole, 0))) }
        }
        // x = k + f with 0 < f < 1 (k = -1 for -0.f): n > x ⇔ n > k, n < x ⇔ n <= k, n == x never.
        let below = whole < 0 ? -1 : whole
        let (equivalent, bound): (ComparisonOp, Int) = switch op {
        case .greater, .greaterOrEqual: (.greater, below)
        case .less, .lessOrEqual: (.lessOrEqual, below)
        case .equal: (.equal, -1)  // no count is -1
        case .notEqual: (.notEqual, -1)
        }
        return Term("\(field) \(op.symbol) \(text)") { Build.compare(count($0), equivalent, Build.value(bound)) }
    }

    mutating func dayAtom() -> Term<DayVariable, Bool> {
        if chance(0.25) {
            return countAtom("exercises.count", upTo: 7) { Build.keyPath(Build.keyPath($0, \.exercises), \.count) }
        }
        if chance(0.2) { return dateAtom(.required("date") { Build.keyPath($0, \.date) }, others: []) }
        if chance(0.25) { return dayFieldAtom { Build.keyPath($0, \.day) } }
        let name = pick(chance(0.5) ? Pools.exercises : Pools.needles)
        return Term("exercises contains \(Self.quoted(name))") {
            Build.contains(sequence: Build.keyPath($0, \.exercises), element: Build.value(name))
        }
    }
}
