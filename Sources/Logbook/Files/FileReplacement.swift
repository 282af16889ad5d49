import Foundation
import SQLiteQuery

/// Replaces a regular file whole: the new content goes to a temporary file beside it, which is
/// renamed over it only once complete, so readers see the old file or the whole new one, and a
/// failure leaves the old file as it was.
///
/// ```swift
/// let replacement = try FileReplacement(replacing: "export.json")
/// try replacement.write(data)
/// try replacement.commit()          // or discard() on failure
/// ```
///
/// - A symbolic link is followed: the file it points to is replaced (the temporary file is made
///   beside that file) and the link stays a link.
/// - The new file keeps the old one's permissions, and its owner and group where this user may
///   give them. It is a new file: a hard link to the old one keeps the old content.
/// - The temporary file is named `.<name>.logbook-tmp-<pid>-<random>` and registered with
///   ``TemporaryFiles`` until committed or discarded. One left by a process that was killed
///   (its pid no longer runs) is removed by the next replacement of the same file.
/// - Only for regular files: FIFOs, devices and `/dev/…` or `/proc/…` paths are written in place
///   (see ``writesInPlace(_:)``).
public final class FileReplacement {
    /// The path as given.
    public let path: String
    /// The file that is replaced: `path` with its symbolic links followed.
    public let target: String
    /// Where the new content is written until ``commit()``.
    public let temporaryPath: String
    private var descriptor: Int32
    /// Files SQLite may create beside a database written at the temporary path.
    private static let sideFileSuffixes = ["-journal", "-wal", "-shm"]

    /// Creates the temporary file beside `path`'s target. Throws ``LogbookError/cannotWrite(path:reason:)``.
    public init(replacing path: String) throws {
        self.path = path
        // A C string ends at a NUL: the system would write the file the path's first part names.
        guard !path.utf8.contains(0) else {
            throw LogbookError.cannotWrite(path: path.debugDescription, reason: "the path holds a NUL character, which no file name can")
        }
        target = try SymbolicLink.finalTarget(of: path)
        // A file its owner made read-only (`chmod a-w`, no write bit for the owner), or one this
        // user may not write, is not replaced behind that; root too respects the owner's bit.
        var protection = stat()
        if stat(target, &protection) == 0 && (protection.st_mode & S_IWUSR == 0 || access(target, W_OK) != 0) {
            throw LogbookError.cannotWrite(path: path, reason: "it is write-protected (its owner cannot write it, or you may not)")
        }
        let parts = PathParts(target)
        Self.removeStaleTemporaries(of: parts.name, in: parts.openableFolder)
        temporaryPath = parts.sibling(Self.temporaryStem(of: parts.name) + "\(getpid())-" + String(UInt32.random(in: .min ... .max), radix: 16))
        var existing = stat()
        let mode = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o666
        // Registered before it exists, so that a signal from the moment open(2) creates it removes
        // it (helper-42: one that came before the registration left the empty file behind).
        let temporaries = ([""] + Self.sideFileSuffixes).map { [temporaryPath] in temporaryPath + $0 }
        for file in temporaries { TemporaryFiles.register(file) }
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            for file in temporaries { TemporaryFiles.unregister(file) }
            throw LogbookError.cannotWrite(path: path, reason: "cannot create a file in \(parts.openableFolder): " + reason)
        }
        // open(2) applied the umask; an existing file's permissions are kept exactly, and its owner
        // and group where this user may give them (root may; others may keep a group they are in),
        // so that a job run as root does not leave a user's file owned by root. Owner first:
        // chown(2) clears the set-user-ID and set-group-ID bits.
        if stat(target, &existing) == 0 {
            if fchown(descriptor, existing.st_uid, existing.st_gid) != 0 { _ = fchown(descriptor, uid_t.max, existing.st_gid) }
            fchmod(descriptor, mode_t(mode))
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Appends `data` to the temporary file. A short write (full disk, file size limit) throws.
    public func write(_ data: Data) throws {
        try FileOutput(descriptor: descriptor, path: path).write(data)
    }

    /// Makes the temporary file durable and renames it over the target.
    public func commit() throws {
        do {
            if descriptor >= 0 {
                guard fsync(descriptor) == 0 else { throw LogbookError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
                let closed = close(descriptor)
                descriptor = -1
                guard closed == 0 else { throw LogbookError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            }
            // rename(2) replaces the target atomically: readers see the old file or the whole new one.
            guard rename(temporaryPath, target) == 0 else {
                throw LogbookError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            discard()
            throw error
        }
        TemporaryFiles.unregister(temporaryPath)
        Self.removeSideFiles(of: temporaryPath)
        Self.syncFolder(of: target)
    }

    /// Removes the temporary file (and any file SQLite made beside it); the target is untouched.
    public func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
        Self.removeSideFiles(of: temporaryPath)
    }

    /// Closes the temporary file without committing, for a writer that reopens it by path (SQLite's backup).
    public func closeForExternalWriter() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    // MARK: Paths

    private static let marker = ".logbook-tmp-"

    /// Whether `path` must be written in place rather than replaced: it is `-`, a FIFO, a device or
    /// a socket, or it is, or its links lead to, a name in `/dev` itself or anywhere in `/proc`
    /// (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`), folders followed to where they are. A
    /// folder below `/dev`, such as the file system `/dev/shm`, holds plain files, which are
    /// replaced whole (they were written in place, so a failed export left one cut short, and
    /// a backup there was refused: helper-76).
    public static func writesInPlace(_ path: String) -> Bool {
        var status = stat()
        if stat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG && status.st_mode & S_IFMT != S_IFDIR {
            return true
        }
        var current = path
        for _ in 0..<40 {
            let folder = DatabaseFiles.resolvedPath(PathParts(current).openableFolder)
            // (`/dev/fd` is a folder of its own on macOS, a link to `/proc/self/fd` on Linux.)
            if folder == "/dev" || folder == "/dev/fd" || folder == "/proc" || folder.hasPrefix("/proc/") { return true }
            guard let next = try? SymbolicLink.destination(of: current) else { return false }
            current = next
        }
        return false
    }

    /// How the names of `name`'s temporaries begin: `.NAME.logbook-tmp-`, the name cut (between
    /// two scalars) so that a temporary's name, with its process id, random part and a side
    /// file's suffix, stays within the 255 bytes a file name may have (`-o` refused every name of
    /// 228 bytes or more as "File name too long": helper-76).
    private static func temporaryStem(of name: String) -> String {
        // The dot, the marker, a process id of up to 10 digits, "-", 8 hex digits, a side file's suffix.
        let room = 255 - 1 - marker.utf8.count - 10 - 1 - 8 - (sideFileSuffixes.map(\.utf8.count).max() ?? 0)
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in name.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= room else { break }
            kept.append(scalar)
        }
        return "." + String(kept) + marker
    }

    /// Removes temporaries of `name` in `folder` whose writing process is gone (killed mid-write).
    private static func removeStaleTemporaries(of name: String, in folder: String) {
        let prefix = temporaryStem(of: name)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }), pid != getpid(),
                  kill(pid, 0) != 0 && errno == ESRCH else { continue }
            unlink(folder + "/" + entry)
        }
    }

    private static func removeSideFiles(of path: String) {
        for suffix in sideFileSuffixes {
            unlink(path + suffix)
            TemporaryFiles.unregister(path + suffix)
        }
    }

    /// Flushes the folder's entry for a renamed file to disk.
    private static func syncFolder(of path: String) {
        let descriptor = open(PathParts(path).openableFolder, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
