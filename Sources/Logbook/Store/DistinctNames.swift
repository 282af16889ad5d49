import SQLiteQuery

/// Exercise names counted one entry per name key, by UTF-8 bytes as SQLite groups text, each with
/// its smallest spelling (in UTF-8 byte order, as SQLite's `min()`) and how often it occurs: a
/// day's exercises, or a week's. Each key is found through a ``PositionIndex``.
struct DistinctNames {
    /// One entry per name key, in the order first added.
    private(set) var entries: [ExerciseTallies.DistinctName] = []
    private var index = PositionIndex<ExactText>()

    init() {}

    /// The names of a day's exercises `names`, each with its key (``Swift/String/comparisonKey``).
    init(_ names: [String]) {
        for name in names { add((name.comparisonKey, name, 1)) }
    }

    /// Adds `name`'s count to the entry of its key, keeping the smaller spelling, or adds the entry.
    mutating func add(_ name: ExerciseTallies.DistinctName) {
        let key = ExactText(name.key)
        if let position = index.position(of: key) {
            Self.merge(name, into: &entries[position])
        } else {
            entries.append(name)
            index.append(key)
        }
    }

    /// Adds `name`'s count to `entry`, of the same key, keeping the smaller spelling in UTF-8 byte order.
    private static func merge(_ name: ExerciseTallies.DistinctName, into entry: inout ExerciseTallies.DistinctName) {
        entry.count += name.count
        if name.name.precedesInUTF8(entry.name) { entry.name = name.name }
    }

    /// Whether a name of key `key` (by UTF-8 bytes) is counted.
    func contains(key: String) -> Bool {
        index.position(of: ExactText(key)) != nil
    }

    /// Forgets every entry, keeping the storage.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        index.removeAll()
    }
}
