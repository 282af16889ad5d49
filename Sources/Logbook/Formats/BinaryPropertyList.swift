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
///
/// An export builds its root array an item at a time (``rootArray()``, ``append(_:)``), as its
/// records stream, in compact storage: each object a kind and a range, the scalars' bytes in one
/// buffer (each distinct scalar once, found again by its hash), the references of arrays
/// and dictionaries in another. The file's size is known before its first byte (``size``), and it
/// is written in pieces (``write(to:)``): about three times the file's size in memory at most,
/// where a tree of every record, an object per value and the file in one buffer took sixteen.
struct BinaryPropertyList {
    private enum Kind {
        case scalar
        case array
        /// Its references are its keys' then its values'; `count` is the number of members.
        case dictionary
    }

    /// An object: its bytes in ``scalars`` (a scalar) or its references in ``references``.
    private struct Object {
        let kind: Kind
        let start: Int
        let count: Int
    }

    private var objects: [Object] = []
    private var scalars: [UInt8] = []
    private var references: [Int] = []
    /// The root array's items, when it is built by ``append(_:)``: written with object 0.
    private var rootItems: [Int]?
    /// Open addressing: the object number of each distinct scalar at the slot of its bytes' hash
    /// (the next free slot on a collision), -1 where none. Keyed by bytes, not by `==`: Swift's
    /// `==` on strings is canonical equivalence (NFC "É" equals NFD "E\u{301}") and on dates
    /// treats -0.0 as 0.0, and merging those would rewrite text and instants.
    private var slots = [Int](repeating: -1, count: 64)
    private var distinctScalars = 0

    /// The file of `root`.
    init(root: PropertyListValue) {
        _ = add(root)
    }

    private init() {}

    /// A file whose root is an array of the items given to ``append(_:)``, in that order.
    static func rootArray() -> BinaryPropertyList {
        var file = BinaryPropertyList()
        file.objects.append(Object(kind: .array, start: 0, count: 0))
        file.rootItems = []
        return file
    }

    /// Adds `item` to the root array's end (a file made by ``rootArray()``).
    mutating func append(_ item: PropertyListValue) {
        let reference = add(item)
        rootItems?.append(reference)
    }

    /// Adds `value` and what it holds, depth-first; returns its object number.
    private mutating func add(_ value: PropertyListValue) -> Int {
        switch value {
        case .string, .date, .bool:
            return addScalar(value)
        case .array(let items):
            let index = objects.count
            objects.append(Object(kind: .array, start: 0, count: 0))
            let children = items.map { add($0) }
            objects[index] = Object(kind: .array, start: references.count, count: children.count)
            references += children
            return index
        case .dictionary(let members):
            let index = objects.count
            objects.append(Object(kind: .dictionary, start: 0, count: 0))
            let keyReferences = members.map { add(.string($0.key)) }
            let valueReferences = members.map { add($0.value) }
            objects[index] = Object(kind: .dictionary, start: references.count, count: members.count)
            references += keyReferences
            references += valueReferences
            return index
        }
    }

    /// Adds a string, date or Boolean unless the same bytes are stored; returns its object number.
    private mutating func addScalar(_ value: PropertyListValue) -> Int {
        let start = scalars.count
        Self.appendBytes(of: value, to: &scalars)
        let new = start..<scalars.count
        var slot = hash(new) & (slots.count - 1)
        while slots[slot] >= 0 {
            let stored = objects[slots[slot]]
            if scalars[stored.start..<stored.start + stored.count] == scalars[new] {
                scalars.removeLast(new.count)
                return slots[slot]
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        let index = objects.count
        objects.append(Object(kind: .scalar, start: start, count: scalars.count - start))
        slots[slot] = index
        distinctScalars += 1
        if distinctScalars * 2 > slots.count { growSlots() }
        return index
    }

    /// Doubles the slots and places every distinct scalar again.
    private mutating func growSlots() {
        slots = [Int](repeating: -1, count: slots.count * 2)
        for (index, object) in objects.enumerated() where object.kind == .scalar {
            var slot = hash(object.start..<object.start + object.count) & (slots.count - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = index
        }
    }

    /// The hash of the scalar bytes in `range` (Swift's `Hasher`, which hashes a buffer whole: a
    /// text of 64 MiB costs it milliseconds, where a byte at a time cost a debug build a minute).
    private func hash(_ range: Range<Int>) -> Int {
        scalars.withUnsafeBytes { bytes in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
            return hasher.finalize()
        }
    }

    private static func appendBytes(of value: PropertyListValue, to bytes: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            bytes.append(flag ? 0x09 : 0x08)
        case .date(let date):
            let bits = date.timeIntervalSinceReferenceDate.bitPattern
            bytes.append(0x33)
            for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> (56 - 8 * index))) }
        case .string(let text):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x50, count: text.utf8.count, to: &bytes)
                bytes += text.utf8
            } else {
                appendMarker(0x60, count: text.utf16.count, to: &bytes)
                for unit in text.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        case .array, .dictionary:
            preconditionFailure("arrays and dictionaries are objects of references")
        }
    }

    /// The type marker with its count: in the low nibble below 15, else 0xF and an integer object.
    private static func appendMarker(_ type: UInt8, count: Int, to bytes: inout [UInt8]) {
        guard count >= 15 else { return bytes.append(type | UInt8(count)) }
        let width = countWidth(count)
        bytes += [type | 0x0F, 0x10 | UInt8(width.trailingZeroBitCount)]
        appendBigEndian(UInt64(count), width: width, to: &bytes)
    }

    /// The bytes ``appendMarker(_:count:to:)`` writes for `count`.
    private static func markerSize(count: Int) -> Int {
        count < 15 ? 1 : 2 + countWidth(count)
    }

    /// The bytes of the integer object that holds a marker's count of 15 or more (a signed integer).
    private static func countWidth(_ count: Int) -> Int {
        [1, 2, 4, 8].first { count < (1 << (8 * $0 - ($0 == 8 ? 1 : 0))) } ?? 8
    }

    /// The references of `object` (an array or dictionary), object 0's from ``rootItems`` when set.
    private func itemReferences(of object: Object, at index: Int) -> ArraySlice<Int> {
        if index == 0, let rootItems { return rootItems[...] }
        return references[object.start..<object.start + (object.kind == .dictionary ? 2 : 1) * object.count]
    }

    private var referenceWidth: Int { Self.width(for: UInt64(objects.count)) }

    /// The count an array's or dictionary's marker holds: its items, or its members.
    private func markerCount(of object: Object, at index: Int) -> Int {
        object.kind == .array ? itemReferences(of: object, at: index).count : object.count
    }

    /// The bytes of object `index` in the file.
    private func objectSize(_ object: Object, at index: Int) -> Int {
        switch object.kind {
        case .scalar: object.count
        case .array, .dictionary:
            Self.markerSize(count: markerCount(of: object, at: index)) + itemReferences(of: object, at: index).count * referenceWidth
        }
    }

    /// Where the offset table starts: after the header and every object.
    private var offsetTableOffset: Int {
        objects.indices.reduce(8) { $0 + objectSize(objects[$1], at: $1) }
    }

    /// The file's size in bytes.
    var size: Int {
        let tableOffset = offsetTableOffset
        return tableOffset + objects.count * Self.width(for: UInt64(tableOffset)) + 32
    }

    /// Writes the file to `output`, in pieces of about 64 KiB.
    func write(to output: (Data) throws -> Void) rethrows {
        let referenceWidth = referenceWidth
        var buffer: [UInt8] = Array("bplist00".utf8)
        buffer.reserveCapacity(1 << 16 + 64)
        var flushed = 0
        func flushIfFull() throws {
            if buffer.count >= 1 << 16 {
                try output(Data(buffer))
                flushed += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        for (index, object) in objects.enumerated() {
            switch object.kind {
            case .scalar:
                buffer += scalars[object.start..<object.start + object.count]
            case .array, .dictionary:
                let items = itemReferences(of: object, at: index)
                Self.appendMarker(object.kind == .array ? 0xA0 : 0xD0, count: markerCount(of: object, at: index), to: &buffer)
                for reference in items {
                    Self.appendBigEndian(UInt64(reference), width: referenceWidth, to: &buffer)
                    try flushIfFull()
                }
            }
            try flushIfFull()
        }
        let tableOffset = flushed + buffer.count
        let offsetWidth = Self.width(for: UInt64(tableOffset))
        var offset = 8
        for (index, object) in objects.enumerated() {
            Self.appendBigEndian(UInt64(offset), width: offsetWidth, to: &buffer)
            offset += objectSize(object, at: index)
            try flushIfFull()
        }
        buffer += [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(referenceWidth)]
        for value in [UInt64(objects.count), 0, UInt64(tableOffset)] { Self.appendBigEndian(value, width: 8, to: &buffer) }
        try output(Data(buffer))
    }

    /// The fewest bytes that hold `value`.
    private static func width(for value: UInt64) -> Int {
        var width = 1
        while width < 8 && value >> (8 * UInt64(width)) != 0 { width += 1 }
        return width
    }

    private static func appendBigEndian(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - index)))) }
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
