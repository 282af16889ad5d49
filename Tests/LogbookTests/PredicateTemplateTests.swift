import Foundation
import LogbookTestSupport
@testable import Logbook
@testable import SQLiteQuery
import XCTest

/// A predicate of a shape translated before reuses that translation with its own values
/// (`PredicateTemplate`): each test checks that what it gets is exactly what translating the
/// predicate afresh gives, the condition in IR form, its SQL and every argument, for predicates
/// built to share shapes (the same types with other key paths, operators, variables and values of
/// every class). The fetches' results are `PredicateDifferentialTests`' to check against `evaluate`.
final class PredicateTemplateTests: XCTestCase {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["LOGBOOK_TEMPLATE_SEED"].flatMap { UInt64($0) }
        ?? 0x5445_4D50_4C41_5445

    /// A copy of `schema` with a cache of its own, empty.
    private func freshCopy<Record>(of schema: QuerySchema<Record>) -> QuerySchema<Record> {
        QuerySchema(table: schema.table, rowKey: schema.rowKey, identity: schema.identity, fields: schema.fields)
    }

    /// Fails unless `predicate`, through `schema`'s templates, is exactly its fresh translation (or
    /// throws the same error). Returns whether it reused a template.
    @discardableResult
    private func assertSameAsFreshTranslation<Record>(_ predicate: Predicate<Record>, _ text: String,
                                                      schema: QuerySchema<Record>) throws -> Bool {
        let shapesBefore = schema.templates.count
        let query = Result { try schema.query(for: FetchDescriptor(predicate: predicate)) }
        let fresh = Result { try PredicateTranslator(schema: schema).translate(predicate) }
        switch (query, fresh) {
        case (.failure(let error), .failure(let freshError)):
            XCTAssertEqual("\(error)", "\(freshError)", "the error of \(text) (seed \(Self.seed))")
            XCTAssertEqual(schema.templates.count, shapesBefore, "a shape kept for \(text)")
            return false
        case (.success(let query), .success(let fresh)):
            XCTAssertEqual(query.condition, fresh, "the condition of \(text) (seed \(Self.seed))")
            let (sql, arguments) = SQLRenderer.render(fresh)
            let rendered = try XCTUnwrap(query.renderedCondition)
            XCTAssertEqual(rendered.sql, sql, "the SQL of \(text) (seed \(Self.seed))")
            XCTAssertEqual(rendered.arguments.map(ExactValue.init), arguments.map(ExactValue.init),
                           "the arguments of \(text) (seed \(Self.seed))")
            XCTAssertEqual(rendered.isPlain, fresh.isPlain, text)
            return schema.templates.count == shapesBefore
        default:
            XCTFail("\(text): through the templates \(query), translated afresh \(fresh) (seed \(Self.seed))")
            return false
        }
    }

    func testRandomPredicatesOfSharedShapesTranslateAsAFreshTranslation() throws {
        print("PredicateTemplateTests seed \(Self.seed) (LOGBOOK_TEMPLATE_SEED)")
        let drafts = RandomRecords(seed: Self.seed).drafts(60)
        let days = RandomRecords(seed: Self.seed &+ 1).days(60)
        let random = RandomPredicates(seed: Self.seed &+ 2, drafts: drafts, days: days)
        let (draftSchema, daySchema) = (freshCopy(of: Tables.drafts.querySchema), freshCopy(of: Tables.exerciseDays.querySchema))
        var reused = 0
        for _ in 0..<2_000 {
            let (draftText, draftPredicate) = random.draftPredicate()
            if try assertSameAsFreshTranslation(draftPredicate, draftText, schema: draftSchema) { reused += 1 }
            let (dayText, dayPredicate) = random.dayPredicate()
            if try assertSameAsFreshTranslation(dayPredicate, dayText, schema: daySchema) { reused += 1 }
        }
        // Shallow shapes repeat with other key paths, operators and values; deep ones are new.
        XCTAssertGreaterThan(reused, 300, "predicates that reused a template")
        XCTAssertLessThanOrEqual(draftSchema.templates.count, PredicateTemplates.capacity)
    }

    /// One shape, `$0.field == value` and the like, with adversarial text (NFC/NFD twins, NUL,
    /// every plane), nil and non-nil optionals, lists of every length and dates over the whole range.
    func testOneShapeWithValuesOfEveryClass() throws {
        var random = SplitMix64(seed: Self.seed &+ 3)
        let schema = freshCopy(of: Tables.drafts.querySchema)
        let daySchema = freshCopy(of: Tables.exerciseDays.querySchema)
        var (calls, reused) = (0, 0)
        func check<Record>(_ predicate: Predicate<Record>, _ text: String, schema: QuerySchema<Record>) throws {
            calls += 1
            if try assertSameAsFreshTranslation(predicate, text, schema: schema) { reused += 1 }
        }
        for round in 0..<300 {
            let text = AdversarialText.string(using: &random)
            let twin = AdversarialText.twin(of: text)
            let date = Date(timeIntervalSinceReferenceDate: AdversarialDates.seconds(in: -6e10...6e10, using: &random))
            let optionalDate: Date? = random.chance(0.5) ? nil : date
            let list: [Date?] = (0..<random.int(0...4)).map { _ in random.chance(0.3) ? nil : date }
            let otherList: [Date?] = (0..<random.int(0...4)).map { _ in random.chance(0.3) ? nil : date }
            let names = (0..<random.int(0...3)).map { _ in AdversarialText.string(using: &random) }
            let label = "round \(round): \(literal(text)) / \(literal(twin)), \(literal(optionalDate))"
            try check(#Predicate<ReleaseDraft> { $0.version == text && $0.whatsNew != twin },
                                             label, schema: schema)
            try check(#Predicate<ReleaseDraft> { $0.whatsNew == twin && $0.version != text },
                                             label, schema: schema)
            try check(#Predicate<ReleaseDraft> { $0.version < text || $0.submittedAt == optionalDate },
                                             label, schema: schema)
            try check(#Predicate<ReleaseDraft> { $0.version > twin || $0.submittedAt == optionalDate },
                                             label, schema: schema)
            try check(#Predicate<ReleaseDraft> { list.contains($0.submittedAt) }, label, schema: schema)
            try check(#Predicate<ReleaseDraft> {
                list.contains($0.submittedAt) || otherList.contains($0.submittedAt)
            }, label, schema: schema)
            try check(#Predicate<ReleaseDraft> { $0.checklist.contains { $0.title == text } },
                                             label, schema: schema)
            try check(#Predicate<ReleaseDraft> { names.contains($0.version) || $0.whatsNew.contains(text) },
                                             label, schema: schema)
            try check(#Predicate<ExerciseDay> { $0.exercises.contains(text) && $0.date >= date },
                                             label, schema: daySchema)
        }
        XCTAssertGreaterThan(reused, calls * 3 / 4, "the rounds reused their shapes")
    }

    /// Nested closures whose bodies have the same type but name other variables.
    func testSameTypesNamingOtherVariablesAreOtherShapes() throws {
        let schema = freshCopy(of: Tables.exerciseDays.querySchema)
        try assertSameAsFreshTranslation(#Predicate<ExerciseDay> { day in
            day.exercises.contains { a in day.exercises.contains { b in a < b } }
        }, "a < b", schema: schema)
        XCTAssertFalse(try assertSameAsFreshTranslation(#Predicate<ExerciseDay> { day in
            day.exercises.contains { a in day.exercises.contains { b in b < a } }
        }, "b < a", schema: schema), "a new shape")
        XCTAssertFalse(try assertSameAsFreshTranslation(#Predicate<ExerciseDay> { day in
            day.exercises.contains { a in day.exercises.contains { b in b < b } }
        }, "b < b", schema: schema), "a new shape")
        XCTAssertTrue(try assertSameAsFreshTranslation(#Predicate<ExerciseDay> { day in
            day.exercises.contains { x in day.exercises.contains { y in y < x } }
        }, "y < x", schema: schema), "the shape of b < a")
    }

    /// Hand-built trees can define one variable twice (one closure used on both sides of `&&`) or
    /// refer to a closure's variable from another closure; a reference names the latest definition,
    /// as the translator binds it.
    func testAVariableDefinedTwiceOrReferredToOutsideItsClosureIsPartOfTheShape() throws {
        typealias Names = PredicateExpressions.KeyPath<DayVariable, [String]>
        typealias NameIsA = PredicateExpressions.Equal<PredicateExpressions.Variable<String>, PredicateExpressions.Value<String>>
        func containsA(_ day: DayVariable) -> PredicateExpressions.SequenceContainsWhere<Names, NameIsA> {
            PredicateExpressions.SequenceContainsWhere(PredicateExpressions.KeyPath(root: day, keyPath: \.exercises)) { name in
                PredicateExpressions.Equal(lhs: name, rhs: PredicateExpressions.Value("A"))
            }
        }
        let schema = freshCopy(of: Tables.exerciseDays.querySchema)
        try assertSameAsFreshTranslation(Predicate<ExerciseDay>({ day in
            let test = containsA(day)
            return PredicateExpressions.Conjunction(lhs: test, rhs: test)
        }), "one closure on both sides", schema: schema)
        try assertSameAsFreshTranslation(Predicate<ExerciseDay>({ day in
            let test = containsA(day)
            let other = PredicateExpressions.SequenceContainsWhere(PredicateExpressions.KeyPath(root: day, keyPath: \.exercises)) {
                (_: PredicateExpressions.Variable<String>) in
                PredicateExpressions.Equal(lhs: test.variable, rhs: PredicateExpressions.Value("A"))
            }
            return PredicateExpressions.Conjunction(lhs: test, rhs: other)
        }), "the first closure's variable in the second", schema: schema)
    }

    func testTemplatesAreSharedSafelyAcrossThreads() throws {
        let schema = freshCopy(of: Tables.drafts.querySchema)
        let random = RandomPredicates(seed: Self.seed &+ 4, drafts: RandomRecords(seed: Self.seed).drafts(20), days: [])
        let predicates = (0..<400).map { _ in random.draftPredicate() }
        final class Failures: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
        }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for (index, (_, predicate)) in predicates.enumerated() where index % 2 == thread % 2 {
                let cached = try? schema.query(for: FetchDescriptor(predicate: predicate)).condition
                let fresh = try? PredicateTranslator(schema: schema).translate(predicate)
                if cached != fresh { failures.lock.withLock { failures.count += 1 } }
            }
        }
        XCTAssertEqual(failures.count, 0, "seed \(Self.seed &+ 4)")
    }

    func testAnUntranslatablePredicateThrowsEveryTimeAndIsNotKept() throws {
        let schema = freshCopy(of: Tables.drafts.querySchema)
        let daySchema = freshCopy(of: Tables.exerciseDays.querySchema)
        func maximum<S: StandardPredicateExpression<[String]>>(_ names: S) -> Expr<String?> {
            PredicateExpressions.SequenceMaximum(elements: names)
        }
        for _ in 0..<2 {
            // A key path that is not a field: the shape is known, its translation throws.
            XCTAssertThrowsError(try schema.query(for: FetchDescriptor(predicate: Predicate<ReleaseDraft>({ draft in
                Build.equal(Build.keyPath(draft, \.summary), Build.value("0 of 1 done"))
            })))) { XCTAssertTrue("\($0)".contains("not a stored or derived field"), "\($0)") }
            // A node without a translation: no shape.
            XCTAssertThrowsError(try daySchema.query(for: FetchDescriptor(predicate: Predicate<ExerciseDay>({ day in
                Build.equal(maximum(Build.keyPath(day, \.exercises)), Build.value(Optional("Burpee")))
            })))) { XCTAssertTrue("\($0)".contains("SequenceMaximum"), "\($0)") }
        }
        XCTAssertEqual(schema.templates.count + daySchema.templates.count, 0)
    }
}

/// A `DatabaseValue` compared bit for bit (a real's sign of zero and NaN payload included).
private struct ExactValue: Equatable, CustomStringConvertible {
    let value: DatabaseValue

    static func == (lhs: ExactValue, rhs: ExactValue) -> Bool {
        switch (lhs.value, rhs.value) {
        case (.real(let left), .real(let right)): left.bitPattern == right.bitPattern
        case (.text(let left), .text(let right)): Array(left.utf8) == Array(right.utf8)
        default: lhs.value == rhs.value
        }
    }

    var description: String { "\(value)" }
}
