import Foundation

/// Folders made for a database file, as `mkdir -p` makes them.
package enum Folders {
    /// Creates `folder` and every missing folder above it, and returns the folders it made, the
    /// deepest first. Each one it makes lets its owner write in it and enter it whatever the
    /// umask, as `mkdir -p` does, since the file or folder below must be made in it (a umask of
    /// 377 left a folder nothing could be made in; helper-86). On failure it removes the folders
    /// it made again (they were left; helper-86) and throws the reason, naming the path the
    /// system refused and why in its words (`/data/report is not a folder`, `Permission denied`).
    @discardableResult
    package static func create(_ folder: String) throws -> [String] {
        var made: [String] = []
        do {
            try create(folder, recordingIn: &made)
        } catch {
            remove(made)
            throw error
        }
        return made
    }

    private static func create(_ folder: String, recordingIn made: inout [String]) throws {
        var status = stat()
        if stat(folder, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw Refusal(reason: "\(folder) is not a folder") }
            return
        }
        // The folder above (`/` for one at the root, which is there), as ``PathParts`` splits it.
        let above = PathParts(folder).folder
        if !above.isEmpty { try create(above, recordingIn: &made) }
        guard mkdir(folder, 0o777) == 0 else {
            guard errno == EEXIST else { throw Refusal(reason: "\(folder): \(String(cString: strerror(errno)))") }
            return
        }
        made.insert(folder, at: 0)
        let ownerMayUse = S_IWUSR | S_IXUSR
        if stat(folder, &status) == 0, status.st_mode & ownerMayUse != ownerMayUse {
            chmod(folder, status.st_mode & 0o7777 | ownerMayUse)
        }
    }

    /// Removes `folders`, the deepest first, each only while it is empty: the first that is not
    /// (another process made something in it) stops the removal, as it keeps those above it.
    package static func remove(_ folders: [String]) {
        for folder in folders where rmdir(folder) != 0 { break }
    }

    /// Why a folder could not be made.
    package struct Refusal: Error {
        package let reason: String
    }
}
