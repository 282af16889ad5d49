extension UnsafeBufferPointer<UInt8> {
    /// Where `needle` first occurs in these bytes at or after `start`, nil if nowhere.
    func firstIndex(of needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, start < count else { return nil }
        var index = start
        while index <= count - needle.count {
            if self[index] == first && self[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
