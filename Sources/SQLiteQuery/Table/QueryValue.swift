import Foundation

/// A stored value's kind for queries (``ValueKind``): how a predicate or a `--where` filter
/// compares and parses it. Every value type a ``ColumnMapping`` stores has one.
public protocol QueryValue {
    /// How queries compare and parse values of this type.
    static var queryKind: ValueKind { get }
}

extension String: QueryValue { public static var queryKind: ValueKind { .text } }
extension Int: QueryValue { public static var queryKind: ValueKind { .integer } }
extension Int64: QueryValue { public static var queryKind: ValueKind { .integer } }
extension Bool: QueryValue { public static var queryKind: ValueKind { .bool } }
extension Date: QueryValue { public static var queryKind: ValueKind { .date } }
extension UUID: QueryValue { public static var queryKind: ValueKind { .uuid } }
