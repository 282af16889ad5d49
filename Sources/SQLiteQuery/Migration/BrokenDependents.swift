import CSQLite

/// The objects of a file that SQLite keeps but can no longer use, because something they name is
/// gone or changed: a trigger whose table's writes no longer prepare (its body names a table or
/// column that is gone, so every such write fails), a view that can no longer be read, and a
/// foreign key whose parent table is gone or whose parent columns are not a key (every write to
/// its table fails while foreign keys are on). SQLite accepts each when it is made and when what
/// it names is dropped; it fails only when used.
///
/// ``Migrator/migrate(_:now:finishing:)`` refuses a migration that leaves broken an object that
/// worked before it (migration 0012 dropped a table another program's trigger read, and every
/// history write failed after), and `check` names those a file has.
struct BrokenDependents {
    /// One statement SQLite refuses: the object it fails through (`trigger audit on exercises`,
    /// `view v`, `foreign keys of table notes`), the statement (`every insert into exercises`),
    /// and SQLite's message.
    struct Failure: Equatable {
        let object: String
        let statement: String
        let message: String
    }

    let failures: [Failure]

    /// The problems as `check` lists them, one per object and statement.
    var descriptions: [String] {
        failures.map { "another program's \($0.object): \($0.statement) fails: \($0.message)" }
    }

    /// Those of `self` whose statement did not fail through their object in `earlier`: what a
    /// migration broke. (One that failed already, for another reason now, is no new failure: a
    /// foreign key to columns that were no key, whose table a migration drops.)
    func newSince(_ earlier: BrokenDependents) -> [Failure] {
        failures.filter { failure in !earlier.failures.contains { $0.object == failure.object && $0.statement == failure.statement } }
    }

    /// Looks at `others`' triggers, views and tables' foreign keys in `connection`'s file, those
    /// it still has (a trigger goes with its table): the writes to each table they are on, and a
    /// read of each view. A table's triggers are compiled together, so the failures of one
    /// statement are named for all of them, and one already broken can hide another that breaks
    /// on the same statement (telling them apart would drop the others for
    /// the look, and SQLite reads the whole schema again after each such change is undone: minutes
    /// for 3,000 objects). A foreign key is checked only while foreign keys are on, but for a
    /// parent table that is gone, which is seen either way. Statements are only prepared, never run.
    init(of others: OtherProgramsObjects, in connection: Connection) throws {
        let present = try Self.presentObjects(in: connection)
        // By name as SQLite tells names apart: ASCII letters in either case, every other byte as it is.
        var targets: [[UInt8]: (table: String, triggers: [String], hasForeignKeys: Bool)] = [:]
        for trigger in others.triggers where present.contains(Self.key(trigger.name, isTrigger: true)) && present.contains(Self.key(trigger.table)) {
            targets[Self.key(trigger.table), default: (trigger.table, [], false)].triggers.append(trigger.name)
        }
        var failures: [Failure] = []
        for table in others.tables where present.contains(Self.key(table)) {
            let missing = try Self.missingParents(of: table, in: connection)
            if !missing.isEmpty {
                failures.append(Failure(object: "foreign keys of table \(table)", statement: "every insert into \(table)",
                                        message: "it refers to \(missing.joined(separator: ", ")), which the file does not have"))
            } else if try Self.hasForeignKeys(table, in: connection) {
                // Named so whether foreign keys are on or not (they are off while some migrations
                // run), so that what failed before a migration is the same failure after it.
                targets[Self.key(table), default: (table, [], false)].hasForeignKeys = true
            }
        }
        // The writes to Logbook's tables as its connections prepare them (they trust no schema: a
        // trigger that writes another program's full-text index fails every write to its table
        // there); the writes to another program's tables and views, and the reads of its views, as
        // the other programs that use them do, with SQLite's trusted schema (Logbook's connections
        // refuse a view over a virtual table, which works for them: helper-92).
        let ownedByOthers = Set((others.tables + others.views).map { Self.key($0) })
        func lookAtWrites(ofOthers: Bool) throws {
            for target in targets.values.sorted(by: { $0.table < $1.table }) where ownedByOthers.contains(Self.key(target.table)) == ofOthers {
                let names = target.triggers.sorted()
                let object = ((names.isEmpty ? [] : ["trigger\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) on \(target.table)"])
                    + (target.hasForeignKeys ? ["foreign keys of table \(target.table)"] : [])).joined(separator: " and ")
                for (statement, message) in try Self.failingWrites(to: target.table, in: connection) {
                    failures.append(Failure(object: object, statement: statement, message: message))
                }
            }
        }
        try lookAtWrites(ofOthers: false)
        let trusted = try connection.scalar("PRAGMA trusted_schema", as: Bool.self) == true
        if !trusted { try connection.execute("PRAGMA trusted_schema = ON") }
        defer { if !trusted { try? connection.execute("PRAGMA trusted_schema = OFF") } }
        try lookAtWrites(ofOthers: true)
        for view in others.views where present.contains(Self.key(view)) {
            if let message = try Self.preparationFailure(of: "SELECT * FROM \(view.quotedSQLIdentifier)", in: connection) {
                failures.append(Failure(object: "view \(view)", statement: "every read of \(view)", message: message))
            }
        }
        self.failures = failures
    }

    /// The file's objects by ``key(_:isTrigger:)``; not those whose name is not UTF-8 (another
    /// program's), which no statement Logbook writes can name, so they are not looked at.
    private static func presentObjects(in connection: Connection) throws -> Set<[UInt8]> {
        let objects = try connection.prepare("SELECT type, name FROM sqlite_master")
        var keys = Set<[UInt8]>()
        while try objects.step() {
            guard let name = try? objects.column(1, as: String.self) else { continue }
            keys.insert(key(name, isTrigger: try objects.schemaText(0) == "trigger"))
        }
        return keys
    }

    /// An object's name as SQLite tells names apart (``String/sqlNameKey``), by its bytes: Swift's
    /// `String` equality would take an NFC name and its NFD twin, two names to SQLite, for one.
    /// Triggers have a name space of their own.
    private static func key(_ name: String, isTrigger: Bool = false) -> [UInt8] {
        Array(((isTrigger ? "trigger " : "") + name.sqlNameKey).utf8)
    }

    /// SQLite's message when `sql` does not prepare for what it names (`SQLITE_ERROR`: no such
    /// table, a foreign key mismatch), else nil; another failure (the file busy, memory) is thrown.
    private static func preparationFailure(of sql: String, in connection: Connection) throws -> String? {
        do {
            _ = try connection.prepare(sql)
            return nil
        } catch let error as SQLiteError where error.primaryCode == SQLITE_ERROR {
            return error.message
        }
    }

    /// Each of an insert, an update of every column and a delete of `table` that does not prepare
    /// (preparing one compiles every trigger it would fire, and with foreign keys on their
    /// checks), with SQLite's message. A view refuses the kinds of write it has no `INSTEAD OF`
    /// trigger for, which is no fault of its triggers.
    private static func failingWrites(to table: String, in connection: Connection) throws -> [(statement: String, message: String)] {
        let name = table.quotedSQLIdentifier
        // The update sets every column, so needs their names; a view whose columns cannot be
        // read fails it with that reason (SQLite keeps a view's columns once read, so the same
        // view may list them later: the update is the same statement either way).
        let update: Result<String?, SQLiteError>
        do {
            let columns = try connection.prepare("SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid")
            try columns.bind(table, at: 1)
            var assignments: [String] = []
            while try columns.step() {
                // A column whose name is not UTF-8 (another program's) cannot be named here: left out,
                // with the triggers on it alone (it made `check` refuse the file; helper-100).
                guard let column = try? columns.column(0, as: String.self).quotedSQLIdentifier else { continue }
                assignments.append("\(column) = \(column)")
            }
            update = .success(assignments.isEmpty ? nil : "UPDATE \(name) SET \(assignments.joined(separator: ", "))")
        } catch let error as SQLiteError where error.primaryCode == SQLITE_ERROR {
            update = .failure(error)
        }
        let writes: [(statement: String, sql: Result<String?, SQLiteError>)] = [
            ("every insert into \(table)", .success("INSERT INTO \(name) DEFAULT VALUES")),
            ("every update of \(table)", update),
            ("every delete from \(table)", .success("DELETE FROM \(name)")),
        ]
        return try writes.compactMap { statement, sql in
            let message: String
            switch sql {
            case .failure(let error): message = error.message
            case .success(nil): return nil
            case .success(let sql?):
                guard let failure = try preparationFailure(of: sql, in: connection) else { return nil }
                message = failure
            }
            guard !(message.hasPrefix("cannot modify ") && message.hasSuffix(" because it is a view")) else { return nil }
            return (statement, message)
        }
    }

    /// The tables `table`'s foreign keys refer to that the file does not have.
    private static func missingParents(of table: String, in connection: Connection) throws -> [String] {
        let parents = try connection.prepare("""
            SELECT DISTINCT "table" FROM pragma_foreign_key_list(?1)
            WHERE NOT EXISTS (SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = "table" COLLATE NOCASE)
            ORDER BY 1
            """)
        try parents.bind(table, at: 1)
        var missing: [String] = []
        while try parents.step() { missing.append(try parents.column(0)) }
        return missing
    }

    private static func hasForeignKeys(_ table: String, in connection: Connection) throws -> Bool {
        try connection.scalar("SELECT EXISTS (SELECT 1 FROM pragma_foreign_key_list(?))", [.text(table)], as: Bool.self) == true
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
