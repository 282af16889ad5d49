import SQLiteQuery

/// What another program's writes can leave wrong in the data Logbook derives, found and put right
/// the same way by `Logbook.check()` and `Logbook.repair(dryRun:)`: rows whose parent is gone
/// (deleted with foreign keys off), positions that are not 1…n, keys that are not the key of their
/// text, and tallies that disagree with a recount.
enum DerivedDataAudit {
    /// A child table's rows and the parent they need: the rows without it that ``repair(in:)`` removes.
    static let children: [(table: String, parentColumn: String, parent: String)] = [
        ("exercises", "day_pk", "exercise_days"), ("exercise_day_aliases", "day_pk", "exercise_days"),
        ("checklist_items", "draft_pk", "drafts"),
    ]
    /// Child tables whose rows are ordered 1…n per parent, the word for a parent, and how one (by
    /// its row key `pk`) is named for people.
    private static let ordered: [(table: String, parentColumn: String, parentNoun: String, parentName: String)] = [
        ("exercises", "day_pk", "day", "(SELECT day FROM exercise_days WHERE pk = misnumbered.pk)"),
        ("checklist_items", "draft_pk", "draft",
         "(SELECT 'draft ' || id || ' (' || quote(version) || ')' FROM drafts WHERE pk = misnumbered.pk)"),
    ]

    /// Each problem with counts and a few examples, each ending with the command that fixes it.
    static func problems(in connection: Connection) throws -> [String] {
        var problems: [String] = []
        for (table, parentColumn, parent) in children {
            let count = try orphanCount(table, parentColumn, parent, in: connection)
            if count > 0 { problems.append("\(table): \(rows(count)) whose \(parent) row is gone") }
        }
        for (table, parentColumn, parentNoun, parentName) in ordered {
            let count = try misnumberedParents(table, parentColumn, in: connection).count
            if count > 0 {
                let names = try texts("""
                    SELECT coalesce(\(parentName), 'row key ' || pk) FROM (\(misnumberedParentsSQL(table, parentColumn))) AS misnumbered LIMIT 3
                    """, in: connection)
                problems.append("\(table): the positions of \(counted(count, parentNoun)) are not 1 to n (\(names.joined(separator: ", ")))")
            }
        }
        for column in ComparisonKeyRefresh.columns {
            let examples = try staleKeys(column, in: connection)
            if !examples.isEmpty {
                problems.append("\(column.table): \(rows(try staleKeyCount(column, in: connection))) whose \(column.keyColumn) is not "
                                + "the key of their \(column.column) (\(examples.map { "'\($0.prefix(30))'" }.joined(separator: ", ")))")
            }
        }
        for (table, count) in try ExerciseTallies.mismatches(in: connection) where count > 0 {
            problems.append("\(table): \(rows(count)) \(count == 1 ? "differs" : "differ") from a recount of the exercises")
        }
        return problems.map { $0 + " (run 'logbook repair')" }
    }

    /// `count` of `noun`, in words: "1 day", "2 days".
    private static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// `count` rows (of `table`), in words: "1 row", "2 exercises rows".
    private static func rows(_ count: Int, of table: String? = nil) -> String {
        "\(count) \(table.map { $0 + " " } ?? "")\(count == 1 ? "row" : "rows")"
    }

    /// What ``repair(in:)`` changed, as lines for people.
    struct Changes: Sendable, Equatable {
        var lines: [String] = []
    }

    /// Puts everything ``problems(in:)`` finds right, in the caller's transaction.
    static func repair(in connection: Connection) throws -> Changes {
        var changes = Changes()
        for (table, parentColumn, parent) in children {
            try connection.execute("DELETE FROM \(table) WHERE \(parentColumn) NOT IN (SELECT pk FROM \(parent))")
            if connection.changes > 0 { changes.lines.append("removed \(rows(connection.changes, of: table)) whose \(parent) row was gone") }
        }
        for (table, parentColumn, parentNoun, _) in ordered {
            let renumbered = try renumber(table, parentColumn, in: connection)
            if renumbered > 0 { changes.lines.append("renumbered the \(table) positions of \(counted(renumbered, parentNoun))") }
        }
        let keys = try connection.refreshComparisonKeys(ComparisonKeyRefresh.columns)
        if keys > 0 { changes.lines.append("recomputed \(counted(keys, "key"))") }
        let stale = try ExerciseTallies.mismatches(in: connection).reduce(0) { $0 + $1.rows }
        let marked = try connection.scalar("SELECT count(*) FROM exercise_tallies_stale", as: Int.self) ?? 0
        if stale > 0 {
            try ExerciseTallies.rebuild(in: connection)
            changes.lines.append("recounted the tallies (\(rows(stale)) differed)")
        } else if marked > 0 {
            let days = try ExerciseTallies.daysAwaitingRecount(in: connection)
            try ExerciseTallies.recountStaleDays(in: connection)
            changes.lines.append(days == 0 ? "dropped \(marked == 1 ? "a recount mark" : "\(marked) recount marks") that named no calendar day"
                                 : "recounted \(days == 1 ? "the day" : "the \(days) days") marked for a recount")
        }
        return changes
    }

    // MARK: Queries

    private static func orphanCount(_ table: String, _ parentColumn: String, _ parent: String, in connection: Connection) throws -> Int {
        try connection.scalar("SELECT count(*) FROM \(table) WHERE \(parentColumn) NOT IN (SELECT pk FROM \(parent))", as: Int.self) ?? 0
    }

    /// The row keys (as `pk`) of the parents whose rows in `table` are not numbered 1…n: distinct
    /// (the positions are part of the key) integers from 1 to the count, so none missing.
    private static func misnumberedParentsSQL(_ table: String, _ parentColumn: String) -> String {
        """
        SELECT \(parentColumn) AS pk FROM \(table) GROUP BY \(parentColumn)
        HAVING min(position) <> 1 OR max(position) <> count(*) OR sum(typeof(position) = 'integer') <> count(*)
        """
    }

    private static func misnumberedParents(_ table: String, _ parentColumn: String, in connection: Connection) throws -> [Int64] {
        let statement = try connection.prepare(misnumberedParentsSQL(table, parentColumn))
        var parents: [Int64] = []
        while try statement.step() { parents.append(try statement.column(0)) }
        return parents
    }

    /// Renumbers the rows of each parent whose positions are not 1…n, keeping their order: each
    /// such parent's rows are copied aside with their rank for a position, deleted, and inserted
    /// again, every stored column as it was (another program's too; its triggers, and foreign keys
    /// of its tables that name these rows, see a delete and an insert). A position of any value another
    /// program stored (the largest integer, a real, text, a blob; the table's check allows them)
    /// is ranked in SQLite's order; an arithmetic move of the positions overflowed on the largest
    /// integer and lost text and blobs.
    private static func renumber(_ table: String, _ parentColumn: String, in connection: Connection) throws -> Int {
        let parents = try misnumberedParents(table, parentColumn, in: connection)
        guard !parents.isEmpty else { return 0 }
        let columnsStatement = try connection.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid")
        try columnsStatement.bind(table, at: 1)
        var columns: [String] = []
        while try columnsStatement.step() { columns.append(try columnsStatement.column(0)) }
        let quoted = columns.map(\.quotedSQLIdentifier)
        let ranked = zip(columns, quoted).map { column, quoted in
            column == "position" ? "row_number() OVER (PARTITION BY \(parentColumn) ORDER BY position) AS position" : quoted
        }
        try connection.execute("""
            CREATE TEMP TABLE logbook_renumbering AS
                SELECT \(ranked.joined(separator: ", ")) FROM \(table)
                WHERE \(parentColumn) IN (\(misnumberedParentsSQL(table, parentColumn)));
            DELETE FROM \(table) WHERE \(parentColumn) IN (SELECT \(parentColumn) FROM temp.logbook_renumbering);
            INSERT INTO \(table) (\(quoted.joined(separator: ", "))) SELECT \(quoted.joined(separator: ", ")) FROM temp.logbook_renumbering;
            DROP TABLE temp.logbook_renumbering;
            """)
        return parents.count
    }

    private static func staleKeys(_ column: ComparisonKeyColumn, in connection: Connection) throws -> [String] {
        try texts("SELECT \(column.column) FROM \(column.table) WHERE \(column.keyColumn) IS NOT swift_key(\(column.column)) LIMIT 3",
                  in: connection)
    }

    /// The first column of each row of `sql`, as a message shows it: text that is not UTF-8 (which
    /// ``StoredValueAudit`` names) with U+FFFD for what is not, any other value as SQLite's text of it.
    private static func texts(_ sql: String, in connection: Connection) throws -> [String] {
        let statement = try connection.prepare(sql)
        var texts: [String] = []
        while try statement.step() {
            switch try statement.column(0, as: DatabaseValue.self) {
            case .text(let text): texts.append(text)
            case let other: texts.append("\(other)")
            }
        }
        return texts
    }

    private static func staleKeyCount(_ column: ComparisonKeyColumn, in connection: Connection) throws -> Int {
        try connection.scalar("SELECT count(*) FROM \(column.table) WHERE \(column.keyColumn) IS NOT swift_key(\(column.column))",
                              as: Int.self) ?? 0
    }
}
