import Foundation

/// The files that make up one SQLite database: the main file and the `-wal`, `-shm` and
/// `-journal` files SQLite keeps beside it. Writers of other files (`export -o`, backups) ask
/// ``contains(_:)`` so that no output ever replaces the database it was read from.
public struct DatabaseFiles: Sendable {
    /// The database path as given.
    public let database: String

    /// The files of the database at `database`.
    public init(of database: String) {
        self.database = database
    }

    /// Whether `path` names the database or one of its side files: by resolved path (links
    /// followed, `..` and `.` removed) or, for the main file, by device and inode (hard links).
    public func contains(_ path: String) -> Bool {
        let mainFile = Self.resolvedPath(database)
        return ["-wal", "-shm", "-journal"].map({ mainFile + $0 }).contains(Self.resolvedPath(path)) || Self.areOneFile(path, database)
    }

    /// Whether `path` and `other` name one file: by resolved path (links followed, `..` and `.`
    /// removed; for a file that does not exist yet, its folder's) or by device and inode (hard
    /// links).
    public static func areOneFile(_ path: String, _ other: String) -> Bool {
        if resolvedPath(path) == resolvedPath(other) { return true }
        var pathStatus = stat(), otherStatus = stat()
        return stat(path, &pathStatus) == 0 && stat(other, &otherStatus) == 0
            && pathStatus.st_dev == otherStatus.st_dev && pathStatus.st_ino == otherStatus.st_ino
    }

    /// The absolute path with symbolic links resolved: of the file when it exists, else of its
    /// folder, after following the links to it (a link to a side file that does not exist yet
    /// names that file).
    static func resolvedPath(_ path: String) -> String {
        func real(_ path: String) -> String? {
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if let file = real(path) { return file }
        let url = URL(fileURLWithPath: (try? SymbolicLink.finalTarget(of: path)) ?? path)
        let folder = url.deletingLastPathComponent().path
        return (real(folder) ?? folder) + "/" + url.lastPathComponent
    }
}
