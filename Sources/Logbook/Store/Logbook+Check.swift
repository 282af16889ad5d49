import Foundation
import SQLiteQuery

/// What `logbook check` found. Each list is empty (or `["ok"]` for integrity) when all is well.
public struct CheckReport: Sendable, Equatable {
    /// `PRAGMA integrity_check` lines; `["ok"]` for a sound file.
    public var integrity: [String]
    /// Rows that violate a foreign key, one line per key: `exercises: 2 rows refer to exercise_days pk 7, which is gone`.
    public var foreignKeyViolations: [String]
    /// The newest applied migration, and the newest this binary knows.
    public var schemaVersion: Int
    /// The newest migration this binary carries: a lower ``CheckReport/schemaVersion`` means migrations are
    /// pending, a higher one that a newer Logbook wrote the file.
    public var latestKnownVersion: Int
    /// Problems with the migration history (edited, unknown or missing migrations).
    public var migrationProblems: [String]
    /// Problems with the file itself: not as long as its header says, not whole pages.
    public var fileProblems: [String]
    /// Tables, indexes and triggers the applied migrations create that are missing or different,
    /// and another program's triggers, views and foreign keys that SQLite can no longer use (a
    /// trigger naming a table that is gone, which fails every write to its table). Empty, as
    /// ``CheckReport/foreignTriggers`` is, when ``CheckReport/schemaChecked`` is false.
    public var schemaProblems: [String]
    /// Whether the schema was judged: not for a file a newer Logbook wrote (a higher
    /// ``CheckReport/schemaVersion``), whose objects this binary cannot tell from another
    /// program's.
    public var schemaChecked: Bool
    /// Triggers another program put on Logbook's tables, as `name on table`: no problem for the
    /// check (an app may keep its own audit that way), but each runs inside Logbook's writes to its
    /// table and can change what they store, so they are named.
    public var foreignTriggers: [String]
    /// What another program's writes left inconsistent: rows whose parent is gone, positions that
    /// are not 1…n, keys that are not the key of their text, tallies that disagree with a recount.
    /// `Logbook.repair(dryRun:)` puts all of it right.
    public var derivedDataProblems: [String]
    /// Days another program changed (its updates and deletes mark them) that Logbook's next
    /// history write (or `repair`) recounts, with their weeks, months and years: no problem
    /// (reports count them from the exercise rows until then), and their periods are left out of
    /// ``CheckReport/derivedDataProblems``. Rows another program inserted into a stored day are
    /// marked by no trigger: where they leave the tallies behind, ``CheckReport/derivedDataProblems``
    /// names it (`repair` recounts them).
    public var daysAwaitingRecount: Int
    /// Values another program stored that Logbook cannot read where it reads records (a day
    /// `2026-02-30`, text where a date belongs, a lowercase id), by table, column and row; these
    /// need correcting with SQL (repair refuses while there are any).
    public var storedValueProblems: [String]
    /// Whether the stored values and derived data were audited: only when the file has every
    /// migration this binary knows and the schema they make, and no file problem (both lists are
    /// empty otherwise).
    public var recordsAudited: Bool

    /// Whether nothing is wrong: integrity `ok`, every problem list empty, and the schema at
    /// ``CheckReport/latestKnownVersion``. `logbook check` exits 1 when this is false.
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
            // Apps' histories too, which only `migrate --status` read (it refused a row `check` passed; helper-100).
            do {
                _ = try Migrator.appliedAppMigrations(in: connection)
            } catch let error as MigrationError {
                if case .unreadableHistory = error { migrationProblems.append(error.description) }
            }
            let version = try database.migrator.currentVersion(of: connection)
            let migrator = database.migrator
            if version == 0 && migrationProblems.isEmpty {
                migrationProblems.append("no migration was ever applied: this is not a Logbook database yet ('logbook init' makes it one)")
            } else if version < migrator.latestVersion {
                migrationProblems += try migrator.pendingMigrationsWithExistingObjects(in: connection, after: version)
                // A migration that fails on what another program made: said before 'logbook migrate' is run.
                if migrationProblems.isEmpty, let failure = try migrator.rehearsalFailure(of: connection) {
                    migrationProblems.append("migrating would fail, changing nothing: \(failure)")
                }
            }
            // A newer Logbook's objects cannot be told from another program's: its schema is not judged.
            let isNewer = version > migrator.latestVersion
            let schemaDifferences = isNewer ? [] : try migrator.schemaDifferences(of: connection, upTo: version)
            let foreignTriggers = isNewer ? [] : try migrator.foreignTriggers(in: connection, upTo: version)
            let brokenDependents = isNewer ? [] : try migrator.brokenDependents(in: connection, upTo: version)
            let fileProblems = connection.fileProblems()
            // Stored values and derived data are audited on the schema this binary makes, in a file
            // it can use (whole, its text UTF-8, which the audits' SQL measures in bytes), and only then.
            let audited = version == migrator.latestVersion && schemaDifferences.isEmpty && fileProblems.isEmpty
            let derived = audited ? try DerivedDataAudit.problems(in: connection) : []
            let awaitingRecount = audited ? try ExerciseTallies.daysAwaitingRecount(in: connection) : 0
            let unreadable = audited ? try StoredValueAudit.problems(in: connection) : []
            return CheckReport(integrity: try connection.integrityCheck(), foreignKeyViolations: try connection.foreignKeyViolations(),
                               schemaVersion: version, latestKnownVersion: database.migrator.latestVersion,
                               migrationProblems: migrationProblems, fileProblems: fileProblems,
                               schemaProblems: schemaDifferences + brokenDependents,
                               schemaChecked: !isNewer, foreignTriggers: foreignTriggers, derivedDataProblems: derived,
                               daysAwaitingRecount: awaitingRecount, storedValueProblems: unreadable, recordsAudited: audited)
        }
    }
}
