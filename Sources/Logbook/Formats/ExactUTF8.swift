extension String {
    /// The text whose UTF-8 is exactly `bytes`, or nil when they are not valid UTF-8.
    ///
    /// Unlike `String(data:encoding:)`, a leading byte order mark is kept, and unlike
    /// `String(decoding:as:)`, nothing is repaired: what was read is what is stored.
    public init?<Bytes: Collection<UInt8>>(exactUTF8 bytes: Bytes) {
        let text = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces each invalid sequence with U+FFFD, so valid input alone comes back as it was.
        guard text.utf8.elementsEqual(bytes) else { return nil }
        self = text
    }
}
