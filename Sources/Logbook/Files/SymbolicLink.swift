import Foundation
import SQLiteQuery

/// Following symbolic links one at a time, read with `readlink`: what `-o`, `backup` and a new
/// `--db` write to, and whether a path names a descriptor (`/dev/stdout` is a link).
package enum SymbolicLink {
    /// The path the symbolic link at `path` points to, a relative target taken from the link's
    /// folder; nil when `path` is no symbolic link. Throws for a target that is not UTF-8, which
    /// no `String` spells: its bytes read as U+FFFD named another file, so `-o` through such a
    /// link wrote there, exit 0 (helper-76).
    package static func destination(of path: String) throws -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let bytes = buffer[0..<count].map { UInt8(bitPattern: $0) }
        let destination = String(decoding: bytes, as: UTF8.self)
        guard destination.utf8.elementsEqual(bytes) else {
            throw LogbookError.cannotWrite(path: path, reason: "it is a symbolic link to a path that is not UTF-8, which Logbook cannot name")
        }
        // Absolute by its first scalar: `/\u{301}t` is, though its first Character is no `/`.
        return destination.begins(with: "/") ? destination : PathParts(path).sibling(destination)
    }

    /// `path` with every symbolic link along its last component followed (the folders are kept as
    /// written); a link to a file that does not exist yet gives that file's path.
    package static func finalTarget(of path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            guard let next = try destination(of: current) else { return current }
            current = next
        }
        throw LogbookError.cannotWrite(path: path, reason: "too many levels of symbolic links")
    }
}
