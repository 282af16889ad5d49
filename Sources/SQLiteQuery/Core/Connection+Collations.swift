import CSQLite
import Foundation

private final class CollationBox {
    let compare: (String, String) -> ComparisonResult
    init(_ compare: @escaping (String, String) -> ComparisonResult) { self.compare = compare }
}

extension Connection {
    /// Registers a collating sequence for this connection: `ORDER BY x COLLATE name` then sorts
    /// text with `compare`. It must be a consistent total order.
    public func createCollation(_ name: String, compare: @escaping (String, String) -> ComparisonResult) throws {
        let box = Unmanaged.passRetained(CollationBox(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(handle, name, SQLITE_UTF8, box, { pointer, lhsCount, lhs, rhsCount, rhs in
            guard let pointer else { return 0 }
            let collation = Unmanaged<CollationBox>.fromOpaque(pointer).takeUnretainedValue()
            let left = text(lhs, lhsCount)
            let right = text(rhs, rhsCount)
            switch collation.compare(left, right) {
            case .orderedAscending: return -1
            case .orderedDescending: return 1
            case .orderedSame: return 0
            }
        }, { pointer in
            if let pointer { Unmanaged<CollationBox>.fromOpaque(pointer).release() }
        })
        guard code == SQLITE_OK else {
            // Unlike a function's, a collation's destructor is not called when registration fails.
            Unmanaged<CollationBox>.fromOpaque(box).release()
            throw SQLiteError(code: code, message: "cannot register collation \(name)")
        }
    }
}

private func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
    guard let bytes else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
}
