/// Reads one property of records through its key path, the cheap way where there is one.
///
/// A stored property of a struct, and the record itself (`\.self`, an element that is itself the
/// column's value, as a day's exercise names), is copied from its offset in the record
/// (`MemoryLayout.offset(of:)`); any other key path is applied. Applying a key path runs the
/// runtime's generic projection, with a look-up of type metadata: about 600 instructions under
/// `callgrind`, once per column and row on every insert.
@usableFromInline
struct PropertyReader<Root, Value> {
    @usableFromInline let keyPath: KeyPath<Root, Value>
    /// The property's offset in `Root`, nil when it is not a stored property of a struct.
    @usableFromInline let offset: Int?

    @inlinable
    init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
        offset = MemoryLayout<Root>.offset(of: keyPath)
    }

    /// The property's value in `root`.
    @inlinable
    func read(_ root: Root) -> Value {
        guard let offset else { return root[keyPath: keyPath] }
        return withUnsafeBytes(of: root) { $0.load(fromByteOffset: offset, as: Value.self) }
    }
}
