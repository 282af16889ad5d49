import SQLiteQuery

/// What a file a backup would replace holds.
enum BackupTarget {
    /// Anything but a Logbook database.
    case notALogbook
    /// A Logbook database (one with Logbook's migration history, of any schema version), with its
    /// logbook id, `nil` in a file from before ids.
    case logbook(id: String?)

    /// Reads the file at `path` (the target `target` names) as a file nothing changes, so that the
    /// look takes no lock and leaves nothing beside it (opened as a store, it left a `-wal` and a
    /// `-shm` there, which a full disk or a signal kept, and every later backup to the path was
    /// refused; helper-51). A file that cannot be read is named so.
    init(at path: String, named target: String) throws {
        var options = Connection.Options()
        (options.readOnly, options.immutable) = (true, true)
        let connection: Connection
        do {
            connection = try Connection(path: path, options: options)
        } catch let error as SQLiteError where error.isNotADatabaseOrCorrupt {
            self = .notALogbook
            return
        } catch {
            throw BackupError.cannotWrite(target: target, reason: "cannot read it to tell whether it is a Logbook database: \(error)")
        }
        let version = (try? Schema.migrator().currentVersion(of: connection)) ?? 0
        guard version > 0 else {
            self = .notALogbook
            return
        }
        guard version >= Self.firstVersionWithAnID else {
            self = .logbook(id: nil)
            return
        }
        // A logbook of ids whose id cannot be read is not taken for one from before them (it was
        // replaced; helper-87).
        do {
            self = .logbook(id: try Logbook.logbookID(in: connection))
        } catch {
            throw BackupError.cannotWrite(target: target, reason: "cannot read its logbook id to tell whether it is an earlier copy: \(error)")
        }
    }

    /// The schema version whose migration (0008) gave every logbook its id.
    static let firstVersionWithAnID = 8
}
