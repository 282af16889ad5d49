import Foundation
import SQLiteQuery

/// A property list value, in the shapes the apps write.
indirect enum PropertyListValue {
    case string(String)
    case date(Date)
    case bool(Bool)
    case array([PropertyListValue])
    /// Members in the order given, which is the order Swift's `PropertyListEncoder` writes a
    /// `Codable` type's properties in: its declaration order.
    case dictionary([Member])

    struct Member {
        let key: String
        let value: PropertyListValue
    }
}

/// Writes binary property lists (`bplist00`) deterministically and in the layout Foundation's own
/// encoders use: objects numbered depth-first from the root (a dictionary's keys, then its
/// values), identical strings and dates stored once, ASCII strings as ASCII and others as UTF-16BE,
/// references in the fewest bytes that hold the object count and offsets in the fewest that hold
/// the offset table's own offset, as Foundation's `PropertyListEncoder` sizes them. For the apps'
/// files this gives the very bytes the apps write. (Foundation's reader refuses a file whose
/// widths cannot reach that far: sized by the last object's number and offset instead, a file of
/// exactly 256 objects, or whose offset table starts past byte 255 while its last object starts
/// before it, was refused by the apps and by `logbook import`.)
enum BinaryPropertyList {
    static func encode(_ root: PropertyListValue) -> Data {
        var builder = Builder()
        _ = builder.add(root)
        return builder.serialize()
    }

    private enum Object {
        case scalar([UInt8])
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    private struct Builder {
        var objects: [Object] = []
        /// Scalars written so far, by their encoded bytes. Keyed by bytes, not by `==`: Swift's
        /// `==` on strings is canonical equivalence (NFC "É" equals NFD "E\u{301}") and on dates
        /// treats -0.0 as 0.0, and merging those would rewrite text and instants.
        var unique: [[UInt8]: Int] = [:]

        mutating func add(_ value: PropertyListValue) -> Int {
            switch value {
            case .string, .date, .bool:
                let bytes = Self.scalarBytes(value)
                if let index = unique[bytes] { return index }
                let index = objects.count
                objects.append(.scalar(bytes))
                unique[bytes] = index
                return index
            case .array(let items):
                let index = objects.count
                objects.append(.array([]))
                objects[index] = .array(items.map { add($0) })
                return index
            case .dictionary(let members):
                let index = objects.count
                objects.append(.array([]))
                let keyRefs = members.map { add(.string($0.key)) }
                let valueRefs = members.map { add($0.value) }
                objects[index] = .dictionary(keys: keyRefs, values: valueRefs)
                return index
            }
        }

        private static func scalarBytes(_ value: PropertyListValue) -> [UInt8] {
            switch value {
            case .bool(let flag):
                return [flag ? 0x09 : 0x08]
            case .date(let date):
                let bits = date.timeIntervalSinceReferenceDate.bitPattern
                return [0x33] + (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * $0)) }
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    return marker(0x50, count: text.utf8.count) + Array(text.utf8)
                }
                let units = Array(text.utf16)
                return marker(0x60, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            default:
                return []
            }
        }

        /// The type marker with its count: in the low nibble below 15, else 0xF and an integer object.
        private static func marker(_ type: UInt8, count: Int) -> [UInt8] {
            if count < 15 { return [type | UInt8(count)] }
            let width = [1, 2, 4, 8].first { count < (1 << (8 * $0 - ($0 == 8 ? 1 : 0))) } ?? 8
            let power = UInt8(width.trailingZeroBitCount)
            return [type | 0x0F, 0x10 | power] + bigEndian(UInt64(count), width: width)
        }

        func serialize() -> Data {
            let referenceWidth = Self.width(for: UInt64(objects.count))
            var body: [UInt8] = Array("bplist00".utf8)
            var offsets: [UInt64] = []
            for object in objects {
                offsets.append(UInt64(body.count))
                switch object {
                case .scalar(let bytes):
                    body += bytes
                case .array(let references):
                    body += Self.marker(0xA0, count: references.count)
                    for reference in references { body += Self.bigEndian(UInt64(reference), width: referenceWidth) }
                case .dictionary(let keys, let values):
                    body += Self.marker(0xD0, count: keys.count)
                    for reference in keys + values { body += Self.bigEndian(UInt64(reference), width: referenceWidth) }
                }
            }
            let offsetTableOffset = UInt64(body.count)
            let offsetWidth = Self.width(for: offsetTableOffset)
            for offset in offsets { body += Self.bigEndian(offset, width: offsetWidth) }
            body += [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(referenceWidth)]
            body += Self.bigEndian(UInt64(objects.count), width: 8) + Self.bigEndian(0, width: 8)
                + Self.bigEndian(offsetTableOffset, width: 8)
            return Data(body)
        }

        /// The fewest bytes that hold `value`.
        private static func width(for value: UInt64) -> Int {
            var width = 1
            while width < 8 && value >> (8 * UInt64(width)) != 0 { width += 1 }
            return width
        }

        private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
            (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
        }
    }
}

extension ReleaseDraft {
    /// The draft as the ShipShape app's `PropertyListEncoder` writes it: no id, no timestamps,
    /// `submittedAt` only when set.
    var propertyList: PropertyListValue {
        var members: [PropertyListValue.Member] = [
            .init(key: "version", value: .string(version)),
            .init(key: "whatsNew", value: .string(whatsNew)),
            .init(key: "checklist", value: .array(checklist.map { item in
                .dictionary([.init(key: "id", value: .string(item.id.text)),
                             .init(key: "title", value: .string(item.title)),
                             .init(key: "isDone", value: .bool(item.isDone))])
            })),
        ]
        if let submittedAt { members.append(.init(key: "submittedAt", value: .date(submittedAt))) }
        return .dictionary(members)
    }
}

extension ExerciseDay {
    /// The day as the HIITFit app writes it in `history.plist`: `[uuidString, date, [names]]`.
    var propertyList: PropertyListValue {
        .array([.string(id.text), .date(date), .array(exercises.map { .string($0) })])
    }
}
