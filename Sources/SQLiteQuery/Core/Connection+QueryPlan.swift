extension Connection {
    /// Whether SQLite's plan for `sql` sorts rows in a temporary B-tree for its `ORDER BY`, whole
    /// or in part (`EXPLAIN QUERY PLAN`: `USE TEMP B-TREE FOR ORDER BY`, or `… FOR RIGHT PART OF
    /// ORDER BY` when an index holds the first terms): such a statement holds back its first row
    /// until it has read every row the sort takes in (or every row equal in the first terms).
    /// Prepares `sql` once more, without running it.
    public func planSortsRows(_ sql: String) throws -> Bool {
        let plan = try Statement(database: handle, sql: "EXPLAIN QUERY PLAN " + sql)
        while try plan.step() {
            let detail: String = try plan.column(3)
            if detail.hasPrefix("USE TEMP B-TREE FOR "), detail.hasSuffix("ORDER BY") { return true }
        }
        return false
    }
}
