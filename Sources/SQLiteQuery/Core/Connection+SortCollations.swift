import Foundation

extension Connection {
    /// The name of a collation that sorts text with `comparator` (ascending; `DESC` reverses it),
    /// registered on this connection on first use.
    func collationName(for comparator: String.StandardComparator) throws -> String {
        var forward = comparator
        forward.order = .forward
        let encoded = (try? JSONEncoder().encode(forward)) ?? Data("\(forward)".utf8)
        let name = "swift_sort_" + SHA256.hexDigest(of: encoded).prefix(16)
        if !registeredCollations.contains(name) {
            try createCollation(name) { forward.compare($0, $1) }
            registeredCollations.insert(name)
        }
        return name
    }
}
