import Foundation
import XCTest

/// Issue 18: every store operation has an `async` form. This lint reads the library's sources and
/// finds each public throwing function that is not `async`; each must have an `async` namesake, or
/// be listed here with the reason it is not a store operation, so a new call without one is looked
/// at before it lands.
final class AsyncFormsLintTests: XCTestCase {
    private static let declaration = try! NSRegularExpression(pattern: #"public (?:static )?func (\w+)"#)

    /// name and file suffix → why it needs no `async` form.
    private static let synchronousOnly: [(name: String, file: String, reason: String)] = [
        ("encode", "Dates/CalendarDay.swift", "Codable"),
        ("storable", "Dates/CalendarDay.swift", "date arithmetic, no file"),
        ("read", "Dates/CalendarDay.swift", "reads a column of a statement already stepped"),
        ("resolved", "Dates/DateExpression.swift", "date arithmetic, no file"),
        ("begin", "Export/PostgresScript.swift", "writes to the caller's output, inside an export"),
        ("releaseDraftPropertyList", "Export/Exporter.swift", "encodes a draft the caller holds, no file"),
        ("write", "Files/FileOutput.swift", "the CLI's output"),
        ("write", "Files/FileReplacement.swift", "writes to a temporary file, inside an export"),
        ("commit", "Files/FileReplacement.swift", "renames a temporary file, inside an export"),
        ("parse", "Filters/FilterParser.swift", "parses a filter, no file"),
        ("next", "Formats/ByteStream.swift", "reads bytes, inside an import"),
        ("peek", "Formats/ByteStream.swift", "reads bytes, inside an import"),
        ("prefix", "Formats/ByteStream.swift", "reads bytes, inside an import"),
        ("skipByteOrderMark", "Formats/ByteStream.swift", "reads bytes, inside an import"),
        ("readAll", "Formats/ByteStream.swift", "reads bytes, inside an import"),
        ("nextElement", "Formats/JSONParser.swift", "parses, inside an import"),
        ("nextLine", "Formats/JSONParser.swift", "parses, inside an import"),
        ("expectEnd", "Formats/JSONParser.swift", "parses, inside an import"),
        ("beginArray", "Formats/JSONParser.swift", "parses, inside an import"),
        ("begin", "Formats/RecordStreamWriter.swift", "writes to the caller's output, inside an export"),
        ("end", "Formats/RecordStreamWriter.swift", "writes to the caller's output, inside an export"),
        ("wait", "Repositories/Observation.swift", "the CLI's blocking --watch; apps use observe and liveQuery"),
        ("hasChanged", "Repositories/Observation.swift", "the CLI's blocking --watch; apps use observe and liveQuery"),
        ("changeWatcher", "Repositories/Observation.swift", "the CLI's blocking --watch; apps use observe and liveQuery"),
        ("migrator", "Store/Schema.swift", "the embedded migrations, no file"),
    ]

    func testEveryThrowingPublicCallOfTheLibraryHasAnAsyncForm() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Logbook")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        XCTAssertFalse(files.isEmpty)
        var asynchronous = Set<String>(), synchronous: [(name: String, file: String)] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in Self.declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let nameRange = Range(match.range(at: 1), in: text) else { continue }
                let name = String(text[nameRange])
                let effects = Self.effects(ofDeclarationAfter: text[nameRange.upperBound...])
                if effects.contains("async") {
                    asynchronous.insert(name)
                } else if effects.contains("throws") {
                    synchronous.append((name, file))
                }
            }
        }
        XCTAssertFalse(asynchronous.isEmpty)
        let missing = synchronous.filter { call in
            !asynchronous.contains(call.name)
                && !Self.synchronousOnly.contains { $0.name == call.name && call.file.hasSuffix($0.file) }
        }
        XCTAssertEqual(missing.map { "\($0.file): \($0.name)" }.sorted(), [],
                       "public throwing calls without an async form (add one, or list why none is needed)")
    }

    /// The effects written between a function's parameter list and its result or body (`async`,
    /// `throws`), from the text after its name: the parameter list is found by matching parentheses,
    /// since closure parameters have their own.
    private static func effects(ofDeclarationAfter text: Substring) -> String {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 {
                    let rest = text[text.index(after: index)...]
                    let end = [rest.range(of: "->")?.lowerBound, rest.firstIndex(of: "{"), rest.range(of: "where")?.lowerBound]
                        .compactMap { $0 }.min() ?? rest.endIndex
                    return String(rest[..<end])
                }
            default: break
            }
            index = text.index(after: index)
        }
        return ""
    }
}
