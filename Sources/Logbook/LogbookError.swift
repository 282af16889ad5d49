import Foundation
import SQLiteQuery

/// Everything that can go wrong in Logbook, as values. The CLI renders each one once, as a
/// `logbook: error: …` line.
public enum LogbookError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file exists but is not an SQLite database, or is damaged.
    case notADatabase(path: String, reason: String)
    /// There is no database at the path, and the operation does not create one.
    case noDatabase(path: String)
    /// The database could not be opened or its folder created.
    case cannotOpen(path: String, reason: String)
    /// The migrator refused the database (edited migration, newer schema).
    case migration(path: String, MigrationError)
    /// SQLite reported an error.
    case database(SQLiteError)

    public var description: String {
        switch self {
        case .notADatabase(let path, let reason): "\(path) is not a Logbook database (\(reason))"
        case .noDatabase(let path): "no database at \(path)"
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .migration(let path, let error): "\(path): \(error)"
        case .database(let error): error.description
        }
    }
}
