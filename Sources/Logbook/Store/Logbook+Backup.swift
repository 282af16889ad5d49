import Foundation
import SQLiteQuery

/// What `Logbook.backup(to:)` wrote.
public struct BackupSummary: Sendable, Equatable {
    /// The copy's path, as given.
    public let path: String
    /// The copy's size in bytes.
    public let bytes: Int
    /// The number of database pages copied.
    public let pages: Int
    /// The problems of rows the copy holds because the database holds them (rows another program
    /// left in Logbook's tables without their parent, or exercises with a position below 1: what `repair`
    /// puts right), as `check` names them; empty for a sound database. The copy is taken so that it
    /// can be kept before a repair.
    public let problemsOfTheDatabase: [String]
}

/// Why a backup was refused or failed. In every case the target is as it was before.
public enum BackupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The target is the database itself, or its `-wal`, `-shm` or `-journal` file.
    case targetIsTheDatabase(target: String, database: String)
    /// The target is a folder.
    case targetIsAFolder(target: String)
    /// A temporary file could not be created beside the target, or renamed over it.
    case cannotWrite(target: String, reason: String)
    /// The target has a `-wal` or `-journal` file beside it: it is open, or was not closed cleanly,
    /// and SQLite would apply that file to the new copy.
    case targetInUse(target: String, sideFile: String)
    /// The target is a file that holds something other than a Logbook database (a backup replaces
    /// only an earlier copy, or an empty file).
    case targetIsNotALogbook(target: String)
    /// The target is another logbook: its id (`logbookID()`) is not this one's, so it is no earlier
    /// copy of this database (another device's logbook, or one a `--db` typo named).
    case targetIsAnotherLogbook(target: String, targetID: String, databaseID: String)
    /// The copy failed its integrity or foreign-key check (the database itself is likely damaged).
    case copyIsDamaged(target: String, problems: [String])
    /// SQLite failed while copying.
    case failed(target: String, reason: String)

    /// The message the CLI prints, naming the target and what to do instead.
    public var description: String {
        switch self {
        case .targetIsTheDatabase(let target, let database):
            "cannot back up to \(target): it is the database \(database) or one of its files; choose another path"
        case .targetIsAFolder(let target): "cannot back up to \(target): it is a folder; give a file name"
        case .cannotWrite(let target, let reason): "cannot write \(target): \(reason)"
        case .targetInUse(let target, let sideFile):
            "cannot replace \(target): \(sideFile) exists beside it (the file is open, or was not closed cleanly); "
                + "choose another path"
        case .targetIsNotALogbook(let target):
            "cannot replace \(target): it holds something other than a Logbook database (a backup replaces only an earlier "
                + "copy or an empty file); move it away or choose another path"
        case .targetIsAnotherLogbook(let target, let targetID, let databaseID):
            "cannot replace \(target): it is another logbook (id \(targetID); this one is \(databaseID)), not an earlier copy "
                + "of this one; move it away or choose another path"
        case .copyIsDamaged(let target, let problems):
            "backup to \(target) refused: the copy failed its check (\(problems.joined(separator: "; "))); "
                + "run 'logbook check' on the database"
        case .failed(let target, let reason): "backup to \(target) failed: \(reason)"
        }
    }
}

extension Logbook {
    /// Writes a consistent copy of the database to `path`, while other connections and processes
    /// go on reading and writing.
    ///
    /// ```swift
    /// let summary = try store.backup(to: "/backups/logbook.sqlite")
    /// ```
    ///
    /// The pages are copied with SQLite's online backup API into a temporary file beside `path`,
    /// the copy is checked (integrity and foreign keys), and only then renamed over `path`, so
    /// `path` is never left half-written. A copy whose only problems are the database's own rows
    /// that `repair` puts right (the database shows the same) is taken, and they are named in
    /// ``BackupSummary/problemsOfTheDatabase``. Runs with the store's lock held, like any other call.
    /// Throws ``LogbookError/backupRefused(_:)`` with the ``BackupError`` that says why.
    public func backup(to path: String) throws -> BackupSummary {
        do {
            return try copy(to: path)
        } catch {
            throw LogbookError.reported(error, path: self.path)
        }
    }

    private func copy(to path: String) throws -> BackupSummary {
        try validateBackupTarget(path)
        let replacement: FileReplacement
        do {
            replacement = try FileReplacement(replacing: path)
        } catch LogbookError.cannotWrite(_, let reason) {
            throw BackupError.cannotWrite(target: path, reason: reason)
        }
        // SQLite writes the copy by path.
        replacement.closeForExternalWriter()
        do {
            let pages: Int
            do {
                pages = try database.withConnection { try $0.backup(to: replacement.temporaryPath) }
            } catch LogbookError.database(_, let error) {
                // SQLite's words alone ("database or disk is full"): the failure is the copy's, and
                // the store's path in the message would point at the wrong file, as would a note
                // on the store's disk and SQLite's temporary folder (``FullDiskCause``).
                throw BackupError.failed(target: path, reason: error.isFull ? error.codeDescription : error.message)
            } catch {
                throw BackupError.failed(target: path, reason: "\(error)")
            }
            let problems = try checkCopy(at: replacement.temporaryPath, target: path)
            do {
                try replacement.commit()
            } catch LogbookError.cannotWrite(_, let reason) {
                throw BackupError.cannotWrite(target: path, reason: reason)
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: replacement.target))?[.size] as? Int
            return BackupSummary(path: path, bytes: bytes ?? 0, pages: pages, problemsOfTheDatabase: problems)
        } catch {
            replacement.discard()
            throw error
        }
    }

    /// Refuses a target that is this database or one of its files, a folder, a database in use, or
    /// anything but an empty file or an earlier copy of this logbook.
    private func validateBackupTarget(_ path: String) throws {
        var status = stat()
        if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
            throw BackupError.targetIsAFolder(target: path)
        }
        if FileReplacement.writesInPlace(path) {
            throw BackupError.cannotWrite(target: path, reason: "a backup is a regular file; this is a device, a FIFO or a special path")
        }
        if DatabaseFiles(of: self.path).contains(path) {
            throw BackupError.targetIsTheDatabase(target: path, database: self.path)
        }
        let target = try SymbolicLink.finalTarget(of: path)
        for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: target + suffix) {
            throw BackupError.targetInUse(target: path, sideFile: target + suffix)
        }
        guard stat(target, &status) == 0 && status.st_size > 0 else { return }
        switch try BackupTarget(at: target, named: path) {
        case .notALogbook: throw BackupError.targetIsNotALogbook(target: path)
        case .logbook(let targetID?):
            // A file of either logbook from before ids (schema version 8) may be a copy of the other.
            if let databaseID = try database.read({ try? Self.logbookID(in: $0) }), targetID.lowercased() != databaseID.lowercased() {
                throw BackupError.targetIsAnotherLogbook(target: path, targetID: targetID, databaseID: databaseID)
            }
        case .logbook(nil): return
        }
    }

    /// Runs the integrity and foreign-key checks on the copy before it takes the target's place,
    /// and returns its problems when they are all rows of Logbook's tables that `repair` deletes or
    /// puts right (an exercise's position breaking its `CHECK`: `positionProblem`; a child without its
    /// parent: `DerivedDataAudit.children`) and the database shows the same: rows another
    /// program left, so that a copy can be kept first (one was refused: helper-97). Any other
    /// problem (another program's table's foreign keys among them: helper-100), or one the
    /// database does not show, refuses the copy.
    private func checkCopy(at path: String, target: String) throws -> [String] {
        let found: (integrity: [String], foreignKeys: [String])
        do {
            found = try Self.checkedProblems(at: path, timeZone: timeZone)
        } catch {
            throw BackupError.copyIsDamaged(target: target, problems: ["\(error)"])
        }
        let problems = found.integrity + found.foreignKeys
        guard !problems.isEmpty else { return [] }
        let ofRows = found.integrity.allSatisfy { $0 == Self.positionProblem }
            && found.foreignKeys.allSatisfy { line in
                DerivedDataAudit.children.contains { line.hasPrefix("\($0.table): ") && line.contains(" to \($0.parent) pk ") }
            }
        guard ofRows, let database = try? Self.checkedProblems(at: self.path, timeZone: timeZone),
              database.integrity + database.foreignKeys == problems else {
            throw BackupError.copyIsDamaged(target: target, problems: problems)
        }
        return problems
    }

    /// The problems the integrity check and the foreign-key check find in the file at `path`.
    private static func checkedProblems(at path: String, timeZone: TimeZone) throws -> (integrity: [String], foreignKeys: [String]) {
        let report = try Logbook.inspect(path: path, timeZone: timeZone).check()
        return (report.integrity.filter { $0 != "ok" }, report.foreignKeyViolations)
    }

    /// SQLite's integrity check's line about an exercise row that breaks its table's one `CHECK`
    /// constraint (a position below 1), which `repair` renumbers. (A checklist item's line may be
    /// of its id or its done flag, which it does not put right.)
    private static let positionProblem = "CHECK constraint failed in exercises"
}
