import Foundation
import LogbookTestSupport
@testable import Logbook

// Random records, predicates and sorts for `PredicateDifferentialTests`.
//
// `#Predicate` is a macro, so a random predicate is built at run time from `PredicateExpressions`
// nodes. Each random choice becomes a `Term`: its text (for failure messages) and a `make` closure
// that builds the expression for a given variable. `make` builds the same concrete expression type
// on every call, which the closure-taking nodes (`contains(where:)`, `allSatisfy`, `flatMap`) rely
// on: they build their body once with a scratch variable to learn its type, then again for real.

typealias Expr<Output> = any StandardPredicateExpression<Output>
typealias DraftVariable = PredicateExpressions.Variable<ReleaseDraft>
typealias DayVariable = PredicateExpressions.Variable<ExerciseDay>

// MARK: - Seeded randomness

/// A random choice made while building a predicate: its text and how to build it.
struct Term<Context, Output> {
    let text: String
    let make: (Context) -> Expr<Output>

    init(_ text: String, _ make: @escaping (Context) -> Expr<Output>) {
        self.text = text
        self.make = make
    }

    /// The same term in a context that contains this one's (`\.draft` of an item context).
    func lifted<Outer>(_ path: @escaping (Outer) -> Context) -> Term<Outer, Output> {
        let make = self.make
        return Term<Outer, Output>(text) { make(path($0)) }
    }
}

/// A random sort descriptor, with what the differential check needs to know about a text sort.
struct SortChoice<Record> {
    let descriptor: SortDescriptor<Record>
    let text: String
    /// For a text sort: the field, a name for its comparison, and that comparison on two strings.
    let textField: (keyPath: KeyPath<Record, String>, comparison: String,
                    compare: @Sendable (String, String) -> ComparisonResult)?
}

/// Inside `checklist.contains { item in … }`: the draft and the item.
struct ItemContext {
    let draft: DraftVariable
    let item: PredicateExpressions.Variable<ChecklistItem>
}

/// Inside `exercises.contains { name in … }`: the day and the name.
struct NameContext {
    let day: DayVariable
    let name: PredicateExpressions.Variable<String>
}

enum ComparisonOp: CaseIterable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    var symbol: String {
        switch self {
        case .equal: "=="
        case .notEqual: "!="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }
}

/// A Swift literal for `text` that shows every non-ASCII scalar, so NFC and NFD differ visibly.
func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case " "..."~": result.unicodeScalars.append(scalar)
        default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
    }
    return result + "\""
}

func literal(_ date: Date) -> String { date.iso8601Microseconds }

func literal(_ date: Date?) -> String { date.map(literal) ?? "nil" }

// MARK: - Expression builders (generic, so existentials open into concrete node types)

enum Build {
    static func value<Value: Codable & Sendable>(_ value: Value) -> Expr<Value> { PredicateExpressions.Value(value) }

    static func keyPath<Root: StandardPredicateExpression, Value>(_ root: Root,
                                                                  _ keyPath: KeyPath<Root.Output, Value> & Sendable)
        -> Expr<Value> {
        PredicateExpressions.KeyPath(root: root, keyPath: keyPath)
    }

    static func and<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(_ lhs: L, _ rhs: R)
        -> Expr<Bool> {
        PredicateExpressions.Conjunction(lhs: lhs, rhs: rhs)
    }

    static func or<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(_ lhs: L, _ rhs: R)
        -> Expr<Bool> {
        PredicateExpressions.Disjunction(lhs: lhs, rhs: rhs)
    }

    static func not<Wrapped: StandardPredicateExpression<Bool>>(_ wrapped: Wrapped) -> Expr<Bool> {
        PredicateExpressions.Negation(wrapped)
    }

    static func equal<T: Equatable, L: StandardPredicateExpression<T>, R: StandardPredicateExpression<T>>(
        _ lhs: L, _ rhs: R, negated: Bool = false) -> Expr<Bool> {
        negated ? PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs) : PredicateExpressions.Equal(lhs: lhs, rhs: rhs)
    }

    static func compare<T: Comparable, L: StandardPredicateExpression<T>, R: StandardPredicateExpression<T>>(
        _ lhs: L, _ op: ComparisonOp, _ rhs: R) -> Expr<Bool> {
        switch op {
        case .equal: PredicateExpressions.Equal(lhs: lhs, rhs: rhs)
        case .notEqual: PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs)
        case .less: PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .lessThan)
        case .lessOrEqual: PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .lessThanOrEqual)
        case .greater: PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .greaterThan)
        case .greaterOrEqual: PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .greaterThanOrEqual)
        }
    }

    static func conditional<T, Test: StandardPredicateExpression<Bool>, Yes: StandardPredicateExpression<T>,
                            No: StandardPredicateExpression<T>>(_ test: Test, _ yes: Yes, _ no: No) -> Expr<T> {
        PredicateExpressions.Conditional(test: test, trueBranch: yes, falseBranch: no)
    }

    /// `text.contains(other)` (a substring).
    static func contains<Base: StandardPredicateExpression<String>, Other: StandardPredicateExpression<String>>(
        _ base: Base, _ other: Other) -> Expr<Bool> {
        PredicateExpressions.CollectionContainsCollection(base: base, other: other)
    }

    static func startsWith<Base: StandardPredicateExpression<String>, Prefix: StandardPredicateExpression<String>>(
        _ base: Base, _ prefix: Prefix) -> Expr<Bool> {
        PredicateExpressions.SequenceStartsWith(base: base, prefix: prefix)
    }

    /// `sequence.contains(element)`.
    static func contains<S: StandardPredicateExpression, E: StandardPredicateExpression>(
        sequence: S, element: E) -> Expr<Bool> where S.Output: Sequence, S.Output.Element: Equatable,
        E.Output == S.Output.Element {
        PredicateExpressions.SequenceContains(sequence: sequence, element: element)
    }

    static func arithmetic<L: StandardPredicateExpression<Int>, R: StandardPredicateExpression<Int>>(
        _ lhs: L, _ op: PredicateExpressions.ArithmeticOperator, _ rhs: R) -> Expr<Int> {
        PredicateExpressions.Arithmetic(lhs: lhs, rhs: rhs, op: op)
    }

    static func divide<L: StandardPredicateExpression<Int>, R: StandardPredicateExpression<Int>>(_ lhs: L, _ rhs: R)
        -> Expr<Int> {
        PredicateExpressions.IntDivision(lhs: lhs, rhs: rhs)
    }

    static func remainder<L: StandardPredicateExpression<Int>, R: StandardPredicateExpression<Int>>(_ lhs: L, _ rhs: R)
        -> Expr<Int> {
        PredicateExpressions.IntRemainder(lhs: lhs, rhs: rhs)
    }

    static func negate<Wrapped: StandardPredicateExpression<Int>>(_ wrapped: Wrapped) -> Expr<Int> {
        PredicateExpressions.UnaryMinus(wrapped)
    }

    static func coalesce<T, L: StandardPredicateExpression<T?>, R: StandardPredicateExpression<T>>(_ lhs: L, _ rhs: R)
        -> Expr<T> {
        PredicateExpressions.NilCoalesce(lhs: lhs, rhs: rhs)
    }

    static func unwrap<T, Inner: StandardPredicateExpression<T?>>(_ inner: Inner) -> Expr<T> {
        PredicateExpressions.ForcedUnwrap(inner)
    }

    /// `optional.flatMap { body($0) }`.
    static func flatMap<T, U, Wrapped: StandardPredicateExpression<T?>>(
        _ wrapped: Wrapped, _ body: @escaping (PredicateExpressions.Variable<T>) -> Expr<U>) -> Expr<U?> {
        openFlatMap(wrapped, body(PredicateExpressions.Variable()), body)
    }

    private static func openFlatMap<T, U, Wrapped: StandardPredicateExpression<T?>, Body: StandardPredicateExpression<U>>(
        _ wrapped: Wrapped, _ sample: Body, _ body: @escaping (PredicateExpressions.Variable<T>) -> Expr<U>) -> Expr<U?> {
        PredicateExpressions.OptionalFlatMap(wrapped) { body($0) as! Body }
    }

    /// `sequence.contains(where:)`, or `sequence.allSatisfy` when `all`.
    static func containsWhere<Element, S: StandardPredicateExpression>(
        _ sequence: S, all: Bool = false, _ test: @escaping (PredicateExpressions.Variable<Element>) -> Expr<Bool>)
        -> Expr<Bool> where S.Output: Sequence, S.Output.Element == Element {
        openContainsWhere(sequence, all, test(PredicateExpressions.Variable()), test)
    }

    private static func openContainsWhere<Element, S: StandardPredicateExpression, Test: StandardPredicateExpression<Bool>>(
        _ sequence: S, _ all: Bool, _ sample: Test, _ test: @escaping (PredicateExpressions.Variable<Element>) -> Expr<Bool>)
        -> Expr<Bool> where S.Output: Sequence, S.Output.Element == Element {
        if all { return PredicateExpressions.SequenceAllSatisfy(sequence) { test($0) as! Test } }
        return PredicateExpressions.SequenceContainsWhere(sequence) { test($0) as! Test }
    }
}

// MARK: - Pools: few enough values that equal values, prefixes and duplicates are common

enum Pools {
    /// Text from the adversarial generator (any plane, the newest combining marks, U+0000 and other
    /// controls, line ends), each with its canonical twin (the same text in the other
    /// normalization form), drawn from the run's seed.
    static let adversarial: [String] = {
        var random = SplitMix64(seed: PredicateDifferentialTests.seed &+ 99)
        return (0..<12).flatMap { _ in
            let text = AdversarialText.string(using: &random, maxPieces: 2)
            return [text, AdversarialText.twin(of: text)]
        }
    }()
    /// Versions, titles and exercise names: NFC and NFD spellings, case, emoji, numeric strings.
    static let words = ["", "1.0", "1.10", "1.9", "2.0", "Café", "Cafe\u{301}", "café", "CAFÉ", "🎉", "a", "A", "b",
                        "10", "9"] + adversarial
    static let whatsNew = words + ["Fixes crashes.\nFaster sync.", "Line one\r\nLine two", "crash", "CRASH fixed 🎉",
                                   "Cafe\u{301} au lait", "ß", "ss", "👨‍👩‍👧", "👨", "e\u{301}\u{302}", "e\u{302}\u{301}",
                                   "\u{1E19}", "ﬁ", "fi", " ", "\t"]
    /// Search strings: whole values and pieces of them, including a lone combining accent.
    static let needles = words + ["af", "é", "e\u{301}", "\u{301}", "1.", "\n", "👨", "rash", "Line", "ss", "ß", "e", "\u{0}"]
        + adversarial.compactMap { $0.first.map(String.init) }
    static let exercises = ["", "Burpee", "burpee", "Push-up", "Push-ups", "Café", "Cafe\u{301}", "🎉", "a", "A",
                            "Squat", "squat ", "10", "9"] + adversarial

    /// Instants around 1970 and 2001, with microsecond fractions and neighbours one microsecond apart.
    static let dates: [Date] = [
        -1_000_000_000.123456, -86_400.5, -0.000001, 0, 0.000001, 86_400.25, 978_307_200, 978_307_200.000001,
        1_700_000_000.123456, 1_700_000_000.123457, 1_767_225_600, 1_800_000_000.999999,
    ].map { Date(timeIntervalSince1970: $0) }
}

// MARK: - Random records

final class RandomRecords {
    private var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    private func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }
    private func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < probability }

    /// A version 4 UUID from the seeded generator, so that a seed reproduces ids and their order.
    func uuid() -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// A pooled date most of the time (so equal dates are common), else a random one.
    func date() -> Date {
        if chance(0.8) { return pick(Pools.dates) }
        let seconds = Double(Int.random(in: -2_000_000_000...2_500_000_000, using: &rng))
        return Date(timeIntervalSince1970: seconds + Double(Int.random(in: 0..<1_000_000, using: &rng)) / 1_000_000)
    }

    /// One to three pooled pieces, so substrings and prefixes of other values occur.
    private func text(_ pool: [String]) -> String {
        if chance(0.7) { return pick(pool) }
        return (0..<Int.random(in: 2...3, using: &rng)).map { _ in pick(pool) }.joined(separator: pick(["", " ", "\n"]))
    }

    func drafts(_ count: Int) -> [ReleaseDraft] {
        (0..<count).map { _ in
            let checklist = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                ChecklistItem(id: uuid(), title: text(Pools.words), isDone: chance(0.5))
            }
            let created = date()
            return ReleaseDraft(id: uuid(), version: text(Pools.words), whatsNew: text(Pools.whatsNew),
                                checklist: checklist, submittedAt: chance(0.5) ? nil : date(), createdAt: created,
                                updatedAt: chance(0.3) ? created : date())
        }
    }

    /// Days with distinct calendar days (the table has `UNIQUE(day)`).
    func days(_ count: Int) -> [ExerciseDay] {
        var used = Set<Int>()
        let first = CalendarDay(year: 1950, month: 1, day: 1)!.dayNumber
        let last = CalendarDay(year: 2040, month: 12, day: 31)!.dayNumber
        return (0..<count).map { _ in
            var number = Int.random(in: first...last, using: &rng)
            while !used.insert(number).inserted { number = Int.random(in: first...last, using: &rng) }
            let exercises = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pick(Pools.exercises) }
            return ExerciseDay(id: uuid(), date: date(), day: CalendarDay(dayNumber: number)!, exercises: exercises)
        }
    }
}

// MARK: - Random predicates and sorts

final class RandomPredicates {
    private var rng: SplitMix64
    /// Values taken from the stored records, so that equality tests hit.
    private let draftIDs: [UUID]
    private let days: [CalendarDay]
    private let dayIDs: [UUID]

    init(seed: UInt64, drafts: [ReleaseDraft], days: [ExerciseDay]) {
        rng = SplitMix64(seed: seed)
        draftIDs = drafts.map(\.id)
        self.days = days.map(\.day)
        dayIDs = days.map(\.id)
    }

    private func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }
    private func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < probability }
    private func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    private func randomID() -> UUID { UUID(uuidString: String(format: "%08X-0000-4000-8000-000000000000", int(0...0xFFFF_FFFF)))! }

    // MARK: Shared shapes

    /// `&&`, `||`, `!` and `?:` over `atom`s, nested to `depth`.
    private func logic<C>(_ depth: Int, _ atom: (Int) -> Term<C, Bool>) -> Term<C, Bool> {
        if depth <= 0 || chance(0.3) { return atom(depth) }
        switch int(0...6) {
        case 0, 1:
            let (lhs, rhs) = (logic(depth - 1, atom), logic(depth - 1, atom))
            return Term("(\(lhs.text) && \(rhs.text))") { Build.and(lhs.make($0), rhs.make($0)) }
        case 2, 3:
            let (lhs, rhs) = (logic(depth - 1, atom), logic(depth - 1, atom))
            return Term("(\(lhs.text) || \(rhs.text))") { Build.or(lhs.make($0), rhs.make($0)) }
        case 4, 5:
            let inner = logic(depth - 1, atom)
            return Term("!\(inner.text)") { Build.not(inner.make($0)) }
        default:
            let (test, yes, no) = (logic(depth - 1, atom), logic(depth - 1, atom), logic(depth - 1, atom))
            return Term("(\(test.text) ? \(yes.text) : \(no.text))") {
                Build.conditional(test.make($0), yes.make($0), no.make($0))
            }
        }
    }

    private func compare<C, T: Comparable>(_ lhs: Term<C, T>, _ rhs: Term<C, T>) -> Term<C, Bool> {
        let op = pick(ComparisonOp.allCases)
        return Term("\(lhs.text) \(op.symbol) \(rhs.text)") { Build.compare(lhs.make($0), op, rhs.make($0)) }
    }

    private func constant<C, T: Codable & Sendable>(_ value: T, _ text: String) -> Term<C, T> {
        Term(text) { _ in Build.value(value) }
    }

    private func textConstant<C>() -> Term<C, String> {
        if chance(0.08) {
            // A force unwrap that may fail: `evaluate` throws, so the row is not accepted.
            let value: String? = chance(0.5) ? nil : pick(Pools.needles)
            return Term("(\(value.map(literal) ?? "nil") as String?)!") { _ in Build.unwrap(Build.value(value)) }
        }
        let value = pick(Pools.needles)
        return constant(value, literal(value))
    }

    /// `text`, or at times `text` beside a nil: after a captured `String?` with `??`, or as one
    /// branch of a `?:` whose other is a captured `String?` force-unwrapped (nil or not). A nil
    /// branch has no comparison key, and the store compared the other branch's bytes (helper-20).
    private func besideNil<C>(_ text: Term<C, String>) -> Term<C, String> {
        guard chance(0.15) else { return text }
        let captured: String? = chance(0.6) ? nil : pick(Pools.needles)
        let capturedText = "(\(captured.map(literal) ?? "nil") as String?)"
        switch int(0...2) {
        case 0:
            return Term("(\(capturedText) ?? \(text.text))") { Build.coalesce(Build.value(captured), text.make($0)) }
        default:
            let textFirst = chance(0.5)
            let test = Term<C, Bool>("\(text.text).isEmpty") { Build.keyPath(text.make($0), \String.isEmpty) }
            let unwrapped = Term<C, String>("\(capturedText)!") { _ in Build.unwrap(Build.value(captured)) }
            let (yes, no) = textFirst ? (text, unwrapped) : (unwrapped, text)
            return Term("(\(test.text) ? \(yes.text) : \(no.text))") { Build.conditional(test.make($0), yes.make($0), no.make($0)) }
        }
    }

    /// Text operations on `text` terms: comparison, contains, starts(with:), isEmpty, count.
    private func textAtom<C>(_ plainText: () -> Term<C, String>) -> Term<C, Bool> {
        func text() -> Term<C, String> { besideNil(plainText()) }
        switch int(0...5) {
        case 0, 1: return compare(text(), text())
        case 2:
            let (base, other) = (text(), text())
            return Term("\(base.text).contains(\(other.text))") { Build.contains(base.make($0), other.make($0)) }
        case 3:
            let (base, prefix) = (text(), text())
            return Term("\(base.text).starts(with: \(prefix.text))") { Build.startsWith(base.make($0), prefix.make($0)) }
        case 4:
            let base = text()
            return Term("\(base.text).isEmpty") { Build.keyPath(base.make($0), \String.isEmpty) }
        default:
            let base = text()
            let count = Term<C, Int>("\(base.text).count") { Build.keyPath(base.make($0), \String.count) }
            return compare(count, integer(0, leaves: [count]))
        }
    }

    /// Integer terms from `leaves` and small constants, with checked arithmetic that cannot overflow
    /// here (Swift would trap) and division by non-zero constants only.
    private func integer<C>(_ depth: Int, leaves: [Term<C, Int>]) -> Term<C, Int> {
        if depth <= 0 || chance(0.5) {
            if chance(0.35) {
                let value = int(-2...6)
                return constant(value, "\(value)")
            }
            return pick(leaves)
        }
        switch int(0...4) {
        case 0:
            let (lhs, rhs) = (integer(depth - 1, leaves: leaves), integer(depth - 1, leaves: leaves))
            let (op, symbol): (PredicateExpressions.ArithmeticOperator, String) =
                pick([(.add, "+"), (.subtract, "-"), (.multiply, "*")])
            return Term("(\(lhs.text) \(symbol) \(rhs.text))") { Build.arithmetic(lhs.make($0), op, rhs.make($0)) }
        case 1:
            let (lhs, divisor) = (integer(depth - 1, leaves: leaves), pick([1, 2, 3, -2]))
            return Term("(\(lhs.text) / \(divisor))") { Build.divide(lhs.make($0), Build.value(divisor)) }
        case 2:
            let (lhs, divisor) = (integer(depth - 1, leaves: leaves), pick([2, 3, -2]))
            return Term("(\(lhs.text) % \(divisor))") { Build.remainder(lhs.make($0), Build.value(divisor)) }
        case 3:
            let inner = integer(depth - 1, leaves: leaves)
            return Term("-\(inner.text)") { Build.negate(inner.make($0)) }
        default:
            return pick(leaves)
        }
    }

    private func dateConstant<C>() -> Term<C, Date> {
        var date = pick(Pools.dates)
        if chance(0.2) { date += pick([-0.000001, 0.000001]) }
        return constant(date, literal(date))
    }

    private func ordering<Record>(_ descriptor: SortDescriptor<Record>, _ text: String) -> SortChoice<Record> {
        SortChoice(descriptor: descriptor, text: text, textField: nil)
    }

    /// A sort by text, with Swift's `<` or a `String.StandardComparator`.
    private func textOrdering<Record>(_ field: KeyPath<Record, String> & Sendable, _ name: String,
                                      lexical: Bool, _ order: SortOrder) -> SortChoice<Record> {
        let descriptor: SortDescriptor<Record>
        let compare: @Sendable (String, String) -> ComparisonResult
        if lexical {
            descriptor = SortDescriptor(field, comparator: .lexical, order: order)
            compare = { String.StandardComparator.lexical.compare($0, $1) }
        } else {
            descriptor = SortDescriptor(field, order: order)
            compare = { lhs, rhs in lhs < rhs ? .orderedAscending : rhs < lhs ? .orderedDescending : .orderedSame }
        }
        return SortChoice(descriptor: descriptor, text: name + (lexical ? " lexical" : "") + (order == .forward ? "" : " desc"),
                          textField: (field, lexical ? "lexical" : "<", compare))
    }

    // MARK: Drafts

    func draftPredicate() -> (text: String, predicate: Predicate<ReleaseDraft>) {
        let term = logic(3, draftAtom)
        return (term.text, Predicate<ReleaseDraft>({ term.make($0) }))
    }

    private func draftText() -> Term<DraftVariable, String> {
        switch int(0...9) {
        case 0...3: return Term("$0.version") { Build.keyPath($0, \.version) }
        case 4, 5: return Term("$0.whatsNew") { Build.keyPath($0, \.whatsNew) }
        case 6: return Term("($0.isSubmitted ? $0.version : $0.whatsNew)") {
            Build.conditional(Build.keyPath($0, \.isSubmitted), Build.keyPath($0, \.version), Build.keyPath($0, \.whatsNew))
        }
        case 7:
            let fallback = pick(Pools.words)
            return Term("($0.submittedAt.flatMap { _ in $0.version } ?? \(literal(fallback)))") { draft in
                Build.coalesce(Build.flatMap(Build.keyPath(draft, \.submittedAt)) { (_: PredicateExpressions.Variable<Date>) in
                    Build.keyPath(draft, \.version)
                }, Build.value(fallback))
            }
        default: return textConstant()
        }
    }

    private func draftIntegerLeaves() -> [Term<DraftVariable, Int>] {
        // Nested key path nodes, as `#Predicate` writes them: `Predicate` refuses a key path of
        // several components such as `\ReleaseDraft.checklist.count`.
        [
            Term("$0.checklist.count") { Build.keyPath(Build.keyPath($0, \.checklist), \[ChecklistItem].count) },
            Term("$0.checklist.doneCount") { Build.keyPath(Build.keyPath($0, \.checklist), \[ChecklistItem].doneCount) },
            Term("$0.version.count") { Build.keyPath(Build.keyPath($0, \.version), \String.count) },
        ]
    }

    private func draftDate() -> Term<DraftVariable, Date> {
        switch int(0...9) {
        case 0, 1: return Term("$0.createdAt") { Build.keyPath($0, \.createdAt) }
        case 2: return Term("$0.updatedAt") { Build.keyPath($0, \.updatedAt) }
        case 3:
            let fallback = pick(Pools.dates)
            return Term("($0.submittedAt ?? \(literal(fallback)))") {
                Build.coalesce(Build.keyPath($0, \.submittedAt), Build.value(fallback))
            }
        case 4, 5: return Term("$0.submittedAt!") { Build.unwrap(Build.keyPath($0, \.submittedAt)) }
        case 6:
            let value: Date? = chance(0.5) ? nil : pick(Pools.dates)
            return Term("(\(literal(value)) as Date?)!") { _ in Build.unwrap(Build.value(value)) }
        default: return dateConstant()
        }
    }

    private func draftAtom(_ depth: Int) -> Term<DraftVariable, Bool> {
        switch int(0...19) {
        case 0...3: return textAtom(draftText)
        case 4:
            let list = (0..<int(0...4)).map { _ in pick(Pools.words) }
            return Term("\(list.map(literal)).contains($0.version)") {
                Build.contains(sequence: Build.value(list), element: Build.keyPath($0, \.version))
            }
        case 5, 6:
            let leaves = draftIntegerLeaves()
            return compare(integer(2, leaves: leaves), integer(2, leaves: leaves))
        case 7, 8: return compare(draftDate(), draftDate())
        case 9:
            if chance(0.5) { return Term("$0.isSubmitted") { Build.keyPath($0, \.isSubmitted) } }
            let flag = chance(0.5)
            return Term("$0.isSubmitted == \(flag)") { Build.equal(Build.keyPath($0, \.isSubmitted), Build.value(flag)) }
        case 10:
            let negated = chance(0.5)
            if chance(0.5) {
                return Term("$0.submittedAt \(negated ? "!=" : "==") nil") {
                    Build.equal(Build.keyPath($0, \.submittedAt), PredicateExpressions.NilLiteral<Date>(), negated: negated)
                }
            }
            let value: Date? = chance(0.2) ? nil : pick(Pools.dates)
            return Term("$0.submittedAt \(negated ? "!=" : "==") \(literal(value))") {
                Build.equal(Build.keyPath($0, \.submittedAt), Build.value(value), negated: negated)
            }
        case 11:
            let (op, bound) = (pick(ComparisonOp.allCases), pick(Pools.dates))
            let mapped = Term<DraftVariable, Bool?>("$0.submittedAt.flatMap { $0 \(op.symbol) \(literal(bound)) }") {
                Build.flatMap(Build.keyPath($0, \.submittedAt)) { date in Build.compare(date, op, Build.value(bound)) }
            }
            if chance(0.5) {
                let fallback = chance(0.5)
                return Term("(\(mapped.text) ?? \(fallback))") { Build.coalesce(mapped.make($0), Build.value(fallback)) }
            }
            let expected: Bool? = pick([true, false, nil])
            return Term("\(mapped.text) == \(expected.map { "\($0)" } ?? "nil")") {
                Build.equal(mapped.make($0), Build.value(expected))
            }
        case 12:
            let list: [Date?] = (0..<int(0...3)).map { _ in chance(0.25) ? nil : pick(Pools.dates) }
            return Term("\(list.map(literal)).contains($0.submittedAt)") {
                Build.contains(sequence: Build.value(list), element: Build.keyPath($0, \.submittedAt))
            }
        case 13, 14, 15:
            let all = chance(0.35)
            let test = logic(max(depth - 1, 1), itemAtom)
            return Term("$0.checklist.\(all ? "allSatisfy" : "contains") { item in \(test.text) }") { draft in
                Build.containsWhere(Build.keyPath(draft, \.checklist), all: all) { item in
                    test.make(ItemContext(draft: draft, item: item))
                }
            }
        case 16:
            return Term("$0.checklist.isEmpty") { Build.keyPath(Build.keyPath($0, \.checklist), \[ChecklistItem].isEmpty) }
        case 17:
            let id = chance(0.5) ? pick(draftIDs) : randomID()
            return compare(Term("$0.id") { Build.keyPath($0, \.id) }, constant(id, id.uuidString))
        case 18:
            let flag = chance(0.7)
            return constant(flag, "\(flag)")
        default:
            return compare(Term("$0.createdAt") { Build.keyPath($0, \.createdAt) },
                           Term("$0.updatedAt") { Build.keyPath($0, \.updatedAt) })
        }
    }

    private func itemText() -> Term<ItemContext, String> {
        switch int(0...5) {
        case 0...2: return Term("item.title") { Build.keyPath($0.item, \.title) }
        case 3: return draftText().lifted(\.draft)
        default: return textConstant()
        }
    }

    private func itemAtom(_ depth: Int) -> Term<ItemContext, Bool> {
        switch int(0...9) {
        case 0, 1: return Term("item.isDone") { Build.keyPath($0.item, \.isDone) }
        case 2:
            let flag = chance(0.5)
            return Term("item.isDone != \(flag)") { Build.equal(Build.keyPath($0.item, \.isDone), Build.value(flag), negated: true) }
        case 3...5: return textAtom(itemText)
        case 6:
            return Term("$0.checklist.contains { other in other.title == item.title && other.isDone != item.isDone }") { context in
                Build.containsWhere(Build.keyPath(context.draft, \.checklist)) { other in
                    Build.and(Build.equal(Build.keyPath(other, \.title), Build.keyPath(context.item, \.title)),
                              Build.equal(Build.keyPath(other, \.isDone), Build.keyPath(context.item, \.isDone), negated: true))
                }
            }
        case 7:
            let leaves = draftIntegerLeaves().map { $0.lifted(\ItemContext.draft) }
                + [Term("item.title.count") { Build.keyPath(Build.keyPath($0.item, \.title), \String.count) }]
            return compare(integer(1, leaves: leaves), integer(1, leaves: leaves))
        default: return draftAtom(0).lifted(\.draft)
        }
    }

    func draftSorts() -> [SortChoice<ReleaseDraft>] {
        (0..<int(0...3)).map { _ in
            let order: SortOrder = chance(0.5) ? .forward : .reverse
            let suffix = order == .forward ? "" : " desc"
            switch int(0...9) {
            case 0: return textOrdering(\ReleaseDraft.version, "version", lexical: false, order)
            case 1, 2: return textOrdering(\ReleaseDraft.version, "version", lexical: true, order)
            case 3: return textOrdering(\ReleaseDraft.whatsNew, "whatsNew", lexical: false, order)
            case 4: return textOrdering(\ReleaseDraft.whatsNew, "whatsNew", lexical: true, order)
            case 5: return ordering(SortDescriptor(\ReleaseDraft.submittedAt, order: order), "submittedAt" + suffix)
            case 6: return ordering(SortDescriptor(\ReleaseDraft.createdAt, order: order), "createdAt" + suffix)
            case 7: return ordering(SortDescriptor(\ReleaseDraft.checklist.count, order: order), "checklist.count" + suffix)
            case 8: return ordering(SortDescriptor(\ReleaseDraft.checklist.doneCount, order: order),
                                    "checklist.doneCount" + suffix)
            default: return ordering(SortDescriptor(\ReleaseDraft.updatedAt, order: order), "updatedAt" + suffix)
            }
        }
    }

    // MARK: History

    func dayPredicate() -> (text: String, predicate: Predicate<ExerciseDay>) {
        let term = logic(3, dayAtom)
        return (term.text, Predicate<ExerciseDay>({ term.make($0) }))
    }

    private func dayConstant() -> CalendarDay {
        chance(0.7) ? pick(days) : CalendarDay(dayNumber: int(-7305...25567))!
    }

    private func dayIntegerLeaves() -> [Term<DayVariable, Int>] {
        [Term("$0.exercises.count") { Build.keyPath(Build.keyPath($0, \.exercises), \[String].count) }]
    }

    private func dayAtom(_ depth: Int) -> Term<DayVariable, Bool> {
        switch int(0...13) {
        case 0, 1:
            let bound = dayConstant()
            return compare(Term("$0.day") { Build.keyPath($0, \.day) }, constant(bound, bound.description))
        case 2:
            let list = (0..<int(0...4)).map { _ in dayConstant() }
            return Term("\(list.map(\.description)).contains($0.day)") {
                Build.contains(sequence: Build.value(list), element: Build.keyPath($0, \.day))
            }
        case 3, 4: return compare(Term("$0.date") { Build.keyPath($0, \.date) }, dateConstant())
        case 5, 6:
            let name = besideNil(textConstant() as Term<DayVariable, String>)
            return Term("$0.exercises.contains(\(name.text))") {
                Build.contains(sequence: Build.keyPath($0, \.exercises), element: name.make($0))
            }
        case 7, 8, 9:
            let all = chance(0.35)
            let test = logic(max(depth - 1, 1), nameAtom)
            return Term("$0.exercises.\(all ? "allSatisfy" : "contains") { name in \(test.text) }") { day in
                Build.containsWhere(Build.keyPath(day, \.exercises), all: all) { name in
                    test.make(NameContext(day: day, name: name))
                }
            }
        case 10:
            let leaves = dayIntegerLeaves()
            return compare(integer(2, leaves: leaves), integer(2, leaves: leaves))
        case 11:
            return Term("$0.exercises.isEmpty") { Build.keyPath(Build.keyPath($0, \.exercises), \[String].isEmpty) }
        case 12:
            let id = chance(0.5) ? pick(dayIDs) : randomID()
            return compare(Term("$0.id") { Build.keyPath($0, \.id) }, constant(id, id.uuidString))
        default:
            let flag = chance(0.7)
            return constant(flag, "\(flag)")
        }
    }

    private func nameAtom(_ depth: Int) -> Term<NameContext, Bool> {
        switch int(0...7) {
        case 0...3:
            return textAtom { chance(0.6) ? Term("name") { $0.name } : textConstant() }
        case 4:
            let list = (0..<int(0...4)).map { _ in pick(Pools.exercises) }
            return Term("\(list.map(literal)).contains(name)") { Build.contains(sequence: Build.value(list), element: $0.name) }
        case 5:
            return Term("$0.exercises.contains { other in other != name && other.starts(with: name) }") { context in
                Build.containsWhere(Build.keyPath(context.day, \.exercises)) { other in
                    Build.and(Build.equal(other, context.name, negated: true), Build.startsWith(other, context.name))
                }
            }
        default: return dayAtom(0).lifted(\.day)
        }
    }

    func daySorts() -> [SortChoice<ExerciseDay>] {
        (0..<int(0...3)).map { _ in
            let order: SortOrder = chance(0.5) ? .forward : .reverse
            let suffix = order == .forward ? "" : " desc"
            switch int(0...2) {
            case 0: return ordering(SortDescriptor(\ExerciseDay.day, order: order), "day" + suffix)
            case 1: return ordering(SortDescriptor(\ExerciseDay.date, order: order), "date" + suffix)
            default: return ordering(SortDescriptor(\ExerciseDay.exercises.count, order: order), "exercises.count" + suffix)
            }
        }
    }

    /// A random `(fetchLimit, fetchOffset)`, nil most of the time.
    func page() -> (limit: Int?, offset: Int?) {
        (chance(0.35) ? int(0...40) : nil, chance(0.25) ? int(0...60) : nil)
    }
}
