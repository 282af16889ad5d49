/// The position of each key in a list that grows a new key at a time: found by a scan while the
/// list is short, since a day's five or so names cost less to scan than to hash, and by a
/// dictionary once it holds more than ``scanLimit``, so that a list of a million keys costs what
/// its keys cost and not their square (a day of 100,000 different names took 111 s to import and
/// 139 s to `check` when every name scanned the others).
struct PositionIndex<Key: Hashable> {
    /// The keys, in the order appended.
    private(set) var keys: [Key] = []
    /// The position of each key, once there are more than ``scanLimit``.
    private var positions: [Key: Int] = [:]
    static var scanLimit: Int { 16 }

    /// The position of `key`; nil when it was not appended.
    func position(of key: Key) -> Int? {
        keys.count > Self.scanLimit ? positions[key] : keys.firstIndex(of: key)
    }

    /// Appends `key`, which must be absent.
    mutating func append(_ key: Key) {
        keys.append(key)
        if keys.count == Self.scanLimit + 1 {
            for (position, key) in keys.enumerated() { positions[key] = position }
        } else if keys.count > Self.scanLimit {
            positions[key] = keys.count - 1
        }
    }

    /// Empties the list, keeping the storage.
    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
    }
}
