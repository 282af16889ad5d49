import Foundation
import SQLiteQuery

/// Following symbolic links one at a time, read with `readlink`: what `-o`, `backup` and a new
/// `--db` write to, and whether a path names a descriptor (`/dev/stdout` is a link).
package enum SymbolicLink {
    /// The path the symbolic link at `path` points to, a relative target taken from the link's
    /// folder; nil when `path` is no symbolic link.
    package static func destination(of path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Absolute by its first scalar: `/\u{301}t` is, though its first Character is no `/`.
        return destination.begins(with: "/") ? destination : PathParts(path).sibling(destination)
    }

    /// `path` with every symbolic link along its last component followed (the folders are kept as
    /// written); a link to a file that does not exist yet gives that file's path.
    package static func finalTarget(of path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            guard let next = destination(of: current) else { return current }
            current = next
        }
        throw LogbookError.cannotWrite(path: path, reason: "too many levels of symbolic links")
    }
}
