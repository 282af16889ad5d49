import Foundation
import Logbook
import SQLiteQuery

/// One run of a command: its parsed arguments, the environment, and the shared ways to reach the store.
struct Invocation {
    let arguments: ParsedArguments
    let environment: [String: String]

    /// `--db`, else `$LOGBOOK_DB`, else `$XDG_DATA_HOME/logbook/logbook.sqlite`
    /// (`~/.local/share/logbook/logbook.sqlite`).
    var databasePath: String {
        if let path = arguments.value("--db"), !path.isEmpty { return path }
        if let path = environment["LOGBOOK_DB"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/logbook/logbook.sqlite"
    }

    /// `--time-zone`, else `$TZ`, else the system's.
    func timeZone() throws -> TimeZone {
        if let name = arguments.value("--time-zone") {
            guard let zone = TimeZone(identifier: name) else {
                throw UsageError(message: "unknown time zone '\(name)' for '--time-zone <tz>' (use an IANA name such as Europe/Paris)",
                                 command: arguments.command)
            }
            return zone
        }
        if let name = environment["TZ"], !name.isEmpty {
            let identifier = name.hasPrefix(":") ? String(name.dropFirst()) : name
            guard let zone = TimeZone(identifier: identifier) else {
                throw CommandFailure("unknown time zone '\(name)' in $TZ (use an IANA name such as Europe/Paris)")
            }
            return zone
        }
        return TimeZone.current
    }

    /// Opens (creating and migrating) the database. `$LOGBOOK_CACHE_KIB` sets SQLite's page
    /// cache (default 2 MiB), the bound on the memory it holds for the file.
    func openStore() throws -> Logbook {
        var options = Connection.Options()
        if let text = environment["LOGBOOK_CACHE_KIB"] {
            guard let kib = Int(text), kib > 0 else {
                throw CommandFailure("invalid $LOGBOOK_CACHE_KIB '\(text)': expected a whole number of KiB")
            }
            options.cacheSizeKiB = kib
        }
        return try Logbook(path: databasePath, timeZone: try timeZone(), options: options)
    }

    /// Opens an existing database without changing it.
    func inspectStore() throws -> Logbook {
        try Logbook.inspect(path: databasePath, timeZone: try timeZone())
    }
}

/// A failure the CLI itself detects: one `logbook: error:` line, exit status 1.
struct CommandFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
