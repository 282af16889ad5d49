import Foundation

/// Applies numbered migrations to a database, each once, in order, each in its own transaction, and
/// records each with its checksum in the `schema_migrations` table.
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

    /// Sorts `migrations` by version; throws ``MigrationError/duplicateVersion(_:)`` when two share a
    /// number. Versions are not otherwise checked.
    public init(migrations: [Migration]) throws {
        let sorted = migrations.sorted { $0.version < $1.version }
        if let first = sorted.first, first.version < 1 { throw MigrationError.invalidVersion(first.version) }
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.version == later.version {
            throw MigrationError.duplicateVersion(later.version)
        }
        self.migrations = sorted
    }

    /// The newest version this migrator knows.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The migrations recorded in the database, oldest first. Reads only.
    public func appliedMigrations(in connection: Connection) throws -> [AppliedMigration] {
        let exists = try connection.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
            as: Int.self) ?? 0
        guard exists > 0 else { return [] }
        let statement = try connection.cachedStatement(
            "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
        defer { statement.reset() }
        var applied: [AppliedMigration] = []
        while try statement.step() {
            applied.append(AppliedMigration(version: try statement.column(0), name: try statement.column(1),
                                            checksum: try statement.column(2), appliedAt: try statement.column(3)))
        }
        return applied
    }

    /// Checks the database's history and returns each known migration's status. Reads only; throws
    /// ``MigrationError`` for a database this migrator must refuse.
    public func status(of connection: Connection) throws -> [Status] {
        // One snapshot for both reads: between them another process may apply the first migration,
        // and its tables without its history would look like another program's file.
        let (applied, tables, claim) = try connection.transaction(.deferred) {
            let applied = try appliedMigrations(in: connection)
            guard applied.isEmpty else { return (applied, [String](), (userVersion: 0, applicationID: 0)) }
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
                Migration(version: $0.version, name: $0.name, sql: "").identifier
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

    /// The file's own tables (not SQLite's internal ones, nor the history table).
    private func tableNames(in connection: Connection) throws -> [String] {
        let statement = try connection.prepare("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND name <> 'schema_migrations' ORDER BY name
            """)
        var names: [String] = []
        while try statement.step() { names.append(try statement.column(0)) }
        return names
    }

    /// The version of the newest applied migration, 0 for a new database.
    public func currentVersion(of connection: Connection) throws -> Int {
        try appliedMigrations(in: connection).last?.version ?? 0
    }

    /// Applies every pending migration and returns those it applied.
    ///
    /// Each runs in its own `IMMEDIATE` transaction together with its record, so a failure leaves
    /// the database at the previous version; the history is checked again under the write lock,
    /// so two processes migrating at once apply each migration once.
    @discardableResult
    public func migrate(_ connection: Connection, now: () -> Date = Date.init) throws -> [Migration] {
        let pending = try status(of: connection).filter { $0.appliedAt == nil }.map(\.migration)
        var applied: [Migration] = []
        for migration in pending {
            // PRAGMA foreign_keys has no effect inside a transaction: it is switched around it.
            if migration.runsWithForeignKeysOff { try connection.execute("PRAGMA foreign_keys = OFF") }
            defer { if migration.runsWithForeignKeysOff { try? connection.execute("PRAGMA foreign_keys = ON") } }
            let didApply = try connection.transaction(.immediate) { () throws -> Bool in
                let stillPending = try status(of: connection)
                    .contains { $0.migration.version == migration.version && $0.appliedAt == nil }
                guard stillPending else { return false }
                try connection.execute(Self.historyTableSQL)
                do {
                    try connection.execute(migration.sql)
                } catch let error as SQLiteError where error.message.hasSuffix("already exists") {
                    throw MigrationError.appliedWithoutRecord(identifier: migration.identifier, detail: error.message)
                }
                if migration.runsWithForeignKeysOff {
                    let violations = try connection.foreignKeyViolations()
                    guard violations.isEmpty else {
                        throw MigrationError.foreignKeyViolations(identifier: migration.identifier, violations: violations)
                    }
                }
                try connection.run(
                    "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                    [.integer(Int64(migration.version)), .text(migration.name), .text(migration.checksum),
                     .real(now().timeIntervalSinceReferenceDate)])
                try connection.execute("PRAGMA user_version = \(migration.version)")
                return true
            }
            if didApply { applied.append(migration) }
        }
        return applied
    }

    static let historyTableSQL = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            checksum TEXT NOT NULL,
            applied_at REAL NOT NULL  -- seconds since 2001-01-01T00:00:00Z
        )
        """
}
