import Foundation
import SQLiteQuery

/// The zones of the tz database in `/usr/share/zoneinfo`, the folder Foundation reads its zones
/// from, and the C library (with `date`) reads `$TZ` from unless `$TZDIR` names another.
///
/// Foundation also takes names that are no zone there: abbreviations (`BST`, `IST`, `PST`, `JST`),
/// each used by several zones, which it reads as one of them (`BST` as Asia/Dhaka, 6 hours ahead,
/// where a British user means London and `date` reads UTC), and offsets (`GMT+3`). A day computed
/// in such a zone is stored for good on a day other programs in the same shell disagree with, so
/// these names are refused, and so is a `$TZ` whose zone `$TZDIR` defines otherwise.
enum TimeZoneDatabase {
    static let folder = "/usr/share/zoneinfo"

    /// Whether `name` is a zone of the tz database; true for every name when there is no database
    /// folder to ask (Foundation's reading is the only one then).
    static func holds(_ name: String) -> Bool {
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return true }
        return zoneFile(name, in: folder) != nil
    }

    /// The name of the zone whose file the absolute `path` is (`$TZ` may name one, as in
    /// `:/etc/localtime`), symbolic links followed, when that file lies in ``folder``: the C
    /// library reads such a `$TZ` from the file, and Foundation reads zones by name. Nil for a file
    /// elsewhere (a copy of a zone's file), whose zone has no name to give.
    static func name(ofZoneFileAt path: String) -> String? {
        guard let resolved = realPath(path), let base = realPath(folder), resolved.hasPrefix(base + "/") else { return nil }
        let name = outsidePosixFolder(String(resolved.dropFirst(base.count + 1)))
        return zoneFile(name, in: folder) != nil ? name : nil
    }

    /// `name` without a leading `posix/` when the database has that zone there: the folder holds
    /// the same zones again (links to them here, copies on some systems), which the C library and
    /// `date` read `TZ=posix/Europe/Paris` from and Foundation knows by their names alone. Where it
    /// has none (`date` then reads UTC), and for `right/`, with leap seconds, another reckoning,
    /// the name stays one Foundation does not know.
    static func outsidePosixFolder(_ name: String) -> String {
        let posix = "posix/".unicodeScalars
        guard name.unicodeScalars.starts(with: posix), zoneFile(name, in: folder) != nil else { return name }
        return String(name.unicodeScalars.dropFirst(posix.count))
    }

    /// `path` with every symbolic link followed, or nil when it names nothing.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder `$TZDIR` names when the C library would read zone `name` there otherwise than
    /// Foundation reads it from ``folder`` (another file, or none): `date` and Logbook would then
    /// file instants under different days.
    static func otherDefinition(of name: String, environment: [String: String]) -> String? {
        guard let other = environment["TZDIR"], !other.isEmpty, other != folder, other != folder + "/" else { return nil }
        let ours = zoneFile(name, in: folder).flatMap { FileManager.default.contents(atPath: $0) }
        let theirs = zoneFile(name, in: other).flatMap { FileManager.default.contents(atPath: $0) }
        return ours == theirs && ours != nil ? nil : other
    }

    /// The folder `$TZDIR` names when it holds a zone file called `name`, which the C library reads
    /// for `TZ=name` before it reads `name` as a POSIX rule (``PosixTimeZoneRule``), as Logbook does.
    static func tzdirFolder(holdingZoneFile name: String, environment: [String: String]) -> String? {
        guard let other = environment["TZDIR"], !other.isEmpty, zoneFile(name, in: other) != nil else { return nil }
        return other
    }

    /// The regular file of zone `name` in `folder`, or nil: a name that climbs out (`..`) or is a
    /// path of its own (`/…`) is none.
    private static func zoneFile(_ name: String, in folder: String) -> String? {
        guard !name.isEmpty, !name.begins(with: "/"), !name.split(atEvery: "/").contains("..") else { return nil }
        var status = stat()
        let path = folder + "/" + name
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG ? path : nil
    }
}
