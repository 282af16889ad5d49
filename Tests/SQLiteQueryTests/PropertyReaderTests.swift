import Foundation
import XCTest
@testable import SQLiteQuery

/// `PropertyReader` reads what applying the key path reads, for every kind of key path a table may
/// be described with: stored properties of structs at their offsets (trivial and reference-counted
/// values, optionals, nested structs), the record itself, and computed properties, class properties
/// and optional chains through key path application.
final class PropertyReaderTests: XCTestCase {
    private struct Inner: Equatable {
        var label: String
        var count: Int
    }

    private final class Box {
        var names = ["x", String(repeating: "long ", count: 10)]
    }

    private struct Record {
        var flag: Bool
        var id: UUID
        var title: String
        var names: [String]
        var when: Date?
        var inner: Inner
        var optionalInner: Inner?
        var box: Box
        var computed: String { title + "!" }
    }

    private static func record(_ index: Int) -> Record {
        let names: [String] = (0..<index % 7).map { "name \($0) of \(index)" }
        let when: Date? = index % 3 == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(index) * 1e7)
        let optionalInner: Inner? = index % 4 == 0 ? nil : Inner(label: String(index), count: -index)
        return Record(flag: index % 2 == 0, id: UUID(), title: String(repeating: "é\u{301}", count: index), names: names,
                      when: when, inner: Inner(label: "inner \(index)", count: index), optionalInner: optionalInner, box: Box())
    }

    private func assertReadsAsKeyPath<Value: Equatable>(_ keyPath: KeyPath<Record, Value>, of records: [Record],
                                                        storedAtOffset: Bool, line: UInt = #line) {
        let reader = PropertyReader(keyPath)
        XCTAssertEqual(reader.offset != nil, storedAtOffset, "read at an offset", line: line)
        for record in records {
            XCTAssertEqual(reader.read(record), record[keyPath: keyPath], line: line)
        }
    }

    func testEveryKindOfKeyPathReadsAsItsApplication() {
        let records = (0..<50).map(Self.record)
        assertReadsAsKeyPath(\.flag, of: records, storedAtOffset: true)
        assertReadsAsKeyPath(\.id, of: records, storedAtOffset: true)
        assertReadsAsKeyPath(\.title, of: records, storedAtOffset: true)
        assertReadsAsKeyPath(\.names, of: records, storedAtOffset: true)
        assertReadsAsKeyPath(\.when, of: records, storedAtOffset: true)
        assertReadsAsKeyPath(\.inner, of: records, storedAtOffset: true)
        assertReadsAsKeyPath(\.inner.label, of: records, storedAtOffset: true)
        assertReadsAsKeyPath(\.optionalInner, of: records, storedAtOffset: true)
        assertReadsAsKeyPath(\.optionalInner?.label, of: records, storedAtOffset: false)
        assertReadsAsKeyPath(\.computed, of: records, storedAtOffset: false)
        assertReadsAsKeyPath(\.box.names, of: records, storedAtOffset: false)
        assertReadsAsKeyPath(\.names.count, of: records, storedAtOffset: false)
        let names = ["a", "é", String(repeating: "z", count: 100)]
        let identity = PropertyReader(\String.self)
        XCTAssertNotNil(identity.offset)
        XCTAssertEqual(names.map(identity.read), names)
    }

    func testAReadValueOutlivesItsRecord() {
        let reader = PropertyReader(\Record.names)
        var kept: [[String]] = []
        for index in 0..<100 {
            let record = Record(flag: true, id: UUID(), title: "", names: ["kept \(index) " + String(repeating: "x", count: 40)],
                                when: nil, inner: Inner(label: "", count: 0), optionalInner: nil, box: Box())
            kept.append(reader.read(record))
        }
        XCTAssertEqual(kept.enumerated().map { "kept \($0.offset) " + String(repeating: "x", count: 40) }, kept.map { $0[0] })
    }
}
