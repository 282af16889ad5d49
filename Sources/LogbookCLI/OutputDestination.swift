import Foundation
import Logbook
import SQLiteQuery

/// Where `-o FILE` sends a command's data. A regular file (or a path not yet there) is replaced
/// whole through ``FileReplacement``: a temporary file beside it, renamed over it once complete,
/// symbolic links followed so the link's target is replaced. FIFOs, devices and `/dev/…` paths
/// (`/dev/stdout`, `/dev/null`) are written in place; `-` or no `-o` is stdout. Every write is
/// checked: a full disk or a size limit is an error, and the target is left as it was. The
/// database being read, or one of its side files, is never a destination.
enum OutputDestination {
    /// Runs `body` with a sink for the output, then completes the file. Refuses a `path` that is
    /// one of `database`'s files before anything is written.
    static func write(to path: String?, protecting database: String,
                      _ body: (@escaping (Data) throws -> Void) throws -> Void) throws {
        guard let path, path != "-" else {
            try body { try Console.write($0) }
            return
        }
        if StandardDescriptors.isClosedAtStart(path) {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(EBADF))) (it was closed when logbook started)")
        }
        try refuse(path, protecting: database)
        if FileReplacement.writesInPlace(path) {
            try writeInPlace(path, body)
            return
        }
        // The temporary file is made with the first 64 KiB, or at the end: a command that fails
        // before it has written that much (a database it cannot open) leaves no trace.
        var replacement: FileReplacement?
        var buffer = Data()
        do {
            try body { data in
                buffer.append(data)
                if buffer.count >= 1 << 16 {
                    if replacement == nil { replacement = try FileReplacement(replacing: path) }
                    try replacement?.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            let complete = try replacement ?? FileReplacement(replacing: path)
            replacement = complete
            try complete.write(buffer)
            try complete.commit()
        } catch {
            replacement?.discard()
            throw error
        }
    }

    /// Refuses, before any work, a `path` that ``write(to:protecting:_:)`` would refuse or could
    /// not make: for a command that writes a file only once its work is done (`changes --state`
    /// wrote the whole feed, then failed for a folder that was not there; helper-99).
    static func refuseBeforeWork(_ path: String, protecting database: String) throws {
        try refuse(path, protecting: database)
        // Beside the file a link leads to, where the replacement is made.
        let folder = URL(fileURLWithPath: (try? SymbolicLink.finalTarget(of: path)) ?? path).deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw CommandFailure("cannot write \(path): there is no folder \(folder)")
        }
        // The file is replaced through a temporary file beside it (one in place needs no folder: a device).
        if !FileReplacement.writesInPlace(path) && access(folder, W_OK | X_OK) != 0 {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno))) (the folder \(folder))")
        }
    }

    /// Refuses `path` when it is `database` or one of its side files (by any path or link), a
    /// folder, or a regular file that is an SQLite database.
    private static func refuse(_ path: String, protecting database: String) throws {
        if DatabaseFiles(of: database).contains(path) {
            throw CommandFailure("cannot write \(path): it is the database \(database) (or one of its files); give another file name")
        }
        var status = stat()
        if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
            throw CommandFailure("cannot write \(path): it is a folder; give a file name")
        }
        // Another logbook, or any SQLite database, is not replaced by an export (`-o other.sqlite`
        // replaced one with JSON, exit 0: helper-94).
        if !FileReplacement.writesInPlace(path) && isSQLiteDatabase(path) {
            throw CommandFailure("cannot write \(path): it is an SQLite database, which no command's output replaces; give another "
                                    + "file name, or remove it first ('logbook backup' copies a logbook)")
        }
    }

    /// Whether `path` (its links followed) is a regular file that begins with SQLite's header.
    private static func isSQLiteDatabase(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: Connection.fileHeaderMagic.count)).map(Array.init) == Connection.fileHeaderMagic
    }

    private static func writeInPlace(_ path: String, _ body: (@escaping (Data) throws -> Void) throws -> Void) throws {
        // A descriptor the process was given (`-o /dev/stdout >> log`) is written where and as
        // the shell opened it; opened again, a file would be written from its first byte.
        let inherited = StandardDescriptors.descriptor(namedBy: path).map { fcntl($0, F_DUPFD_CLOEXEC, 0) } ?? -1
        let descriptor = inherited >= 0 ? inherited : open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw LogbookError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let output = FileOutput(descriptor: descriptor, path: path)
        try body { data in
            do {
                try output.write(data)
            } catch where readerHasGone(descriptor) {
                // A pipe whose reader went away (`-o /dev/stdout | head`) stops quietly, as stdout
                // does (it was an error, exit 1: helper-76).
                throw OutputFailure(code: EPIPE)
            }
        }
    }

    /// Whether `descriptor` is a pipe or socket whose reading end has been closed.
    private static func readerHasGone(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0, [S_IFIFO, S_IFSOCK].contains(status.st_mode & S_IFMT) else { return false }
        var events = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&events, 1, 0) == 1 && events.revents & Int16(POLLERR | POLLHUP) != 0
    }
}
