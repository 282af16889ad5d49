import Foundation

/// The zones of the tz database, as the C library reads `$TZ` (and `date` shows): a name is one
/// when it names a file in `$TZDIR`, else `/usr/share/zoneinfo`.
///
/// Foundation takes more names than that: abbreviations (`BST`, `IST`, `PST`, `JST`), each used by
/// several zones, which it reads as one of them (`BST` as Asia/Dhaka, 6 hours ahead, where a
/// British user means London and `date` reads UTC), and offsets (`GMT+3`). A day computed in such
/// a zone is stored for good on a day other programs in the same shell disagree with, so these
/// names are refused.
enum TimeZoneDatabase {
    /// Whether `name` is a zone of the tz database; true for every name when there is no database
    /// folder to ask (Foundation's reading is the only one then).
    static func holds(_ name: String, environment: [String: String]) -> Bool {
        let folder = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return true }
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { return false }
        return stat(folder + "/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
