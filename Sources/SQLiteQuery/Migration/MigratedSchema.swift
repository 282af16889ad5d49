import CSQLite
import Foundation

/// A table, index, trigger or view as `sqlite_master` records it.
public struct SchemaObject: Sendable, Equatable {
    /// `table`, `index`, `trigger` or `view`: the `type` column of `sqlite_master`.
    public let type: String
    /// The `CREATE` statement as `sqlite_master` keeps it (its original text), or empty when there is
    /// none; ``Migrator/schemaDifferences(of:upTo:)`` compares it byte for byte.
    public let sql: String

    /// An object of `type` defined by `sql`.
    public init(type: String, sql: String) {
        self.type = type
        self.sql = sql
    }

    /// Whether a name of this object's and `other`'s is one name: triggers have a name space of
    /// their own; tables, indexes and views share one.
    func sharesNameSpace(with other: SchemaObject) -> Bool { (type == "trigger") == (other.type == "trigger") }

    /// `name` as SQLite tells objects apart: ASCII letters in either case (`sqlNameKey`), in the
    /// triggers' name space (`trigger x`) or the one tables, indexes and views share (`x`).
    static func nameKey(_ name: String, isTrigger: Bool) -> String { (isTrigger ? "trigger " : "") + name.sqlNameKey }
}

extension Migrator {
    /// Each table, index and trigger that migrations 1 to `version` create that `connection`'s
    /// file lacks or defines otherwise (`trigger x is missing`, `index y differs from what the
    /// migrations create`). Objects the file has besides them (another program's indexes) are no
    /// problem. The reference is those migrations applied to an empty database in memory, built
    /// once per process.
    public func schemaDifferences(of connection: Connection, upTo version: Int) throws -> [String] {
        guard version > 0 else { return [] }
        let actual = try Self.schemaObjectsByName(of: connection)
        var differences: [String] = []
        for (name, object) in try referenceObjects(upTo: version).sorted(by: { $0.key < $1.key }) {
            guard let found = Self.object(named: name, like: object, in: actual) else {
                differences.append("\(object.type) \(name) is missing")
                continue
            }
            if found.type != object.type || !found.sql.utf8.elementsEqual(object.sql.utf8) {
                differences.append("\(object.type) \(name) differs from what the migrations create")
            }
        }
        return differences
    }

    /// The triggers the file has on the tables migrations 1 to `version` create that those
    /// migrations do not create (another program's), as `name on table`, by name. They are no
    /// problem for ``schemaDifferences(of:upTo:)``, but they run inside every write to their table
    /// and can change what it stores.
    public func foreignTriggers(in connection: Connection, upTo version: Int) throws -> [String] {
        guard version > 0 else { return [] }
        let reference = try referenceObjectsByNameKey(upTo: version)
        return try otherProgramsObjects(in: connection, upTo: version).triggers.filter { trigger in
            reference[SchemaObject.nameKey(trigger.table, isTrigger: false)]?.type == "table"
        }.map { "\($0.name) on \($0.table)" }
    }

    /// Another program's triggers, views and tables' foreign keys that SQLite can no longer use,
    /// next to what migrations 1 to `version` make: each as `check` names it (a trigger that fails
    /// the writes to its table, a view that cannot be read, a foreign key to a table that is gone).
    /// Statements are only prepared, never run.
    public func brokenDependents(in connection: Connection, upTo version: Int) throws -> [String] {
        guard version > 0 else { return [] }
        let others = try otherProgramsObjects(in: connection, upTo: version)
        guard !others.isEmpty else { return [] }
        return try BrokenDependents(of: others, in: connection).descriptions
    }

    /// The tables, views and triggers of `connection`'s file that migrations 1 to `version` do not
    /// make (another program's), by name. Names compare as SQLite compares them: `ON Exercises`
    /// is a trigger on `exercises`.
    func otherProgramsObjects(in connection: Connection, upTo version: Int) throws -> OtherProgramsObjects {
        let reference = try referenceObjectsByNameKey(upTo: version)
        let objects = try connection.prepare("""
            SELECT type, name, tbl_name FROM sqlite_master
            WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """)
        var others = OtherProgramsObjects()
        while try objects.step() {
            let (type, name, table) = (try objects.schemaText(0), try objects.schemaText(1), try objects.schemaText(2))
            guard reference[SchemaObject.nameKey(name, isTrigger: type == "trigger")] == nil else { continue }
            switch type {
            case "trigger": others.triggers.append((name, table))
            case "view": others.views.append(name)
            default: others.tables.append(name)
            }
        }
        return others
    }

    /// What migrations 1 to `version` create, by ``SchemaObject/nameKey(_:isTrigger:)``.
    private func referenceObjectsByNameKey(upTo version: Int) throws -> [String: SchemaObject] {
        Dictionary(try referenceObjects(upTo: version).map { name, object in
            (SchemaObject.nameKey(name, isTrigger: object.type == "trigger"), object)
        }, uniquingKeysWith: { first, _ in first })
    }

    /// Each migration after `version` that would meet objects the file already has: its row in the
    /// history was deleted, or another program made objects under names it creates at any point
    /// (its scratch tables' too), so migrating would fail. Names compare as SQLite compares them
    /// (ASCII letters in either case).
    public func pendingMigrationsWithExistingObjects(in connection: Connection, after version: Int) throws -> [String] {
        try pendingMigrationsMeetingExistingObjects(in: connection, after: version).map { migration, objects in
            "migration \(migration.identifier) is pending but its objects exist (\(objects.joined(separator: ", "))): "
                + "a row of the migration history was deleted or another program made them"
        }
    }

    /// Whether the file has an index, trigger or view that migrations 1 to `version` do not make
    /// (another program's); never for a new file (version 0, nothing in it).
    func hasForeignObjects(in connection: Connection, at version: Int) throws -> Bool {
        guard version > 0 else { return false }
        let reference = try referenceObjects(upTo: version).mapValues { [$0] }
        return try Self.schemaObjectsByName(of: connection).contains { name, objects in
            objects.contains { object in object.type != "table" && Self.object(named: name, like: object, in: reference) == nil }
        }
    }

    /// Whether `migration` redefines a table the migrations before it made (drops it and makes it
    /// anew, as the twelve-step `ALTER TABLE` does), which takes another program's indexes on it,
    /// and may stop on its triggers and views.
    func rebuildsTables(_ migration: Migration) throws -> Bool {
        let before = try referenceObjects(upTo: migration.version - 1)
        return try referenceObjects(upTo: migration.version).contains { name, object in
            object.type == "table" && before[name].map { $0.type == "table" && !$0.sql.utf8.elementsEqual(object.sql.utf8) } == true
        }
    }

    /// Another program's objects that `migration`, which rebuilds tables, would take with them:
    /// its indexes on the tables the migration redefines, and all its triggers and views (one that
    /// names a table being rebuilt stops SQLite's `ALTER TABLE … RENAME`), in the order
    /// ``remake(_:after:in:)`` makes them again. Objects the applied migrations made are not
    /// another program's.
    func foreignObjects(rebuiltBy migration: Migration, in connection: Connection)
        throws -> [(type: String, name: String, sql: String)] {
        let before = try referenceObjects(upTo: migration.version - 1)
        let after = try referenceObjects(upTo: migration.version)
        let statement = try connection.prepare("""
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE type IN ('index', 'trigger', 'view') AND sql IS NOT NULL
            ORDER BY CASE type WHEN 'index' THEN 0 WHEN 'view' THEN 1 ELSE 2 END, rowid
            """)
        var objects: [(type: String, name: String, sql: String)] = []
        while try statement.step() {
            let (type, table) = (try statement.schemaText(0), try statement.schemaText(2))
            // Made again from its exact name and text: bytes that are not UTF-8 cannot be, so the
            // migration is refused by the object's name rather than make it otherwise.
            guard let name = try? statement.column(1, as: String.self), let sql = try? statement.column(3, as: String.self) else {
                throw MigrationError.foreignObjectNotKept(
                    identifier: migration.identifier, object: "\(type) \(try statement.schemaText(1))",
                    detail: "its name or text is not UTF-8, which the migration cannot make again as it is")
            }
            // An object the applied migrations made is no other program's; one that shares only
            // its name with a Logbook object of the other name space is (helper-69).
            guard before[name]?.sharesNameSpace(with: SchemaObject(type: type, sql: sql)) != true else { continue }
            let redefined = before[table].map { $0.sql != after[table]?.sql } ?? false
            if type != "index" || redefined { objects.append((type, name, sql)) }
        }
        return objects
    }

    /// Makes `objects` again with their own text after `migration` (indexes, then views, then
    /// triggers), those it left gone (an index on a table it only altered is there still); one
    /// that no longer fits the rebuilt tables refuses the migration.
    func remake(_ objects: [(type: String, name: String, sql: String)], after migration: Migration,
                in connection: Connection) throws {
        // Present in its own name space: a table of a trigger's name is no trigger (helper-69).
        let present = try connection.prepare("SELECT 1 FROM sqlite_master WHERE name = ? COLLATE NOCASE AND (type = 'trigger') = ?")
        for object in objects {
            present.reset()
            try present.bind(object.name, at: 1)
            try present.bind(object.type == "trigger", at: 2)
            if try present.step() { continue }
            do {
                try connection.execute(object.sql)
            } catch let error as SQLiteError {
                throw MigrationError.foreignObjectNotKept(identifier: migration.identifier, object: "\(object.type) \(object.name)",
                                                          detail: error.message)
            }
        }
    }

    /// The migrations after `version` that would meet objects the file has already, with those
    /// objects' names, for `check` to name before a migration fails on them: each one a migration
    /// creates at any point under a name the file has and migrations 1 to `version` do not make
    /// (another program's object, or a scratch table's name), and each one the first pending
    /// migration creates or redefines present as it leaves it (its record deleted). Empty when
    /// every pending migration can run. (Migrating needs no such look ahead: the pending
    /// migrations are one transaction, which the first failure rolls back whole.) The migrations
    /// run in memory, on their own: an app's set that reaches Logbook's tables cannot be read so.
    func pendingMigrationsMeetingExistingObjects(in connection: Connection, after version: Int) throws
        -> [(migration: Migration, objects: [String])] {
        let pending = migrations.filter { $0.version > version }
        guard !pending.isEmpty else { return [] }
        let actual = Set(try Self.schemaObjectsByName(of: connection).flatMap { name, objects in
            objects.map { SchemaObject.nameKey(name, isTrigger: $0.type == "trigger") }
        })
        guard !actual.isEmpty else { return [] }
        let expected = Set(try referenceObjects(upTo: version).map { SchemaObject.nameKey($0.key, isTrigger: $0.value.type == "trigger") })
        let created = try Self.namesCreated(by: pending, after: migrations.filter { $0.version <= version })
        // Only the first pending migration's objects can be present as it leaves them (its record
        // deleted): a later one's are compared with a schema the file is not at yet.
        return try zip(pending, created).enumerated().compactMap { index, pair in
            let (migration, names) = pair
            var clashing = Set(names.filter { actual.contains($0) && !expected.contains($0) })
            if index == 0 {
                let made = try referenceObjects(upTo: migration.version)
                clashing.formUnion(try objectsAlreadyMade(by: migration, in: connection).map {
                    SchemaObject.nameKey($0, isTrigger: made[$0]?.type == "trigger")
                })
            }
            return clashing.isEmpty ? nil : (migration, clashing.sorted())
        }
    }

    /// The names (``SchemaObject/nameKey(_:isTrigger:)``) of the tables, indexes, views and triggers
    /// each of `migrations` creates at any point, run in order after `earlier` on an empty database in memory.
    private static func namesCreated(by migrations: [Migration], after earlier: [Migration]) throws -> [[String]] {
        let connection = try Connection(path: ":memory:")
        return try connection.transaction(.immediate) {
            try connection.execute(historyTableSQL)
            for migration in earlier {
                try connection.refusingTransactionStatements(in: migration.identifier) { try connection.execute(migration.sql) }
            }
            return try migrations.map { migration in
                var names: [String] = []
                try connection.refusingTransactionStatements(in: migration.identifier, noteCreated: { names.append($0) }) {
                    try connection.execute(migration.sql)
                }
                return names
            }
        }
    }

    /// The objects `migration` creates, or redefines, that `connection`'s file already has as the
    /// migration leaves them: an object it creates, present under its name; one it redefines
    /// (a trigger dropped and created again, a column added), present with its new definition.
    func objectsAlreadyMade(by migration: Migration, in connection: Connection) throws -> [String] {
        let actual = try Self.schemaObjectsByName(of: connection)
        let before = try referenceObjects(upTo: migration.version - 1)
        return try referenceObjects(upTo: migration.version).filter { name, object in
            guard let found = Self.object(named: name, like: object, in: actual) else { return false }
            guard let previous = before[name] else { return true }
            return !previous.sql.utf8.elementsEqual(object.sql.utf8) && found.sql.utf8.elementsEqual(object.sql.utf8)
        }.keys.sorted()
    }

    /// What migrations 1 to `version` create, by name: built once per process (or adopted, see
    /// ``adoptReferenceSchema(_:builtWithSQLite:)``).
    private func referenceObjects(upTo version: Int) throws -> [String: SchemaObject] {
        let included = migrations.filter { $0.version <= version }
        return try ReferenceSchemas.shared.objects(for: Self.referenceKey(included)) { try Self.buildReferenceSchema(of: included) }
    }

    /// What all the migrations create, by name, built now by applying them to an empty database in
    /// memory: what a build tool computes ahead of time for ``adoptReferenceSchema(_:builtWithSQLite:)``.
    public func buildReferenceSchema() throws -> [String: SchemaObject] {
        try Self.buildReferenceSchema(of: migrations)
    }

    /// Takes `objects`, what ``buildReferenceSchema()`` returned for these migrations in a build
    /// tool, as the reference the schema checks compare a file with, instead of building it again
    /// in every process (applying every migration in memory: about a quarter of a one-line CLI
    /// command's time). Ignored unless `version` is the SQLite library's version now, since
    /// `sqlite_master` keeps statements as SQLite wrote them (`ALTER TABLE` rewrites them).
    public func adoptReferenceSchema(_ objects: [String: SchemaObject], builtWithSQLite version: String) {
        guard version == String(cString: sqlite3_libversion()) else { return }
        ReferenceSchemas.shared.adopt(objects, for: Self.referenceKey(migrations))
    }

    private static func referenceKey(_ migrations: [Migration]) -> String {
        migrations.map(\.checksum).joined(separator: ",")
    }

    private static func buildReferenceSchema(of migrations: [Migration]) throws -> [String: SchemaObject] {
        // The migrations' SQL alone, in one transaction: the history's bookkeeping (checksums, a
        // transaction per migration) would only slow it down.
        let connection = try Connection(path: ":memory:")
        try connection.transaction(.immediate) {
            try connection.execute(historyTableSQL)
            for migration in migrations {
                try connection.refusingTransactionStatements(in: migration.identifier) { try connection.execute(migration.sql) }
            }
        }
        return try schemaObjects(of: connection)
    }

    /// The file's objects by name: a trigger may share its name with a table, index or view
    /// (triggers have a name space of their own), and was taken for that object, so another
    /// program's trigger named `drafts` made every write refuse the file (helper-68).
    private static func schemaObjectsByName(of connection: Connection) throws -> [String: [SchemaObject]] {
        let statement = try connection.prepare(
            "SELECT type, name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        var objects: [String: [SchemaObject]] = [:]
        while try statement.step() {
            objects[try statement.schemaText(1), default: []].append(SchemaObject(type: try statement.schemaText(0), sql: try statement.schemaText(2)))
        }
        return objects
    }

    /// The object of `objects` named `name` in the name space of `object`: a trigger's, or the
    /// one tables, indexes and views share. Names compare as SQLite compares them (ASCII letters
    /// in either case): a trigger another program made again as `EXERCISES_…` is that trigger,
    /// changed, not a missing one. The exact name is looked up first, as it is on every open.
    private static func object(named name: String, like object: SchemaObject, in objects: [String: [SchemaObject]]) -> SchemaObject? {
        if let found = objects[name]?.first(where: { $0.sharesNameSpace(with: object) }) { return found }
        let key = name.sqlNameKey
        return objects.lazy.filter { $0.key.sqlNameKey == key }.flatMap(\.value).first { $0.sharesNameSpace(with: object) }
    }

    /// The objects by name, one per name: for a schema whose names are all apart (the migrations'
    /// own, built in memory).
    private static func schemaObjects(of connection: Connection) throws -> [String: SchemaObject] {
        try schemaObjectsByName(of: connection).compactMapValues(\.first)
    }
}

/// The schemas migrations create, by the checksums of the migrations applied, computed once per process.
private final class ReferenceSchemas: @unchecked Sendable {
    static let shared = ReferenceSchemas()
    private let lock = NSLock()
    private var schemas: [String: [String: SchemaObject]] = [:]

    func adopt(_ objects: [String: SchemaObject], for key: String) {
        lock.lock()
        defer { lock.unlock() }
        schemas[key] = objects
    }

    func objects(for key: String, _ build: () throws -> [String: SchemaObject]) throws -> [String: SchemaObject] {
        lock.lock()
        defer { lock.unlock() }
        if let known = schemas[key] { return known }
        let built = try build()
        schemas[key] = built
        return built
    }
}
