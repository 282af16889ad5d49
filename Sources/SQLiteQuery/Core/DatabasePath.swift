import Foundation

/// The paths that name no database file whatever is on disk, because SQLite reads them otherwise
/// than the system does: refused by ``Connection/init(path:options:)`` (so by every way of opening
/// a store or writing a backup), and by the `logbook` tool, whose message names `--db`.
package enum DatabasePath {
    /// Why `path` cannot name a database file, nil when it can (`""` and `:memory:`, SQLite's
    /// temporary and in-memory databases, included):
    /// - a folder's path, ending in `/`, `/.` or `/..`, whether or not a folder is there: SQLite
    ///   made the file without the slash (`new.sqlite/` made `new.sqlite`), which the same path
    ///   then did not find;
    /// - `..` after a name that is no folder (nothing, or a file), which SQLite takes as "drop
    ///   that name" where the system finds no such path.
    package static func refusal(of path: String) -> String? {
        // At every `/` scalar, as the system reads the path (`String.split(atEvery:)`).
        let components = path.split(atEvery: "/")
        if path.ends(with: "/") || components.last == "." || components.last == ".." {
            return "a folder's path, not a database file's"
        }
        for (index, component) in components.enumerated() where component == ".." && index > 0 {
            let before = components[..<index].joined(separator: "/")
            var status = stat()
            guard before.isEmpty || (stat(before, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR) else {
                return "there is no folder \(before), so '..' after it names nothing"
            }
        }
        return nil
    }
}
