import Foundation
import SQLiteQuery

/// What `logbook check` found. Each list is empty (or `["ok"]` for integrity) when all is well.
public struct CheckReport: Sendable, Equatable {
    /// `PRAGMA integrity_check` lines; `["ok"]` for a sound file.
    public var integrity: [String]
    /// Rows that violate a foreign key, as `table row N refers to a missing parent row`.
    public var foreignKeyViolations: [String]
    /// The newest applied migration, and the newest this binary knows.
    public var schemaVersion: Int
    public var latestKnownVersion: Int
    /// Problems with the migration history (edited, unknown or missing migrations).
    public var migrationProblems: [String]
    /// Problems with the file itself: not as long as its header says, not whole pages.
    public var fileProblems: [String]
    /// Tables, indexes and triggers the applied migrations create that are missing or different.
    public var schemaProblems: [String]
    /// What another program's writes left inconsistent: rows whose parent is gone, positions that
    /// are not 1…n, keys that are not the key of their text, tallies that disagree with a recount.
    /// ``Logbook/repair(dryRun:)`` puts all of it right.
    public var derivedDataProblems: [String]
    /// Values another program stored that Logbook cannot read where it reads records (a day
    /// `2026-02-30`, text where a date belongs, a lowercase id), by table, column and row; these
    /// need correcting with SQL (repair refuses while there are any).
    public var storedValueProblems: [String]
    /// Whether the stored values and derived data were audited: only when the file has every
    /// migration this binary knows and the schema they make (both lists are empty otherwise).
    public var recordsAudited: Bool

    public var isHealthy: Bool {
        integrity == ["ok"] && foreignKeyViolations.isEmpty && migrationProblems.isEmpty && fileProblems.isEmpty
            && schemaProblems.isEmpty && derivedDataProblems.isEmpty && storedValueProblems.isEmpty && schemaVersion == latestKnownVersion
    }
}

extension Logbook {
    /// Checks everything that can be wrong with the file, changing nothing: its length against its
    /// header, SQLite's integrity check, foreign keys, the migration history against the migrations
    /// this binary carries, the schema against what those migrations create, every value records
    /// are read from against what Logbook can read, and the derived data against a recount.
    public func check() throws -> CheckReport {
        try database.read { connection in
            var migrationProblems: [String] = []
            do {
                _ = try database.migrator.status(of: connection)
            } catch let error as MigrationError {
                migrationProblems.append(error.description)
            }
            let version = try database.migrator.currentVersion(of: connection)
            let migrator = database.migrator
            if version == 0 && migrationProblems.isEmpty {
                migrationProblems.append("no migration was ever applied: this is not a Logbook database yet ('logbook init' makes it one)")
            } else if version < migrator.latestVersion {
                migrationProblems += try Self.pendingMigrationsPresent(in: connection, from: version, migrator: migrator)
            }
            let schemaProblems = try Self.schemaProblems(of: connection, upTo: version, migrator: migrator)
            // Stored values and derived data are audited on the schema this binary makes, and only then.
            let audited = version == migrator.latestVersion && schemaProblems.isEmpty
            let derived = audited ? try DerivedDataAudit.problems(in: connection) : []
            let unreadable = audited ? try StoredValueAudit.problems(in: connection) : []
            return CheckReport(integrity: try connection.integrityCheck(), foreignKeyViolations: try connection.foreignKeyViolations(),
                               schemaVersion: version, latestKnownVersion: database.migrator.latestVersion,
                               migrationProblems: migrationProblems, fileProblems: connection.fileProblems(),
                               schemaProblems: schemaProblems, derivedDataProblems: derived,
                               storedValueProblems: unreadable, recordsAudited: audited)
        }
    }

    /// Each table, index and trigger that migrations 1 to `version` create (applied to an empty
    /// database in memory) that `connection`'s file lacks or defines otherwise. Objects the file
    /// has besides them (another program's indexes, say) are not problems.
    private static func schemaProblems(of connection: Connection, upTo version: Int, migrator: Migrator) throws -> [String] {
        guard version > 0 else { return [] }
        let reference = try migrated(upTo: version, migrator)
        let actual = try schemaObjects(of: connection)
        var problems: [String] = []
        for (name, object) in try schemaObjects(of: reference).sorted(by: { $0.key < $1.key }) {
            guard let found = actual[name] else {
                problems.append("\(object.type) \(name) is missing")
                continue
            }
            if found.type != object.type || !found.sql.utf8.elementsEqual(object.sql.utf8) {
                problems.append("\(object.type) \(name) differs from what the migrations create")
            }
        }
        return problems
    }

    /// Each migration after `version` whose tables, indexes or triggers the file already has: its
    /// row in the history was deleted (or another program made them), so migrating would fail.
    private static func pendingMigrationsPresent(in connection: Connection, from version: Int, migrator: Migrator) throws -> [String] {
        let reference = try migrated(upTo: version, migrator)
        let actual = try schemaObjects(of: connection)
        var problems: [String] = []
        for migration in migrator.migrations where migration.version > version {
            let before = Set(try schemaObjects(of: reference).keys)
            try migrated(upTo: migration.version, migrator, reference)
            let present = try schemaObjects(of: reference).keys.filter { !before.contains($0) && actual[$0] != nil }.sorted()
            if !present.isEmpty {
                problems.append("migration \(migration.identifier) is pending but its objects exist (\(present.joined(separator: ", "))): "
                                + "a row of schema_migrations was deleted or another program made them")
            }
        }
        return problems
    }

    /// `connection` (by default a new empty database in memory) with migrations up to `version` applied.
    @discardableResult
    private static func migrated(upTo version: Int, _ migrator: Migrator,
                                 _ connection: Connection? = nil) throws -> Connection {
        let connection = try connection ?? Connection(path: ":memory:")
        try Migrator(migrations: migrator.migrations.filter { $0.version <= version }).migrate(connection)
        return connection
    }

    private static func schemaObjects(of connection: Connection) throws -> [String: (type: String, sql: String)] {
        let statement = try connection.prepare(
            "SELECT type, name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        var objects: [String: (type: String, sql: String)] = [:]
        while try statement.step() {
            objects[try statement.column(1, as: String.self)] = (try statement.column(0), try statement.column(2))
        }
        return objects
    }
}
