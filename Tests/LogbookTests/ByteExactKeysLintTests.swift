import Foundation
import XCTest

/// Swift's `String` equality and hashing are canonical equivalence: a `Dictionary` or `Set` keyed
/// by `String` merges "É" and "E\u{301}". On a path that must keep bytes (the property-list writer
/// once did exactly that) keys must be bytes (`ExactText`, `[UInt8]`). This lint finds every
/// `String`-keyed collection and `Hashable` type in the library's sources; each must be listed
/// here with the reason it is harmless, so a new one is looked at before it lands.
final class ByteExactKeysLintTests: XCTestCase {
    private static let pattern = try! NSRegularExpression(pattern: #"\[String ?:|Set<String>|Dictionary<String|: .*\bHashable\b"#)

    /// file suffix and line text → why it cannot merge text that must stay apart.
    private static let reviewed: [(file: String, line: String, reason: String)] = [
        ("Import/PropertyListRecordSource.swift", "[String: Any]", "Foundation's plist dictionaries, read by ASCII member names"),
        ("Import/RecordSource.swift", "columns: [String: Int]", "CSV header names, matched against ASCII column names"),
        ("Import/IDlessOccurrences.swift", "struct Content: Hashable", "a record kind and a content id (a UUID): no text"),
        ("Store/NewDayCounts.swift", "struct Key: Hashable", "a period and an integer index of a name key interned by its bytes (ExactText)"),
        ("Store/PeriodTotals.swift", "struct PeriodStart: Hashable", "a period and a day: no text"),
        ("Store/PositionIndex.swift", "struct PositionIndex<Key: Hashable>", "generic; keyed by ExactText (name keys, by their bytes) "
            + "in DistinctNames and by interned integers in NewDayCounts"),
        ("Store/Logbook+Query.swift", "parameters: [String: DatabaseValue]", "SQL parameter names given by the caller, not data"),
        ("Store/Logbook+Query.swift", "var taken: Set<String>", "the statement's parameter names, matched as `parameters` is looked up"),
        ("Store/Logbook+Async.swift", "parameters: [String: DatabaseValue]", "the same parameters, for the async form of query"),
        ("Dates/CalendarDay.swift", "CalendarDay: Hashable", "three integers"),
        ("Records/ExerciseDay.swift", "Hashable", "records compare as Swift values do, by design"),
        ("Records/ReleaseDraft.swift", "Hashable", "records compare as Swift values do, by design"),
        ("Dates/DateExpression.swift", "dateOfWord: [String: DateExpression]", "ASCII date words, which a filter compares lowercased"),
        ("Changes/Logbook+Changes.swift", "var newest: [String:", "keyed by a kind letter and a UUID's ASCII text"),
        ("Changes/Change.swift", "Hashable", "changes compare as Swift values do, by design; never a key on a byte path"),
        ("Changes/ChangeToken.swift", "Hashable", "a logbook id and a number, compared as given"),
        ("Reports/ReportRows.swift", "Hashable", "report rows compare as Swift values do, by design; never keys on a byte path"),
        ("SQLiteQuery/Core/Values/DatabaseValue.swift", "Hashable", "value equality in Swift's sense; never a key on a byte path"),
        ("SQLiteQuery/Core/Connection.swift", "registeredCollations: Set<String>", "generated ASCII collation names"),
        ("SQLiteQuery/Core/Connection.swift", "unchangedValues: [String:", "keys named by code, not data"),
        ("SQLiteQuery/Core/Values/ExactText.swift", "ExactText: Hashable", "the byte-exact key itself"),
        ("SQLiteQuery/Core/Connection+ReadOnlyAuthorizer.swift", "Set<String>", "ASCII function and pragma names"),
        ("SQLiteQuery/Query/QueryOperations.swift", "checkedArithmetic: Set<String>", "ASCII function names"),
        ("SQLiteQuery/Table/ComparisonKeyColumn.swift", "Hashable", "ASCII table and column names"),
        ("SQLiteQuery/Query/PredicateShape.swift", "struct PredicateShape: Hashable", "a type, key paths, ASCII operator symbols and "
            + "value classes: never a captured value's text"),
        ("SQLiteQuery/Query/PredicateShape.swift", "enum Part: Hashable", "the parts of PredicateShape, as above"),
        ("SQLiteQuery/Query/PredicateShape.swift", "enum ValueClass: Hashable", "nil, text or other: no text"),
        ("SQLiteQuery/Table/StoredColumn.swift", "Hashable", "ASCII table and column names"),
        ("SQLiteQuery/Migration/MigratedSchema.swift", ": SchemaObject]", "schema object names, looked up by the migrations' ASCII names; "
            + "the cache is keyed by hexadecimal checksums"),
        ("SQLiteQuery/Migration/MigratedSchema.swift", ": [SchemaObject]]", "a file's schema objects by name, each name's objects of "
            + "both name spaces, looked up by the migrations' ASCII names"),
    ]

    func testEveryStringKeyedCollectionInTheLibraryIsReviewed() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var unreviewed: [String] = []
        for library in ["Logbook", "SQLiteQuery"] {
            let folder = sources.appendingPathComponent(library)
            let files = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            XCTAssertFalse(files.isEmpty)
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    let lineText = String(line)
                    guard Self.pattern.firstMatch(in: lineText, range: NSRange(lineText.startIndex..., in: lineText)) != nil else { continue }
                    let path = library == "SQLiteQuery" ? "SQLiteQuery/" + file : file
                    if !Self.reviewed.contains(where: { path.hasSuffix($0.file) && lineText.contains($0.line) }) {
                        unreviewed.append("\(library)/\(file): \(lineText.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        XCTAssertEqual(unreviewed, [], "String-keyed collections or Hashable types to review (key by bytes where bytes matter)")
    }
}
