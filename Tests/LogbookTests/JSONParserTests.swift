import Foundation
@testable import Logbook
import LogbookTestSupport
import XCTest

/// The JSON parser reads strings of plain ASCII without unescaping or validating them (the
/// import's common case) and every other string byte by byte: both give back exactly the text that
/// was written, wherever the file's 64 KiB reads cut it, and errors after either name the same place.
final class JSONParserTests: XCTestCase {
    func testStringsComeBackExactlyAcrossTheFilesReads() throws {
        var random = SplitMix64(seed: PropertyTestSettings.seed("LOGBOOK_JSON_SEED", default: 0x4A53_4F4E))
        let asciiWords = ["Burpee", "2026-11-25", "CD613E30-D8F1-6ADF-91B7-584A2265B1F5", "", "x y", "~", " "]
        var expected: [JSONValue] = []
        var text = ""
        // Past three of the stream's 64 KiB reads, so that strings of every kind straddle them.
        while text.utf8.count < 4 * 65_536 {
            var members: [(key: String, value: JSONValue)] = []
            var line = "{"
            for index in 0..<random.int(1...6) {
                let value: String
                switch random.int(0...2) {
                case 0: value = random.pick(asciiWords)
                case 1: value = String(repeating: random.pick(["a", "0", "-", " "]), count: random.int(0...300))
                default: value = AdversarialText.string(using: &random)
                }
                let key = "k\(index)"
                members.append((key, .string(value)))
                line += (index == 0 ? "" : ",") + "\"\(key)\":" + AdversarialText.jsonLiteral(value, escaping: 0.1, using: &random)
            }
            expected.append(.object(members))
            text += line + "}\n"
        }
        let folder = try TemporaryFolder("json")
        let file = folder.file("lines.ndjson")
        try Data(text.utf8).write(to: file)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let parser = JSONParser(stream: ByteStream(handle: handle), isLineDelimited: true)
        var parsed: [JSONValue] = []
        while let value = try parser.nextLine() { parsed.append(value) }
        XCTAssertEqual(parsed.count, expected.count)
        for (index, (got, want)) in zip(parsed, expected).enumerated() where got != want {
            XCTFail("line \(index + 1): \(got) is not \(want)")
            break
        }
    }

    /// An error after a plain ASCII string and after an escaped one names the byte it stopped after.
    func testErrorsAfterEitherKindOfStringNameTheSamePlace() throws {
        for line in [#"{"x":"abc" junk}"#, #"{"x":"\u0041bc" junk}"#, #"{"x":"é" junk}"#] {
            let parser = JSONParser(stream: ByteStream(data: Data(("{}\n" + line + "\n").utf8)), isLineDelimited: true)
            XCTAssertEqual(try parser.nextLine(), .object([]))
            XCTAssertThrowsError(try parser.nextLine()) { error in
                let junk = line.utf8.firstIndex(of: UInt8(ascii: "j"))!
                let column = line.utf8.distance(from: line.utf8.startIndex, to: junk) + 2  // 1-based, after the 'j'
                XCTAssertEqual((error as? JSONParser.SyntaxError)?.line, 2, line)
                XCTAssertEqual((error as? JSONParser.SyntaxError)?.column, column, line)
            }
        }
    }

    /// A string that is not UTF-8 is named at the first byte of its first invalid sequence, however
    /// much valid text and how many escapes come before it, and whichever kind of sequence it is
    /// (it named the column after the string's closing quote; helper-16's note). Seeded
    /// (LOGBOOK_JSON_SEED): valid adversarial text, escaped at random, around one invalid sequence.
    func testInvalidUTF8IsNamedAtItsFirstByte() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_JSON_SEED", default: 0x4A53_4F4E)
        var random = SplitMix64(seed: seed)
        let invalid: [[UInt8]] = [[0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC3], [0xE0, 0x80, 0x80], [0xE2, 0x82],
                                  [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80],
                                  [0xF5], [0xFE], [0xFF]]
        for round in 0..<400 {
            let content = { (text: String) in Array(AdversarialText.jsonLiteral(text, escaping: 0.3, using: &random).utf8.dropFirst().dropLast()) }
            let before = content(AdversarialText.string(using: &random))
            let bad = random.pick(invalid)
            let after = content(AdversarialText.string(using: &random))
            let opening = Array(#"{"k":"#.utf8) + (random.chance(0.5) ? Array(#"[1, ""#.utf8) : [UInt8(ascii: "\"")])
            let line = opening + before + bad + after + Array(#""}"#.utf8) + (opening.count > 6 ? [UInt8(ascii: "]")] : [])
            let column = opening.count + before.count + 1
            let lines = Data("{}\n".utf8) + Data(line) + Data("\n".utf8)
            let array = Data("[{},\n".utf8) + Data(line) + Data("\n]".utf8)
            for (isLineDelimited, file) in [(true, lines), (false, array)] {
                let parser = JSONParser(stream: ByteStream(data: file), isLineDelimited: isLineDelimited)
                let context = "seed \(seed), round \(round), \(bad.map { String(format: "%02X", $0) }), line \(Data(line).base64EncodedString())"
                do {
                    if isLineDelimited {
                        while try parser.nextLine() != nil {}
                    } else {
                        try parser.beginArray()
                        var isFirst = true
                        while try parser.nextElement(isFirst: isFirst) != nil { isFirst = false }
                    }
                    XCTFail("accepted: \(context)")
                } catch let error as JSONParser.SyntaxError {
                    XCTAssertEqual(error.line, 2, context)
                    XCTAssertEqual(error.column, column, context)
                    XCTAssertEqual(error.message, "invalid UTF-8 in a string (byte \(JSONParser.printable(bad[0])))", context)
                    XCTAssertEqual(error.field, opening.count > 6 ? "k[1]" : "k", context)
                }
            }
            if testRun?.failureCount ?? 0 > 0 { break }
        }
    }
}
