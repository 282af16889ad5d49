import Foundation

/// Finds the longest string in a property list's bytes without parsing it, so that a file holding
/// a string over ``RecordLimits/textBytes`` is refused before `PropertyListSerialization` spends
/// memory on it (a 100 MB string cost 1 GB).
///
/// Binary lists are read through their offset table: each string object's marker gives its
/// length, and UTF-16 strings are measured in UTF-8 bytes exactly. In XML, the text between
/// `<string>` (or `<key>`) and its closing tag is measured; entities only shorten it, so that is
/// an upper bound. A list this scan cannot follow is left to the parser to reject.
enum PropertyListStringScan {
    /// The UTF-8 length of the longest string, or an upper bound of it; 0 when none is found.
    static func longestString(in data: Data) -> Int {
        data.withUnsafeBytes { buffer in
            let bytes = buffer.bindMemory(to: UInt8.self)
            return bytes.starts(with: "bplist".utf8) ? longestBinaryString(bytes) : longestXMLString(bytes)
        }
    }

    private static func longestBinaryString(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard bytes.count >= 40 else { return 0 }
        let trailer = bytes.count - 32
        let offsetWidth = Int(bytes[trailer + 6]), objectCount = integer(bytes, at: trailer + 8, width: 8)
        let tableOffset = integer(bytes, at: trailer + 24, width: 8)
        guard (1...8).contains(offsetWidth), let objectCount, let tableOffset, objectCount <= bytes.count,
              tableOffset <= trailer, objectCount * offsetWidth <= trailer - tableOffset else { return 0 }
        var longest = 0
        for object in 0..<objectCount {
            guard let offset = integer(bytes, at: tableOffset + object * offsetWidth, width: offsetWidth),
                  offset < trailer else { continue }
            let marker = bytes[offset]
            guard [0x50, 0x60, 0x70].contains(marker & 0xF0), let (count, start) = length(bytes, marker: marker, at: offset)
            else { continue }
            switch marker & 0xF0 {
            case 0x60:
                // UTF-16BE units: 1 to 3 UTF-8 bytes each (a surrogate pair, 2 units, is 4 bytes).
                guard count <= (trailer - start) / 2 else { continue }
                var length = 0
                for index in 0..<count {
                    let unit = Int(bytes[start + 2 * index]) << 8 | Int(bytes[start + 2 * index + 1])
                    length += unit < 0x80 ? 1 : unit < 0x800 || (0xD800...0xDFFF).contains(unit) ? 2 : 3
                }
                longest = max(longest, length)
            default:
                longest = max(longest, count)
            }
        }
        return longest
    }

    /// An object's count (from the marker's low nibble, or the integer object after it) and where
    /// its content starts.
    private static func length(_ bytes: UnsafeBufferPointer<UInt8>, marker: UInt8, at offset: Int) -> (Int, Int)? {
        guard marker & 0x0F == 0x0F else { return (Int(marker & 0x0F), offset + 1) }
        guard offset + 1 < bytes.count, bytes[offset + 1] & 0xF0 == 0x10 else { return nil }
        let width = 1 << Int(bytes[offset + 1] & 0x0F)
        guard width <= 8, let count = integer(bytes, at: offset + 2, width: width) else { return nil }
        return (count, offset + 2 + width)
    }

    /// A big-endian unsigned integer of `width` bytes at `offset`, or nil past the end or above `Int.max`.
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, width: Int) -> Int? {
        guard offset >= 0, width <= 8, offset <= bytes.count - width else { return nil }
        var value: UInt64 = 0
        for index in 0..<width { value = value << 8 | UInt64(bytes[offset + index]) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    private static func longestXMLString(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var longest = 0
        var index = 0
        while let open = find(Array("<".utf8), in: bytes, from: index) {
            index = open + 1
            for tag in ["string", "key"] {
                let opening = Array("<\(tag)>".utf8)
                guard bytes[open...].starts(with: opening) else { continue }
                let start = open + opening.count
                let end = find(Array("</\(tag)>".utf8), in: bytes, from: start) ?? bytes.count
                longest = max(longest, end - start)
                index = end
            }
        }
        return longest
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, start < bytes.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == first && bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
