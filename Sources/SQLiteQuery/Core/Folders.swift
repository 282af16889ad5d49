import Foundation

/// Folders made for a database file, as `mkdir -p` makes them.
enum Folders {
    /// Creates `folder` and every missing folder above it; throws the reason, naming the path the
    /// system refused and why in its words (`/data/report is not a folder`, `Permission denied`).
    static func create(_ folder: String) throws {
        var status = stat()
        if stat(folder, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw Refusal(reason: "\(folder) is not a folder") }
            return
        }
        // The folder above (`/` for one at the root, which is there), as ``PathParts`` splits it.
        let above = PathParts(folder).folder
        if !above.isEmpty { try create(above) }
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
            throw Refusal(reason: "\(folder): \(String(cString: strerror(errno)))")
        }
    }

    /// Why a folder could not be made.
    struct Refusal: Error {
        let reason: String
    }
}
