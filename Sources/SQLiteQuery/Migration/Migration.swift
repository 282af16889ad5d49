import Foundation

/// One schema change: a numbered SQL script, applied once, in order, inside the transaction of the pending ones.
public struct Migration: Sendable, Equatable {
    /// The number that orders migrations: `1` for `0001_create_drafts.sql`.
    public let version: Int
    /// The file's name without the number and extension: `create_drafts`.
    public let name: String
    /// The SQL script, one or more statements, run as written; its exact bytes make the checksum.
    public let sql: String
    /// SHA-256 of the SQL text's UTF-8 bytes, as hexadecimal: any edit to an applied file changes it.
    public let checksum: String

    /// A migration numbered `version`, its checksum computed from `sql`. A `version` below 1 is
    /// refused by ``Migrator/init(migrations:set:)`` (``MigrationError/invalidVersion(_:)``).
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        checksum = SHA256.hexDigest(of: sql.utf8)
    }

    /// Makes a migration from a file name of the form `NNNN_name.sql` and its contents.
    public init(fileName: String, sql: String) throws {
        let (version, name) = try Self.versionAndName(of: fileName)
        self.init(version: version, name: name, sql: sql)
    }

    /// The same, with the checksum of `sql` computed already: by `MigrationsEmbedder` when it
    /// compiles the migration files into a binary, so that no process hashes them as it starts
    /// (a tenth of `logbook --version`). `SchemaTests` checks every embedded checksum.
    package init(fileName: String, sql: String, checksum: String) throws {
        (version, name) = try Self.versionAndName(of: fileName)
        self.sql = sql
        self.checksum = checksum
    }

    /// The number and name in a file name of the form `NNNN_name.sql`.
    private static func versionAndName(of fileName: String) throws -> (version: Int, name: String) {
        let stem = fileName.hasSuffix(".sql") ? String(fileName.dropLast(4)) : fileName
        let parts = stem.split(separator: "_", maxSplits: 1)
        guard fileName.hasSuffix(".sql"), parts.count == 2, let version = Int(parts[0]), version > 0,
              parts[0].allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw MigrationError.invalidFileName(fileName)
        }
        return (version, String(parts[1]))
    }

    /// The line that asks for foreign keys off while the migration runs.
    public static let foreignKeysOffDirective = "-- migration: foreign keys off"

    /// Whether the migration runs with foreign keys off: it starts with the line
    /// `-- migration: foreign keys off`, as a migration that rebuilds a table must (SQLite's
    /// twelve-step `ALTER TABLE` procedure: with foreign keys on, dropping the old parent table
    /// would delete every child row through `ON DELETE CASCADE`). The pragma cannot change inside a
    /// transaction, and the pending migrations are one: when one of them asks, foreign keys are
    /// off for all of them, so a migration must not rely on a foreign key action (`ON DELETE
    /// CASCADE`, `SET NULL`) to remove or change rows; it writes those changes itself.
    /// `PRAGMA foreign_key_check` runs before and after them, and a violation it did not find
    /// before (a row the migrations left without its parent) refuses them all; rows another
    /// program left so are kept as they were.
    public var runsWithForeignKeysOff: Bool {
        sql.split(separator: "\n", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
            == Self.foreignKeysOffDirective
    }


    /// `0001_create_drafts`: how the migration is named in messages.
    public var identifier: String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "_" + name
    }
}

/// Why the migrator refused a database. It writes nothing when it refuses.
public enum MigrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A migration file name that is not `NNNN_name.sql`, with a positive number and a name.
    case invalidFileName(String)
    /// Two migrations share this number.
    case duplicateVersion(Int)
    /// A migration numbered below 1: version 0 means a database with no migration applied.
    case invalidVersion(Int)
    /// An app's migration set named with the empty string.
    case invalidSetName(String)
    /// An applied migration's SQL differs from the file this binary carries.
    case checksumMismatch(identifier: String, recorded: String, current: String)
    /// The database has migrations this binary does not know: it was written by a newer version.
    case unknownMigrations(identifiers: [String])
    /// The file has tables but no migration history: it belongs to another program.
    case foreignDatabase(tables: [String])
    /// An object of the file has the name of a migration history table (`schema_migrations`,
    /// `app_migrations`) but is not that table: a view, or another program's table.
    case historyTableTaken(name: String)
    /// The file has no tables and no migration history, but its `user_version` or `application_id`
    /// is set: another program has claimed it.
    case claimedByAnotherProgram(userVersion: Int, applicationID: Int)
    /// A pending migration's objects already exist (a row of `schema_migrations` was deleted, or
    /// another program created them); `detail` is SQLite's message. Nothing was changed.
    case appliedWithoutRecord(identifier: String, detail: String)
    /// The database lacks migrations this binary knows, and was opened for reading only.
    case pendingMigrations(identifiers: [String])
    /// The history lacks a migration that later ones depend on: a row of `schema_migrations` was
    /// deleted (re-applying it would fail, its objects exist).
    case incompleteHistory(missing: [String], after: String)
    /// The file's tables, indexes or triggers are not those its applied migrations create (another
    /// program dropped or changed one): each difference, as ``Migrator/schemaDifferences(of:upTo:)`` says.
    case schemaDiffers(differences: [String])
    /// The migrations, run with foreign keys off because `identifier` (those that asked) rebuild
    /// tables, left rows whose parent is missing; they were rolled back.
    case foreignKeyViolations(identifier: String, violations: [String])
    /// A migration could not keep another program's `object` working: one that rebuilds a table
    /// could not make its index, trigger or view again after it, or a migration left its trigger,
    /// view or foreign keys naming what is gone (a dropped table), so that SQLite refuses every write
    /// or read through it (`detail` says which, with SQLite's message). It was rolled back.
    case foreignObjectNotKept(identifier: String, object: String, detail: String)
    /// A row of the migration history (`table`; an app's `set` in `app_migrations`) holds an
    /// `applied_at` that is no number (`value`, as SQLite quotes it): another program wrote it.
    case unreadableHistory(table: String, set: String?, version: Int, value: String)

    /// The refusal in one sentence for people, naming the migrations or tables concerned.
    public var description: String {
        switch self {
        case .invalidFileName(let name):
            "migration file name \(name) is not of the form NNNN_name.sql"
        case .duplicateVersion(let version):
            "two migrations share the number \(version)"
        case .invalidVersion(let version):
            "migration number \(version) is not positive: numbers start at 1"
        case .invalidSetName:
            "an app's migration set needs a name"
        case .checksumMismatch(let identifier, let recorded, let current):
            "applied migration \(identifier) was edited since it ran "
                + "(checksum \(Self.shown(recorded, besides: current)) recorded, \(Self.shown(current, besides: recorded)) now); "
                + "refusing to continue"
        case .foreignDatabase(let tables):
            "the database has tables (\(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : "")) "
                + "but no migration history: it belongs to another program; refusing to change it"
        case .historyTableTaken(let name):
            "the database's \(name) is not the migration history Logbook keeps under that name (another program's table "
                + "or view); refusing to use it"
        case .claimedByAnotherProgram(let userVersion, let applicationID):
            "the database has no tables but its " + (userVersion != 0 ? "user_version is \(userVersion)" : "application_id is \(applicationID)")
                + ": another program has claimed it; refusing to change it"
        case .appliedWithoutRecord(let identifier, let detail):
            "migration \(identifier) is not in the history but its objects exist (\(detail)): a row of the migration history "
                + "was deleted or another program made them; refusing to change the database"
        case .incompleteHistory(let missing, let after):
            "the migration history lacks \(missing.joined(separator: ", ")) though \(after) was applied (a row of "
                + "the migration history was deleted); refusing to change the database"
        case .schemaDiffers(let differences):
            "its schema is not the one its migrations made (\(differences.prefix(3).joined(separator: "; "))"
                + "\(differences.count > 3 ? "; …" : "")); refusing to use it"
        case .foreignKeyViolations(let identifier, let violations):
            "migration \(identifier) left rows without their parent (\(violations.prefix(5).joined(separator: "; "))); "
                + "it was rolled back"
        case .foreignObjectNotKept(let identifier, let object, let detail):
            "migration \(identifier) could not keep another program's \(object) (\(detail)); it was rolled back: "
                + "drop it, migrate, and make it again to fit the migrated schema"
        case .unreadableHistory(let table, let set, let version, let value):
            "the migration history's row of version \(version)\(set.map { " of the set '\($0)'" } ?? "") (\(table)) holds "
                + "applied_at \(value), which is not a time (seconds since 2001-01-01): another program wrote it; give it one "
                + "(UPDATE \(table) SET applied_at = 0 WHERE version = \(version)"
                + "\(set.map { " AND set_name = '\($0.replacingOccurrences(of: "'", with: "''"))'" } ?? ""))"
        case .pendingMigrations(let identifiers):
            "the database needs migrations it has not had (\(identifiers.joined(separator: ", "))): "
                + "run 'logbook migrate' to apply them"
        case .unknownMigrations(let identifiers):
            "the database has migrations this version does not know (\(identifiers.joined(separator: ", "))): "
                + "it was written by a newer version; refusing to change it"
        }
    }

    /// The first 12 characters of `checksum`, or as many as show where it differs from `other`,
    /// with an ellipsis when some are left out.
    private static func shown(_ checksum: String, besides other: String) -> String {
        let count = max(12, zip(checksum, other).prefix { $0 == $1 }.count + 4)
        return checksum.count > count ? checksum.prefix(count) + "…" : checksum
    }
}
