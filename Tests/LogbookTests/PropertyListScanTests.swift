import Foundation
import XCTest
@testable import Logbook

/// The scan that runs before a property list is parsed: decoded lengths, and the two things the
/// parser would change silently (a leading U+FEFF in XML, an unpaired surrogate in binary UTF-16).
final class PropertyListScanTests: XCTestCase {
    private func xml(_ string: String) -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>version</key><string>"
              + string + "</string></dict></plist>").utf8)
    }

    func testXMLStringsAreMeasuredAsDecoded() {
        XCTAssertEqual(PropertyListStringScan.scan(xml("&amp;&lt;&#128512;&#x1F600;ab")).longest, 1 + 1 + 4 + 4 + 2)
        XCTAssertEqual(PropertyListStringScan.scan(xml("<![CDATA[a<b]]>c")).longest, 4)
        XCTAssertNil(PropertyListStringScan.scan(xml("a\u{FEFF}b")).problem, "U+FEFF inside a string is kept by the parser")
    }

    /// Every sequence of up to four pieces (empty and non-empty CDATA sections, U+FEFF raw, as
    /// entities and in CDATA, plain text, an entity, character references with and without
    /// digits), checked against Foundation's own parser: the
    /// scan refuses exactly the strings the parser would not read as written. (A U+FEFF after an
    /// empty CDATA section was dropped by the parser and passed the scan.)
    func testTheScanRefusesExactlyWhatTheParserChanges() throws {
        let pieces: [(xml: String, text: String)] = [
            ("<![CDATA[]]>", ""), ("<![CDATA[\u{FEFF}]]>", "\u{FEFF}"), ("\u{FEFF}", "\u{FEFF}"), ("&#xFEFF;", "\u{FEFF}"),
            ("&#65279;", "\u{FEFF}"), ("x", "x"), ("<![CDATA[x]]>", "x"), ("&amp;", "&"),
            // A reference without digits names no character; the parser reads U+0000 (helper-61).
            // One with them names its own, U+0000 too.
            ("&#x;", "&#x;"), ("&#;", "&#;"), ("&#0;", "\u{0}"),
        ]
        var sequences: [[Int]] = [[]], longest: [[Int]] = [[]]
        for _ in 0..<4 {
            longest = longest.flatMap { sequence in pieces.indices.map { sequence + [$0] } }
            sequences += longest
        }
        for sequence in sequences {
            let xmlText = sequence.map { pieces[$0].xml }.joined(), written = sequence.map { pieces[$0].text }.joined()
            let root = try PropertyListSerialization.propertyList(from: xml(xmlText), options: [], format: nil) as? [String: Any]
            let parsed = try XCTUnwrap(root?["version"] as? String, xmlText)
            let changes = !parsed.unicodeScalars.elementsEqual(written.unicodeScalars)
            XCTAssertEqual(PropertyListStringScan.scan(xml(xmlText)).problem != nil, changes,
                           "\(xmlText.debugDescription): the parser reads \(parsed.debugDescription)")
        }
    }

    func testWhatTheParserWouldChangeIsRefused() throws {
        // Named by the place of its <string> (the refusal named none: helper-47).
        let column = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>version</key>"#.count + 1
        for leading in ["\u{FEFF}x", "&#xFEFF;x", "&#65279;", "<![CDATA[\u{FEFF}]]>"] {
            let problem = PropertyListStringScan.scan(xml(leading)).problem
            XCTAssertTrue(problem?.hasPrefix("line 1, column \(column): a <string> begins with U+FEFF") ?? false, "\(leading): \(problem ?? "nil")")
        }
        // "x" D800 "y" as a binary UTF-16 string, the way a writer with a bug could leave it.
        var binary = encoded(.string("x\u{E000}y"))
        let marker = try XCTUnwrap(binary.firstRange(of: Data([0xE0, 0x00])))
        binary.replaceSubrange(marker, with: [0xD8, 0x00])
        XCTAssertNotNil(PropertyListStringScan.scan(binary).problem)
        XCTAssertNil(PropertyListStringScan.scan(encoded(.string("x\u{1F600}y"))).problem)
        XCTAssertEqual(PropertyListStringScan.scan(encoded(.string("x\u{1F600}é"))).longest, 1 + 4 + 2)
    }
}

/// The binary property list of `root`, as an export writes it.
private func encoded(_ root: PropertyListValue) -> Data {
    var data = Data()
    BinaryPropertyList(root: root).write { data.append($0) }
    return data
}
