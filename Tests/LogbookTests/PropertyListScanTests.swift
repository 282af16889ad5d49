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

    func testWhatTheParserWouldChangeIsRefused() throws {
        for leading in ["\u{FEFF}x", "&#xFEFF;x", "&#65279;", "<![CDATA[\u{FEFF}]]>"] {
            XCTAssertNotNil(PropertyListStringScan.scan(xml(leading)).problem, leading)
        }
        // "x" D800 "y" as a binary UTF-16 string, the way a writer with a bug could leave it.
        var binary = BinaryPropertyList.encode(.string("x\u{E000}y"))
        let marker = try XCTUnwrap(binary.firstRange(of: Data([0xE0, 0x00])))
        binary.replaceSubrange(marker, with: [0xD8, 0x00])
        XCTAssertNotNil(PropertyListStringScan.scan(binary).problem)
        XCTAssertNil(PropertyListStringScan.scan(BinaryPropertyList.encode(.string("x\u{1F600}y"))).problem)
        XCTAssertEqual(PropertyListStringScan.scan(BinaryPropertyList.encode(.string("x\u{1F600}é"))).longest, 1 + 4 + 2)
    }
}
