import Foundation

/// Applies numbered migrations to a database, each once, in order, the pending ones in one transaction, and
/// records each with its checksum: the file's own migrations in the `schema_migrations` table, and
/// a named set that an app adds to a file it shares (``init(migrations:set:)``) in `app_migrations`,
/// so that neither set's history is ever taken for the other's.
///
/// Before writing anything it checks the recorded history against the migrations it knows, and
/// refuses (throwing ``MigrationError``, leaving the file untouched) when an applied migration was
/// edited or the database has migrations it does not know.
public struct Migrator: Sendable {
    /// A migration as recorded in the database.
    public struct AppliedMigration: Sendable, Equatable {
        /// The migration's number.
        public let version: Int
        /// The name it was recorded under (`create_drafts`).
        public let name: String
        /// The SHA-256 of its SQL when it was applied, in hexadecimal: checked against
        /// ``Migration/checksum``.
        public let checksum: String
        /// When it was applied (`applied_at`, seconds since 2001-01-01T00:00:00Z).
        public let appliedAt: Date

        /// The record in the columns `version, name, checksum, applied_at, quote(applied_at)` of
        /// `statement`'s row of `table` (of the app's `set`), starting at the 0-based column `first`. The name and
        /// checksum are read as ``Statement/schemaText(_:)`` reads (bytes another program wrote
        /// that are not UTF-8 are shown, and a checksum so written is no migration's): every
        /// command, `check` included, refused the file with a message that sent it to `check`
        /// (helper-97). An `applied_at` that is no number is refused by row.
        init(_ statement: Statement, from first: Int, of table: String, set: String?) throws {
            version = try statement.column(first)
            name = try statement.schemaText(first + 1)
            checksum = try statement.schemaText(first + 2)
            do {
                appliedAt = try statement.column(first + 3)
            } catch is ColumnConversionError {
                throw MigrationError.unreadableHistory(table: table, set: set, version: version, value: try statement.schemaText(first + 4))
            }
        }

        /// `0001_create_drafts`: how the migration is named in messages, as ``Migration/identifier``.
        public var identifier: String { Migration(version: version, name: name, sql: "").identifier }
    }

    /// Where one known migration stands in a database.
    public struct Status: Sendable, Equatable {
        /// The known migration.
        public let migration: Migration
        /// When it was applied, or nil when it is pending.
        public let appliedAt: Date?
    }

    /// The known migrations, sorted by version.
    public let migrations: [Migration]
    /// The name of an app's migration set, recorded in `app_migrations`; nil for the file's own
    /// migrations, recorded in `schema_migrations`.
    public let setName: String?

    /// Sorts `migrations` by version; throws ``MigrationError/duplicateVersion(_:)`` when two share a
    /// number and ``MigrationError/invalidVersion(_:)`` for a number below 1.
    ///
    /// With a `set` name, the migrations are an app's own, applied to a file whose own migrations
    /// another migrator applies first (an app keeping its tables in a Logbook file): their history
    /// is kept apart, under that name, and they never touch `user_version`.
    public init(migrations: [Migration], set: String? = nil) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        if let first = sorted.first, first.version < 1 { throw MigrationError.invalidVersion(first.version) }
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.version == later.version {
            throw MigrationError.duplicateVersion(later.version)
        }
        if let set, set.isEmpty { throw MigrationError.invalidSetName(set) }
        self.migrations = sorted
        setName = set
    }

    /// The table this migrator's history lives in.
    private var historyTable: String { setName == nil ? "schema_migrations" : "app_migrations" }

    /// The newest version this migrator knows.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The `CREATE TABLE` of this migrator's history table.
    private var historyTableDefinition: String { setName == nil ? Self.historyTableSQL : Self.appHistoryTableSQL }

    /// The migrations recorded in the database, oldest first. Reads only; throws
    /// ``MigrationError/historyTableTaken(name:)`` when another program's table or view has the
    /// history table's name.
    public func appliedMigrations(in connection: Connection) throws -> [AppliedMigration] {
        guard try Self.hasHistoryTable(historyTable, madeBy: historyTableDefinition, in: connection) else { return [] }
        let statement = try connection.cachedStatement(setName == nil
            ? "SELECT version, \(Self.recordColumns) FROM schema_migrations ORDER BY version"
            : "SELECT version, \(Self.recordColumns) FROM app_migrations WHERE set_name = ? ORDER BY version")
        defer { statement.reset() }
        if let setName { try statement.bind(setName, at: 1) }
        var applied: [AppliedMigration] = []
        while try statement.step() { applied.append(try AppliedMigration(statement, from: 0, of: historyTable, set: setName)) }
        return applied
    }

    /// Whether the file has the history table `name`, as `sql` makes it: `sqlite_master` keeps
    /// `CREATE TABLE` and the statement's text from the table's name on, so its text is `sql`'s,
    /// byte for byte. Throws ``MigrationError/historyTableTaken(name:)`` for another object of
    /// that name (SQL's names ignore ASCII case): a view, or another program's table (a Rails
    /// `schema_migrations`), which was read as an empty history, or failed with "no such column".
    private static func hasHistoryTable(_ name: String, madeBy sql: String, in connection: Connection) throws -> Bool {
        // (A trigger's name is no table's: triggers have a name space of their own.)
        let statement = try connection.cachedStatement(
            "SELECT type, coalesce(sql, '') FROM sqlite_master WHERE name = ? COLLATE NOCASE AND type <> 'trigger'")
        defer { statement.reset() }
        try statement.bind(name, at: 1)
        guard try statement.step() else { return false }
        let (type, text) = (try statement.schemaText(0), try statement.schemaText(1))
        guard type == "table", text.utf8.elementsEqual(sql.utf8) else { throw MigrationError.historyTableTaken(name: name) }
        return true
    }

    /// Checks the database's history and returns each known migration's status. Reads only; throws
    /// ``MigrationError`` for a database this migrator must refuse.
    public func status(of connection: Connection) throws -> [Status] {
        // One snapshot for both reads: between them another process may apply the first migration,
        // and its tables without its history would look like another program's file.
        let (applied, tables, claim) = try connection.transaction(.deferred) {
            let applied = try appliedMigrations(in: connection)
            // An app's set goes into a file that holds another set's tables by design.
            guard applied.isEmpty && setName == nil else { return (applied, [String](), (userVersion: 0, applicationID: 0)) }
            return (applied, try tableNames(in: connection),
                    (userVersion: try connection.scalar("PRAGMA user_version", as: Int.self) ?? 0,
                     applicationID: try connection.scalar("PRAGMA application_id", as: Int.self) ?? 0))
        }
        if !tables.isEmpty { throw MigrationError.foreignDatabase(tables: tables) }
        if claim.userVersion != 0 || claim.applicationID != 0 {
            throw MigrationError.claimedByAnotherProgram(userVersion: claim.userVersion, applicationID: claim.applicationID)
        }
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        let unknown = applied.filter { known[$0.version] == nil }
        if !unknown.isEmpty {
            throw MigrationError.unknownMigrations(identifiers: unknown.map {
                (setName.map { "\($0) " } ?? "") + $0.identifier
            })
        }
        for record in applied {
            guard let migration = known[record.version] else { continue }
            if migration.checksum != record.checksum {
                throw MigrationError.checksumMismatch(identifier: migration.identifier, recorded: record.checksum,
                                                      current: migration.checksum)
            }
        }
        let appliedAt = Dictionary(uniqueKeysWithValues: applied.map { ($0.version, $0.appliedAt) })
        if let latest = applied.last, let latestMigration = known[latest.version] {
            let gaps = migrations.filter { $0.version < latest.version && appliedAt[$0.version] == nil }
            if !gaps.isEmpty {
                throw MigrationError.incompleteHistory(missing: gaps.map(\.identifier), after: latestMigration.identifier)
            }
        }
        return migrations.map { Status(migration: $0, appliedAt: appliedAt[$0.version]) }
    }

    /// The file's own tables and views (not SQLite's internal ones, nor the history table): a file
    /// of views alone is no empty file either (`view v`).
    private func tableNames(in connection: Connection) throws -> [String] {
        let statement = try connection.prepare("""
            SELECT CASE type WHEN 'view' THEN 'view ' || name ELSE name END FROM sqlite_master
            WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_migrations'
            ORDER BY type, name
            """)
        var names: [String] = []
        while try statement.step() { names.append(try statement.schemaText(0)) }
        return names
    }

    /// The version of the newest applied migration, 0 for a new database.
    public func currentVersion(of connection: Connection) throws -> Int {
        try appliedMigrations(in: connection).last?.version ?? 0
    }

    /// Applies every pending migration and returns those it applied.
    ///
    /// They run in one `IMMEDIATE` transaction, each migration with its record, so a failure (a
    /// full disk, a killed process, a refusal) leaves the database as it was, at its previous
    /// version; the history is read under the write lock, so two processes migrating at once
    /// apply each migration once. When a pending migration rebuilds tables (`-- migration:
    /// foreign keys off`), foreign keys are off for the whole transaction (the pragma has no
    /// effect inside one), and rows the migrations leave without their parent refuse it.
    ///
    /// A file whose schema is not what its applied migrations made is refused before any runs; one
    /// that has an object under a name a pending migration creates fails that migration, which
    /// rolls every pending one back, named as a clash (``MigrationError/appliedWithoutRecord(identifier:detail:)``).
    /// A migration that rebuilds tables keeps another program's indexes on them, and its triggers
    /// and views, by making them again with their own text.
    ///
    /// `finishing`, when given, runs last in the same transaction when anything was applied: the
    /// caller's own upkeep of what the migrations made, committed with them or not at all.
    @discardableResult
    public func migrate(_ connection: Connection, now: () -> Date = Date.init,
                        finishing: ((Connection) throws -> Void)? = nil) throws -> [Migration] {
        let waiting = try status(of: connection).filter { $0.appliedAt == nil }.map(\.migration)
        guard !waiting.isEmpty else { return [] }
        // What another program's triggers, views and foreign keys that work now need of the file,
        // which no migration may take from them (`BrokenDependents`): looked at before foreign
        // keys are switched off, so that one already broken (a parent key that is no key) is seen so.
        let dependents = try setName == nil ? dependentsOfOtherPrograms(in: connection) : nil
        // PRAGMA foreign_keys has no effect inside a transaction: it is switched around it.
        let foreignKeysOff = waiting.contains(where: \.runsWithForeignKeysOff)
        if foreignKeysOff { try connection.execute("PRAGMA foreign_keys = OFF") }
        defer { if foreignKeysOff { try? connection.execute("PRAGMA foreign_keys = ON") } }
        return try connection.transaction(.immediate) {
            let pending = try status(of: connection).filter { $0.appliedAt == nil }.map(\.migration)
            guard !pending.isEmpty else { return [] }
            // Another program's indexes, triggers and views, which a migration that rebuilds a
            // table must make again; a new file has none, and needs no look at what each
            // migration rebuilds (which applies the migrations before it in memory).
            var keepsForeignObjects = false
            if setName == nil {
                let current = try currentVersion(of: connection)
                keepsForeignObjects = try hasForeignObjects(in: connection, at: current)
                // A file that is not what its applied migrations made: a table rebuilt from the
                // migrations' text would lose another program's column.
                let differences = try schemaDifferences(of: connection, upTo: current)
                // Unless the history lost the rows of migrations whose objects are there: that is said instead.
                if !differences.isEmpty {
                    if let (migration, present) = try pendingMigrationsMeetingExistingObjects(in: connection, after: current).first {
                        throw clash(of: migration, detail: "\(present.joined(separator: ", ")) already exist\(present.count == 1 ? "s" : "")")
                    }
                    throw MigrationError.schemaDiffers(differences: differences)
                }
            }
            if try !Self.hasHistoryTable(historyTable, madeBy: historyTableDefinition, in: connection) {
                try connection.execute(historyTableDefinition)
            }
            // Rows another program left without their parent before are no fault of the migrations.
            let violationsBefore = foreignKeysOff ? Set(try connection.foreignKeyViolations()) : []
            for migration in pending {
                try apply(migration, keepingForeignObjects: keepsForeignObjects, in: connection, now: now)
                if let dependents, let broken = try BrokenDependents(of: dependents.others, in: connection)
                    .newSince(dependents.brokenBefore).first {
                    throw MigrationError.foreignObjectNotKept(identifier: migration.identifier, object: broken.object,
                                                              detail: "\(broken.statement) fails: \(broken.message)")
                }
            }
            if foreignKeysOff {
                let violations = try connection.foreignKeyViolations().filter { !violationsBefore.contains($0) }
                guard violations.isEmpty else {
                    let rebuilding = pending.filter(\.runsWithForeignKeysOff).map(\.identifier).joined(separator: ", ")
                    throw MigrationError.foreignKeyViolations(identifier: rebuilding, violations: violations)
                }
            }
            try finishing?(connection)
            return pending
        }
    }

    /// Another program's objects in `connection`'s file, next to what its applied migrations make,
    /// and those of them SQLite cannot use now; nil for a new file, or one with none.
    private func dependentsOfOtherPrograms(in connection: Connection) throws
        -> (others: OtherProgramsObjects, brokenBefore: BrokenDependents)? {
        let current = try currentVersion(of: connection)
        guard current > 0 else { return nil }
        let others = try otherProgramsObjects(in: connection, upTo: current)
        return others.isEmpty ? nil : (others, try BrokenDependents(of: others, in: connection))
    }

    /// Runs `migration` and records it, inside the transaction of ``migrate(_:now:finishing:)``;
    /// `keepingForeignObjects` when the file has another program's objects to keep.
    private func apply(_ migration: Migration, keepingForeignObjects: Bool, in connection: Connection, now: () -> Date) throws {
        // A migration that rebuilds a table keeps another program's objects on it (0013 rebuilds
        // one without needing foreign keys off, and dropped them; helper-6).
        let rebuilds = try keepingForeignObjects && rebuildsTables(migration)
        let kept = rebuilds ? try foreignObjects(rebuiltBy: migration, in: connection) : []
        do {
            try connection.execute("SAVEPOINT migration")
            // Triggers before views: dropping a view drops its INSTEAD OF triggers with it, and the
            // trigger's own DROP then failed the migration (helper-80).
            for object in kept.reversed() where object.type != "index" {
                try connection.execute("DROP \(object.type) \(object.name.quotedSQLIdentifier)")
            }
            try connection.refusingTransactionStatements(in: migration.identifier) { try connection.execute(migration.sql) }
            try remake(kept, after: migration, in: connection)
            try connection.execute("RELEASE migration")
        } catch let error as MigrationError {
            if !connection.isAutocommit { try connection.execute("ROLLBACK TO migration; RELEASE migration") }
            throw error
        } catch let error as SQLiteError {
            // SQLite rolled the whole transaction back itself (a full disk in a statement
            // that keeps no statement journal): nothing was applied, and its error says why.
            guard !connection.isAutocommit else { throw error }
            // Undone first, so that what the file had before the migration is what is compared.
            try connection.execute("ROLLBACK TO migration; RELEASE migration")
            let alreadyMade = try objectsAlreadyMade(by: migration, in: connection)
            if error.message.hasSuffix("already exists") || !alreadyMade.isEmpty { throw clash(of: migration, detail: error.message) }
            throw error
        }
        let record: [DatabaseValue] = [.integer(Int64(migration.version)), .text(migration.name), .text(migration.checksum),
                                       .real(now().timeIntervalSinceReferenceDate)]
        if let setName {
            try connection.run("INSERT INTO app_migrations (set_name, version, name, checksum, applied_at) VALUES (?, ?, ?, ?, ?)",
                               [.text(setName)] + record)
        } else {
            try connection.run("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)", record)
            try connection.execute("PRAGMA user_version = \(migration.version)")
        }
    }

    /// The refusal of `migration`, whose objects the file has already (`detail` says which): for an
    /// app's set, named as the set's, whose names must be apart from Logbook's own and other sets'.
    private func clash(of migration: Migration, detail: String) -> MigrationError {
        guard let setName else { return .appliedWithoutRecord(identifier: migration.identifier, detail: detail) }
        return .appliedWithoutRecord(identifier: "\(migration.identifier) of the app's set '\(setName)'",
                                     detail: detail + "; an app's tables, indexes and triggers need names of their own, apart from "
                                         + "Logbook's and other sets'")
    }

    /// The history of apps' migration sets, one row per applied migration of each named set.
    static let appHistoryTableSQL = """
        CREATE TABLE app_migrations (
            set_name TEXT NOT NULL,
            version INTEGER NOT NULL,
            name TEXT NOT NULL,
            checksum TEXT NOT NULL,
            applied_at REAL NOT NULL,  -- seconds since 2001-01-01T00:00:00Z
            PRIMARY KEY (set_name, version)
        ) WITHOUT ROWID
        """

    /// Every migration recorded for every app's set, by set and version: what `migrate --status`
    /// lists beside the file's own, whatever app wrote them.
    public static func appliedAppMigrations(in connection: Connection) throws -> [(set: String, migration: AppliedMigration)] {
        guard try hasHistoryTable("app_migrations", madeBy: appHistoryTableSQL, in: connection) else { return [] }
        let statement = try connection.prepare(
            """
            SELECT \(shownText("set_name")), version, \(recordColumns) FROM app_migrations ORDER BY set_name, version
            """)
        var applied: [(set: String, migration: AppliedMigration)] = []
        while try statement.step() {
            let set = try statement.schemaText(0)
            applied.append((set, try AppliedMigration(statement, from: 1, of: "app_migrations", set: set)))
        }
        return applied
    }

    /// A history row's columns after its version, as ``AppliedMigration`` reads them: a name or
    /// checksum another program stored as something other than text (a blob) shown as SQLite
    /// quotes it (every command refused the file, sending the user to `check`; helper-101).
    private static let recordColumns = "\(shownText("name")), \(shownText("checksum")), applied_at, quote(applied_at)"

    /// The text of `column`, or what SQLite's `quote()` makes of another value.
    private static func shownText(_ column: String) -> String {
        "CASE typeof(\(column)) WHEN 'text' THEN \(column) ELSE quote(\(column)) END"
    }

    /// The history of the file's own migrations, one row per applied migration.
    static let historyTableSQL = """
        CREATE TABLE schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            checksum TEXT NOT NULL,
            applied_at REAL NOT NULL  -- seconds since 2001-01-01T00:00:00Z
        )
        """
}
