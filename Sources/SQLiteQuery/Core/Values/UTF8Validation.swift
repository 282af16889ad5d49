/// Whether bytes are UTF-8, decided where they lie: for a text read from SQLite, which must be
/// UTF-8 to be read as a `String` (never repaired), and for `check`'s `swift_is_utf8`.
///
/// `String(validating:as:)` decides the same, but is generic over the bytes' collection: unspecialized
/// here, it looked its metadata up on every call (about 130 instructions a name in a range fetch,
/// under callgrind). This runs over the bytes as they are, ASCII first.
enum UTF8Validation {
    /// Whether `bytes` are well-formed UTF-8 (no stray continuation byte, truncated or overlong
    /// sequence, encoded surrogate or scalar past U+10FFFF).
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The text of `bytes`, or nil when they are not UTF-8.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        isUTF8(UnsafeRawBufferPointer(bytes)) ? String(decoding: bytes, as: UTF8.self) : nil
    }
}
