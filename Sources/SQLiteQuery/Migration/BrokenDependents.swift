/// The objects of a file that SQLite keeps but can no longer use, because something they name is
/// gone or changed: a trigger whose table's writes no longer prepare (its body names a table or
/// column that is gone, so every such write fails), a view that can no longer be read, and a
/// foreign key whose parent table is gone or whose parent columns are not a key (every write to
/// the tables on either side fails while foreign keys are on, and the foreign key check cannot
/// run). SQLite accepts each when it is made and when what it names is dropped; it fails only
/// when used.
///
/// ``Migrator/migrate(_:now:finishing:)`` refuses a migration that leaves broken an object that
/// worked before it (migration 0012 dropped a table another program's trigger read, and every
/// history write failed after), and `check` names those a file has.
struct BrokenDependents: Equatable {
    /// Why each broken object fails, by the object (`trigger audit on exercises`, `view v`,
    /// `foreign keys of table notes`): the statement SQLite refused, with its message.
    let failures: [String: String]

    /// The problems as `check` lists them, one per object, by object.
    var descriptions: [String] {
        failures.sorted { $0.key < $1.key }.map { object, failure in "another program's \(object): \(failure)" }
    }

    /// Those of `self` that `earlier` did not have: what a migration broke.
    func newSince(_ earlier: BrokenDependents) -> [(object: String, failure: String)] {
        failures.filter { earlier.failures[$0.key] == nil }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Looks at `others`' triggers, views and tables' foreign keys in `connection`'s file, whose
    /// connection must have foreign keys on (a write then prepares their checks too). Writes and
    /// reads are only prepared, never run.
    init(of others: OtherProgramsObjects, in connection: Connection) throws {
        var failures: [String: String] = [:]
        var targets: [String: (table: String, triggers: [String], hasForeignKeys: Bool)] = [:]
        for trigger in others.triggers {
            targets[trigger.table.sqlNameKey, default: (trigger.table, [], false)].triggers.append(trigger.name)
        }
        let foreignKeys = try connection.prepare("SELECT 1 FROM pragma_foreign_key_list(?) LIMIT 1")
        for table in others.tables {
            foreignKeys.reset()
            try foreignKeys.bind(table, at: 1)
            if try foreignKeys.step() { targets[table.sqlNameKey, default: (table, [], false)].hasForeignKeys = true }
        }
        for target in targets.values {
            guard let failure = try Self.firstFailingWrite(to: target.table, in: connection) else { continue }
            let names = target.triggers.sorted()
            let parts = (names.isEmpty ? [] : ["trigger\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) on \(target.table)"])
                + (target.hasForeignKeys ? ["foreign keys of table \(target.table)"] : [])
            failures[parts.joined(separator: " and ")] = failure
        }
        for view in others.views {
            if let message = Self.preparationFailure(of: "SELECT * FROM \(view.quotedSQLIdentifier)", in: connection) {
                failures["view \(view)"] = "every read of \(view) fails: \(message)"
            }
        }
        self.failures = failures
    }

    /// SQLite's message when `sql` does not prepare, else nil.
    private static func preparationFailure(of sql: String, in connection: Connection) -> String? {
        do {
            _ = try connection.prepare(sql)
            return nil
        } catch let error as SQLiteError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// The first of an insert, an update of every column and a delete of `table` that does not
    /// prepare (preparing one compiles every trigger it would fire, and with foreign keys on their
    /// checks), with SQLite's message; nil when all do. A view refuses the kinds of write it has
    /// no `INSTEAD OF` trigger for, which is no fault of its triggers.
    private static func firstFailingWrite(to table: String, in connection: Connection) throws -> String? {
        let name = table.quotedSQLIdentifier
        let columns = try connection.prepare("SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid")
        try columns.bind(table, at: 1)
        var assignments: [String] = []
        while try columns.step() {
            let column = try columns.column(0, as: String.self).quotedSQLIdentifier
            assignments.append("\(column) = \(column)")
        }
        let writes = [("insert into", "INSERT INTO \(name) DEFAULT VALUES"),
                      ("update of", assignments.isEmpty ? nil : "UPDATE \(name) SET \(assignments.joined(separator: ", "))"),
                      ("delete from", "DELETE FROM \(name)")]
        for case let (kind, sql?) in writes {
            guard let message = preparationFailure(of: sql, in: connection) else { continue }
            if message.hasPrefix("cannot modify ") && message.hasSuffix(" because it is a view") { continue }
            return "every \(kind) \(table) fails: \(message)"
        }
        return nil
    }
}

/// The tables, views and triggers of a file that its migrations do not make: another program's.
struct OtherProgramsObjects {
    /// Each trigger by name, with the table or view it is on.
    var triggers: [(name: String, table: String)] = []
    var views: [String] = []
    var tables: [String] = []

    var isEmpty: Bool { triggers.isEmpty && views.isEmpty && tables.isEmpty }
}
