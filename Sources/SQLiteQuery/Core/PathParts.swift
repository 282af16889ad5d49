/// A path's folder and last name, split at its last `/` (trailing slashes dropped), without
/// Foundation's `NSString` path methods: on Linux `deletingLastPathComponent` traps on a path of
/// one character, so `-o x`, `--db d` and `import e` crashed. Split at the last `/` scalar, as
/// the system splits it, with `String.split(atLast:)`: in `dir/\u{301}x` that `/` is one
/// `Character` with the mark.
package struct PathParts: Equatable {
    /// The folder: `""` for a bare name, `/` for a name at the root.
    package let folder: String
    /// The last name.
    package let name: String

    package init(_ path: String) {
        var path = path
        while path.unicodeScalars.count > 1, path.ends(with: "/") { path.unicodeScalars.removeLast() }
        guard let (before, after) = path.split(atLast: "/") else {
            (folder, name) = ("", path)
            return
        }
        (folder, name) = (before.isEmpty ? "/" : before, after)
    }

    /// The folder to open or list: `.` for a bare name.
    package var openableFolder: String { folder.isEmpty ? "." : folder }

    /// The path of `name` (a name, or a relative path) in the same folder.
    package func sibling(_ name: String) -> String {
        folder.isEmpty ? name : folder == "/" ? "/" + name : folder + "/" + name
    }
}
