/// Which parent rows a fetch reads, and in what order, as SQL pieces: the parent statement is built
/// from them, and each child collection's statement from the same pieces, so children arrive in
/// the order of their parents and are read in lockstep, one ordered query per collection (or, when
/// that would cost more, one parent's children at a time by its row key).
public struct FetchPage: Sendable {
    /// The parent table.
    public let table: String
    /// The parent table's row-key column, which child rows refer to.
    public let rowKey: String
    /// ` WHERE …` or "".
    let whereSQL: String
    let whereArguments: [DatabaseValue]
    /// The ORDER BY terms; they end with a unique column, so the order is total.
    let orderSQL: String
    let orderArguments: [DatabaseValue]
    /// ` LIMIT … OFFSET …` or "".
    let limitSQL: String
    /// Whether the child statements may select from the page itself, in lockstep with the parent
    /// statement: no LIMIT or OFFSET, and a condition cheap to run again (none, or a plain one).
    /// Otherwise they select one parent's rows at a time by its row key (``oneParent(table:rowKey:)``).
    let repeatsCheaply: Bool

    /// The parent rows: `SELECT <columns> FROM table WHERE … ORDER BY … LIMIT …`; public so that
    /// tools and tests can see (and `EXPLAIN`) the SQL a fetch runs.
    public func parentStatement(columns: String) -> (sql: String, arguments: [DatabaseValue]) {
        ("SELECT \(columns) FROM \(table)\(whereSQL) ORDER BY \(orderSQL)\(limitSQL)", arguments)
    }

    /// What the parent and child statements bind: the condition's arguments, then the order's.
    var arguments: [DatabaseValue] { whereArguments + orderArguments }

    /// A page of `table` with neither condition nor order: what a description's child statements
    /// are built on to describe them, once, in the keys of its fetches' cached statements.
    static func template(table: String, rowKey: String) -> FetchPage {
        FetchPage(table: table, rowKey: rowKey, whereSQL: "", whereArguments: [], orderSQL: "", orderArguments: [],
                  limitSQL: "", repeatsCheaply: true)
    }

    /// The one parent whose row key is bound to `?1`: what a child collection's statement for one
    /// parent at a time is built on (``OneParentChildReader``). It needs no ORDER BY of the
    /// parent's: one row comes in no other order.
    static func oneParent(table: String, rowKey: String) -> FetchPage {
        FetchPage(table: table, rowKey: rowKey, whereSQL: " WHERE \(table).\(rowKey) = ?1", whereArguments: [],
                  orderSQL: "\(table).\(rowKey)", orderArguments: [], limitSQL: "", repeatsCheaply: true)
    }

    /// The key under which the statements of a fetch of this page are cached: `signature` (what
    /// they select besides the page: columns, child collections) and the page's SQL, which with
    /// it determine every statement's text.
    func statementKey(signature: String) -> [String] {
        [signature, table, rowKey, whereSQL, orderSQL, limitSQL]
    }

    /// Child rows joined to their parents in parent order, then `childOrder`:
    /// `SELECT table.rowKey, <columns> FROM table CROSS JOIN <children> WHERE … ORDER BY …, childOrder`.
    /// Built on a page that ``repeatsCheaply``, which has no LIMIT.
    ///
    /// The parents are the outer loop whatever the planner's statistics say (`CROSS JOIN`): with
    /// the child table's statistics and none of the parents' (`PRAGMA optimize` after an import
    /// that queried only the children) SQLite scanned every child row and sorted them all before
    /// the first record came out (a 9,000-day export took 12 s to its first byte; helper-31).
    func childStatement(columns: String, children: String, childOrder: String) -> String {
        "SELECT \(table).\(rowKey), \(columns) FROM \(table) CROSS JOIN \(children)" + whereSQL
            + " ORDER BY \(orderSQL), \(childOrder)"
    }
}
