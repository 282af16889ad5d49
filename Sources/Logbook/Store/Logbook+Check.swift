import Foundation
import SQLiteQuery

/// What `logbook check` found.
public struct CheckReport: Sendable, Equatable {
    /// `PRAGMA integrity_check` lines; `["ok"]` for a sound file.
    public var integrity: [String]
    /// Rows that violate a foreign key, as `table rowid → parent`.
    public var foreignKeyViolations: [String]
    /// The newest applied migration, and the newest this binary knows.
    public var schemaVersion: Int
    public var latestKnownVersion: Int
    /// Problems with the migration history (edited or unknown migrations), empty when none.
    public var migrationProblems: [String]

    public var isHealthy: Bool {
        integrity == ["ok"] && foreignKeyViolations.isEmpty && migrationProblems.isEmpty
            && schemaVersion == latestKnownVersion
    }
}

extension Logbook {
    /// Checks the file's integrity, its foreign keys and its migration history, changing nothing.
    public func check() throws -> CheckReport {
        try database.read { connection in
            var integrity: [String] = []
            let integrityCheck = try connection.prepare("PRAGMA integrity_check")
            while try integrityCheck.step() { integrity.append(try integrityCheck.column(0)) }

            var violations: [String] = []
            let foreignKeyCheck = try connection.prepare("PRAGMA foreign_key_check")
            while try foreignKeyCheck.step() {
                let table: String = try foreignKeyCheck.column(0)
                let rowid: Int64? = try foreignKeyCheck.column(1)
                let parent: String = try foreignKeyCheck.column(2)
                violations.append("\(table) row \(rowid.map(String.init) ?? "?") refers to a missing \(parent) row")
            }

            var problems: [String] = []
            do {
                _ = try database.migrator.status(of: connection)
            } catch let error as MigrationError {
                problems.append(error.description)
            }
            return CheckReport(integrity: integrity, foreignKeyViolations: violations,
                               schemaVersion: try database.migrator.currentVersion(of: connection),
                               latestKnownVersion: database.migrator.latestVersion, migrationProblems: problems)
        }
    }
}
