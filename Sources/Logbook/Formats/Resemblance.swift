import Foundation

extension String {
    /// The number of Characters to insert, delete or replace to turn this into `other` (Levenshtein).
    public func editDistance(to other: String) -> Int {
        let a = Array(self), b = Array(other)
        return Self.editDistance(a, b, atMost: Swift.max(a.count, b.count)) ?? Swift.max(a.count, b.count)
    }

    /// The edit distance of `a` and `b` when it is at most `limit`, else nil. Only the cells within
    /// `limit` of the table's diagonal are computed, and the rows stop once every cell of one is
    /// past `limit`: time in proportion to the length times `limit`, not to the length squared (a
    /// near twin of a stored name of 128,000 letters took 30 s to hint at).
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        let beyond = limit + 1
        // Row i holds the distances of a's first i Characters to b's first j; cells outside the
        // band hold `beyond`, which every path through them exceeds.
        var previous = (0...b.count).map { Swift.min($0, beyond) }
        var current = [Int](repeating: beyond, count: b.count + 1)
        for i in a.indices.map({ $0 + 1 }) {
            let low = Swift.max(1, i - limit), high = Swift.min(b.count, i + limit)
            current[0] = Swift.min(i, beyond)
            if low > 1 { current[low - 1] = beyond }
            var smallest = current[0]
            if low <= high {
                for j in low...high {
                    let replaced = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    current[j] = Swift.min(replaced, previous[j] + 1, current[j - 1] + 1, beyond)
                    smallest = Swift.min(smallest, current[j])
                }
            }
            if high < b.count { current[high + 1] = beyond }
            if smallest > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// Whether the two are the same letters up to case and diacritics (`burpee`, `Burpée`, `BURPEE`).
    public func hasSameLetters(as other: String) -> Bool {
        compare(other, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
    }

    /// The candidate this most likely was meant as, for "did you mean" hints: one with the same
    /// letters up to case and diacritics, else the nearest within a few typing mistakes (at most 2,
    /// or a third of the length, and never more than 10) that keeps a Character of this one; nil
    /// when none is that close.
    public func closest(among candidates: [String]) -> String? {
        let length = count, limit = Swift.max(2, Swift.min(length / 3, 10))
        let characters = Array(self)
        // Folding case and diacritics makes a Character at most a few (ß → ss, ﬃ → ffi), and an edit
        // distance is at least the difference in length: a candidate far longer or shorter is
        // neither, and comparing it held copies of it (a name of megabytes took hundreds of them).
        let near = candidates.map { ($0, $0.count) }.filter { $0.1 <= 4 * length + 4 && length <= 4 * $0.1 + 4 }
        if let same = near.first(where: { $0.0 != self && hasSameLetters(as: $0.0) }) { return same.0 }
        // A candidate that shares no Character in place with this one (every one replaced: `é`
        // and a name that is U+0000 alone) resembles it in nothing.
        let scored = near.filter { abs($0.1 - length) <= limit }
            .compactMap { candidate, candidateLength in
                Self.editDistance(characters, Array(candidate), atMost: limit)
                    .map { (candidate: candidate, distance: $0, longer: Swift.max(length, candidateLength)) }
            }
            .filter { $0.distance < $0.longer }
        return scored.min { $0.distance < $1.distance }?.candidate
    }
}
