import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Comparison keys agree with Swift's own `==` and `<` for every scalar the running Swift knows,
/// the newest combining marks included, and keys written under another Unicode version are
/// recomputed when the file is opened.
final class ComparisonKeyTests: XCTestCase {
    private func keysEqual(_ a: String, _ b: String) -> Bool { a.comparisonKey.utf8.elementsEqual(b.comparisonKey.utf8) }

    func testEveryScalarAgainstItsDecompositionAndItsNeighbour() {
        var failures: [String] = []
        var previous = ""
        for scalar in AdversarialText.allScalars {
            let text = String(scalar)
            // Foundation's decomposition may be older than the standard library's data; whatever
            // it gives, the keys must agree with Swift's `==` on the pair.
            for other in [text.decomposedStringWithCanonicalMapping, text.precomposedStringWithCanonicalMapping, previous]
            where keysEqual(text, other) != (text == other) {
                failures.append("U+\(String(scalar.value, radix: 16, uppercase: true)) vs \(other.unicodeScalars.map { String($0.value, radix: 16) })")
            }
            // Where Swift's own `<` answers false both ways for unequal strings (U+0A32 and U+0A33,
            // whose NFC is U+0A32 U+0A3C, are such a pair), no order can agree with it: skipped.
            let keyOrder = previous.comparisonKey.utf8.lexicographicallyPrecedes(text.comparisonKey.utf8)
            let swiftIsDefinite = previous < text || text < previous
            if previous != text && swiftIsDefinite && keyOrder != (previous < text) {
                failures.append("order of U+\(String(scalar.value, radix: 16, uppercase: true)) and the scalar before it")
            }
            previous = text
        }
        XCTAssertEqual(failures.count, 0, failures.prefix(20).joined(separator: "\n"))
    }

    func testEveryPairOfCombiningMarksAfterABaseLetter() {
        let marks = AdversarialText.combiningMarks
        XCTAssertFalse(AdversarialText.newestCombiningMarks.isEmpty)
        var failures: [String] = []
        for first in marks {
            let firstClass = first.properties.canonicalCombiningClass
            for second in marks where second.properties.canonicalCombiningClass != firstClass {
                var one = "a", other = "a"
                one.unicodeScalars.append(contentsOf: [first, second])
                other.unicodeScalars.append(contentsOf: [second, first])
                if keysEqual(one, other) != (one == other) {
                    failures.append("a U+\(String(first.value, radix: 16)) U+\(String(second.value, radix: 16))")
                }
            }
        }
        XCTAssertEqual(failures.count, 0, failures.prefix(20).joined(separator: "\n"))
    }

    /// The version recorded with the keys is the newest the standard library knows, and each
    /// sentinel is the scalar first assigned in its version: when a new Swift brings a newer
    /// Unicode version, this fails until it is listed (so its keys are recomputed on open).
    func testTheRecordedUnicodeVersionIsTheStandardLibrarys() {
        var newest = (major: 0, minor: 0)
        for scalar in AdversarialText.allScalars {
            if let age = scalar.properties.age, (age.major, age.minor) > newest { newest = (age.major, age.minor) }
        }
        XCTAssertEqual(ComparisonKeyVersion.current, "\(newest.major).\(newest.minor)",
                       "the running Swift knows Unicode \(newest.major).\(newest.minor): add a sentinel for it")
    }

    func testTheNewestMarksThroughTheStore() throws {
        let test = try TestStore()
        // U+0323 (class 220) and U+0897 (Unicode 16, class 230): canonically equivalent in either order.
        let stored = "a\u{323}\u{897}", asked = "a\u{897}\u{323}"
        XCTAssertEqual(stored, asked)
        let draft = try test.store.drafts.save(ReleaseDraft(version: stored))
        XCTAssertEqual(try test.store.drafts.resolve(asked).id, draft.id)
        XCTAssertEqual(try test.store.drafts.fetch(FetchDescriptor(predicate: #Predicate<ReleaseDraft> { $0.version == asked })).map(\.id),
                       [draft.id])
        try test.store.history.addDoneExercise(stored, at: Date(timeIntervalSinceReferenceDate: 0))
        XCTAssertEqual(try test.store.history.fetchCount(FetchDescriptor(predicate: #Predicate<ExerciseDay> {
            $0.exercises.contains(asked)
        })), 1)
    }

    func testKeysWrittenUnderAnotherUnicodeVersionAreRecomputedOnOpen() throws {
        let test = try TestStore()
        let names = ["a\u{323}\u{897}", "a\u{897}\u{323}", "Cafe\u{301}", "Squat"]
        try test.store.drafts.save(ReleaseDraft(version: names[0]))
        for (index, name) in names.enumerated() {
            try test.store.history.addDoneExercise(name, at: Date(timeIntervalSinceReferenceDate: Double(index) * 86_400))
        }
        // As an older normalizer would have left them: the newest marks not reordered.
        let path = test.store.path
        let other = try Connection(path: path)
        try other.execute("""
            UPDATE drafts SET version_key = version;
            UPDATE exercises SET name_key = name WHERE name GLOB 'a*';
            UPDATE logbook_settings SET value = '15.0' WHERE name = 'comparison_keys';
            """)
        try other.execute("DELETE FROM exercise_tallies_stale")
        let reopened = try Logbook(path: path, timeZone: TimeZone(identifier: "UTC")!)
        XCTAssertEqual(try reopened.drafts.fetch(version: names[1]).count, 1)
        XCTAssertEqual(try other.scalar("SELECT count(DISTINCT name_key) FROM exercises", as: Int.self), 3)
        XCTAssertEqual(try other.scalar("SELECT value FROM logbook_settings WHERE name = 'comparison_keys'", as: String.self),
                       ComparisonKeyVersion.current)
        var rows: [ExerciseReportRow] = []
        try reopened.reports.exercises { rows.append($0) }
        XCTAssertEqual(rows.map(\.count).sorted(), [1, 1, 2], "the two spellings are counted as one exercise")
    }
}
