/// A path's folder and last name, split at its last `/` (trailing slashes dropped), without
/// Foundation's `NSString` path methods: on Linux `deletingLastPathComponent` traps on a path of
/// one character, so `-o x`, `--db d` and `import e` crashed.
package struct PathParts: Equatable {
    /// The folder: `""` for a bare name, `/` for a name at the root.
    package let folder: String
    /// The last name.
    package let name: String

    package init(_ path: String) {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else {
            (folder, name) = ("", String(path))
            return
        }
        folder = slash == path.startIndex ? "/" : String(path[..<slash])
        name = String(path[path.index(after: slash)...])
    }

    /// The folder to open or list: `.` for a bare name.
    package var openableFolder: String { folder.isEmpty ? "." : folder }

    /// The path of `name` (a name, or a relative path) in the same folder.
    package func sibling(_ name: String) -> String {
        folder.isEmpty ? name : folder == "/" ? "/" + name : folder + "/" + name
    }
}
