import Foundation
import SQLiteQuery

extension String {
    /// Whether this string sorts before `other` in SQLite's `BINARY` order (the order of `min()`
    /// and of a text primary key): by UTF-8 bytes, a prefix first. Not Swift's `<`, which compares
    /// canonical equivalents as equal.
    func precedesInUTF8(_ other: String) -> Bool {
        compareUTF8(other) < 0
    }

    /// Whether this string has the same UTF-8 bytes as `other`, as SQLite compares text (Swift's
    /// `==` is canonical equivalence).
    func hasSameUTF8(as other: String) -> Bool {
        ExactText(self) == ExactText(other)
    }

    /// memcmp of the two strings' UTF-8 bytes, the shorter first on a common prefix: negative,
    /// zero or positive. (`utf8.lexicographicallyPrecedes` compares a byte at a time through the
    /// generic `Sequence` path, about 600 instructions for two short names.)
    private func compareUTF8(_ other: String) -> Int {
        var this = self, other = other
        return this.withUTF8 { left in
            other.withUTF8 { right in
                let common = Swift.min(left.count, right.count)
                if common > 0, let a = left.baseAddress, let b = right.baseAddress {
                    let order = memcmp(a, b, common)
                    if order != 0 { return Int(order) }
                }
                return left.count - right.count
            }
        }
    }
}
