import Foundation
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// The build tool that compiles `Migrations/*.sql` into the binary keeps any file's text exactly:
/// Swift's raw string literals would not (`\#` sequences are escapes there, and multi-line
/// literals turn CR LF into LF), so it embeds base64 (issue 15, item 12), with each file's checksum.
final class MigrationsEmbedderTests: XCTestCase {
    func testHostileFileContentsEmbedUnchanged() throws {
        let tool = CLIHarness.executable.deletingLastPathComponent().appendingPathComponent("MigrationsEmbedder-tool")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw XCTSkip("the embedder tool is not built beside the tests at \(tool.path)")
        }
        let scratch = try TemporaryFolder("embedder")
        let folder = scratch.url
        let hostile = [
            // '"""#', "\#n", '\#(x)', '\##(y)', "\\": delimiters and escapes of Swift's raw strings.
            "0001_quotes.sql": "SELECT '\"\"\"#', \"\\#n\", '\\#(x)', '\\##(y)', \"\\\\\";",
            "0002_line_ends.sql": "-- CRLF\r\nSELECT 1;\r\n-- lone CR\rSELECT 2;\n",
            "0003_mark.sql": "\u{FEFF}-- starts with a byte order mark\nSELECT 'é', 'e\u{301}';\n",
            "0004_closing.sql": "SELECT 1; -- \"\"\"#) ]\n\"\"\"##\n",
        ]
        for (name, text) in hostile { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let output = folder.appendingPathComponent("Embedded.swift")
        let process = Process()
        process.executableURL = tool
        process.arguments = [output.path, folder.path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)

        let source = try String(contentsOf: output, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\("([A-Za-z0-9+/=]*)", "([A-Za-z0-9+/=]*)", "([0-9a-f]{64})"\)"#)
        var embedded: [String: (text: Data, checksum: String)] = [:]
        for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
            let field = { (index: Int) in String(source[Range(match.range(at: index), in: source)!]) }
            let name = String(decoding: Data(base64Encoded: field(1)) ?? Data(), as: UTF8.self)
            embedded[name] = (Data(base64Encoded: field(2)) ?? Data(), field(3))
        }
        XCTAssertEqual(embedded.count, hostile.count)
        for (name, text) in hostile {
            XCTAssertEqual(embedded[name]?.text, Data(text.utf8), name)
            XCTAssertEqual(embedded[name]?.checksum, SHA256.hexDigest(of: Data(text.utf8)), name)
        }
    }
}
