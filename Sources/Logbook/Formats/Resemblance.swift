import Foundation

extension String {
    /// The number of Characters to insert, delete or replace to turn this into `other` (Levenshtein).
    public func editDistance(to other: String) -> Int {
        let a = Array(self), b = Array(other)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Whether the two are the same letters up to case and diacritics (`burpee`, `Burpée`, `BURPEE`).
    public func hasSameLetters(as other: String) -> Bool {
        compare(other, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
    }

    /// The candidate this most likely was meant as, for "did you mean" hints: one with the same
    /// letters up to case and diacritics, else the nearest within a few typing mistakes (at most 2,
    /// or a third of the length) that keeps a Character of this one; nil when none is that close.
    public func closest(among candidates: [String]) -> String? {
        let length = count, limit = Swift.max(2, length / 3)
        // Folding case and diacritics makes a Character at most a few (ß → ss, ﬃ → ffi), and an edit
        // distance is at least the difference in length: a candidate far longer or shorter is
        // neither, and comparing it held copies of it (a name of megabytes took hundreds of them).
        let near = candidates.map { ($0, $0.count) }.filter { $0.1 <= 4 * length + 4 && length <= 4 * $0.1 + 4 }
        if let same = near.first(where: { $0.0 != self && hasSameLetters(as: $0.0) }) { return same.0 }
        // A candidate that shares no Character in place with this one (every one replaced: `é`
        // and a name that is U+0000 alone) resembles it in nothing.
        let scored = near.filter { abs($0.1 - length) <= limit }
            .map { (candidate: $0.0, distance: editDistance(to: $0.0), longer: Swift.max(length, $0.1)) }
            .filter { $0.distance <= limit && $0.distance < $0.longer }
        return scored.min { $0.distance < $1.distance }?.candidate
    }
}
