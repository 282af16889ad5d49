import Foundation

/// UUIDs as the 36 uppercase characters of `uuidString` (8-4-4-4-12), parsed and written without
/// Foundation's `sscanf`/`sprintf`: every fetched and exported row goes through here.
enum UUIDText {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The UUID in `bytes`, or nil when they are not exactly a UUID: in either case, or, with
    /// `uppercaseOnly`, only as `uuidString` writes it (a stored id: Logbook's lookups bind that
    /// text, so another spelling of the same UUID would be a record no lookup finds).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, uppercaseOnly: Bool = false) -> UUID? {
        guard bytes.count == 36, bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { output -> Bool in
            var index = 0
            for byteIndex in 0..<16 {
                if index == 8 || index == 13 || index == 18 || index == 23 { index += 1 }
                guard let high = nibble(bytes[index], uppercaseOnly), let low = nibble(bytes[index + 1], uppercaseOnly) else { return false }
                output[byteIndex] = high << 4 | low
                index += 2
            }
            return true
        }
        return parsed ? UUID(uuid: value) : nil
    }

    /// The length of the text: 32 hexadecimal digits and 4 hyphens.
    static let length = 36

    /// `uuid.uuidString`, byte for byte.
    static func format(_ uuid: UUID) -> String {
        String(unsafeUninitializedCapacity: length) { output in
            write(uuid, into: output)
            return length
        }
    }

    /// Writes the bytes of `uuid.uuidString` into the first ``length`` bytes of `output`.
    static func write(_ uuid: UUID, into output: UnsafeMutableBufferPointer<UInt8>) {
        var value = uuid.uuid
        withUnsafeBytes(of: &value) { input in
            hexDigits.withUnsafeBufferPointer { digits in
                var index = 0
                for byteIndex in 0..<16 {
                    if byteIndex == 4 || byteIndex == 6 || byteIndex == 8 || byteIndex == 10 {
                        output[index] = 0x2D
                        index += 1
                    }
                    output[index] = digits[Int(input[byteIndex] >> 4)]
                    output[index + 1] = digits[Int(input[byteIndex] & 0x0F)]
                    index += 2
                }
            }
        }
    }

    private static func nibble(_ byte: UInt8, _ uppercaseOnly: Bool) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66 where !uppercaseOnly: byte - 0x61 + 10
        default: nil
        }
    }
}

extension UUID {
    /// The same text as `uuidString` (36 uppercase characters), written without `sprintf`.
    public var text: String { UUIDText.format(self) }

    /// Parses the 36-character form in any case, as `UUID(uuidString:)` does, without `sscanf`.
    public init?(text: String) {
        var text = text
        guard let uuid = text.withUTF8({ UUIDText.parse($0) }) else { return nil }
        self = uuid
    }
}
