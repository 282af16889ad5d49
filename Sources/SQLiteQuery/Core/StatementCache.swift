/// A connection's prepared statements, by their exact SQL text (``ExactText``: bytes, not
/// canonical equivalence).
///
/// Finding a statement by its text hashes every byte of it, about two thousand instructions for
/// a statement of a few lines, on every execution. The SQL of a hot path is a literal or a string
/// stored for the program's life, whose bytes stay at one address, so each statement found is
/// also remembered by that address and looked up there first. The bytes are compared before the
/// statement is used (a long string stays where it is, held by the cache while remembered). A
/// text short enough to live inside the `String` (up to 15 bytes on a 64-bit platform) has no
/// such address and is found by its text. Strings built anew
/// for each call miss that first look-up and are found by their text; the addresses kept are bounded.
///
/// Statements prepared together for one purpose, such as a fetch's parent statement and the
/// statements of its child collections, are also kept as a group under a key their SQL is a
/// function of (``group(for:)``), so that the SQL need not be built again to find them.
struct StatementCache {
    private var byText: [ExactText: Statement] = [:]
    private var byAddress: [UnsafeRawPointer: (sql: ExactText, statement: Statement)] = [:]
    private var groups: [[ExactText]: StatementGroup] = [:]
    /// Addresses kept at most; past that they are forgotten and learnt again.
    private static let addressLimit = 256
    /// Groups kept at most; past that they are forgotten and built again.
    private static let groupLimit = 128
    /// The most UTF-8 bytes a Swift string keeps inline, without storage of its own, on a 64-bit platform.
    private static let inlineTextLimit = 15

    /// The statements cached.
    var count: Int { byText.count }

    /// The statement prepared for `sql`, or nil.
    mutating func statement(for sql: String) -> Statement? {
        let key = ExactText(sql)
        // A text of up to 15 bytes usually lives inside the `String` itself (on a 64-bit platform),
        // so it has no address of its own (`BEGIN IMMEDIATE` and `COMMIT` kept displacing each
        // other at the temporary copy's): it is found by its text, which is quick to hash.
        let address = sql.utf8.count <= Self.inlineTextLimit ? nil
            : sql.utf8.withContiguousStorageIfAvailable { $0.baseAddress.map(UnsafeRawPointer.init) } ?? nil
        if let address, let remembered = byAddress[address], remembered.sql == key { return remembered.statement }
        guard let statement = byText[key] else { return nil }
        if let address { remember(statement, for: key, at: address) }
        return statement
    }

    /// Caches `statement`, prepared for `sql`.
    mutating func insert(_ statement: Statement, for sql: String) {
        byText[ExactText(sql)] = statement
    }

    /// The group of statements cached under `key`, or nil.
    func group(for key: [ExactText]) -> StatementGroup? { groups[key] }

    /// Caches `group` under `key`.
    mutating func insert(_ group: StatementGroup, for key: [ExactText]) {
        if groups.count >= Self.groupLimit { groups.removeAll(keepingCapacity: true) }
        groups[key] = group
    }

    /// Forgets every statement.
    mutating func removeAll() {
        byText.removeAll()
        byAddress.removeAll()
        groups.removeAll()
    }

    private mutating func remember(_ statement: Statement, for sql: ExactText, at address: UnsafeRawPointer) {
        if byAddress.count >= Self.addressLimit { byAddress.removeAll(keepingCapacity: true) }
        byAddress[address] = (sql, statement)
    }
}

/// Statements prepared together, with their SQL (to prepare them again when one is in use).
struct StatementGroup {
    let sql: [String]
    let statements: [Statement]
}
