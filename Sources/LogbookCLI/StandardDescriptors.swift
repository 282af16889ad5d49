import Foundation
import Logbook
import SQLiteQuery

/// Which of stdin, stdout and stderr the process started without (`>&-`, `<&-`). Each is opened
/// on `/dev/null` at once, so that no file the tool opens later takes its number: `-o`'s file
/// would receive what is printed, and SQLite, which refuses numbers 0 to 2 for a database, puts
/// `/dev/null` there itself, after which a closed stdin would read as empty text. What was
/// closed is remembered: printing to a closed stdout is an error, and reading a closed stdin.
enum StandardDescriptors {
    nonisolated(unsafe) private static var closedAtStart: Set<Int32> = []

    /// Fills the closed ones; the first thing the tool does.
    static func reserveClosedOnes() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            closedAtStart.insert(descriptor)
            // `open` takes the lowest free number, which this one is: the ones below it are open.
            _ = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
        }
    }

    /// Whether `descriptor` was closed when the process started.
    static func wasClosed(_ descriptor: Int32) -> Bool { closedAtStart.contains(descriptor) }

    /// Whether `path` names one of the descriptors closed at start (`/dev/stdout`, `/dev/fd/1`,
    /// `/proc/self/fd/1`), which now opens `/dev/null`: writing there would lose the output in
    /// silence, and reading it would read nothing, where the caller meant the closed stream.
    static func isClosedAtStart(_ path: String) -> Bool {
        descriptor(namedBy: path).map(wasClosed) ?? false
    }

    /// The descriptor of this process that `path` names (`/dev/stdout`: 1, `/dev/fd/3`: 3,
    /// `/proc/self/fd/1`: 1), also through symbolic links to such a path and folders that lead to
    /// `/dev` or `/proc`, or nil for any other path. Writing to the descriptor itself keeps what
    /// the shell opened it with (`>>` appends); opening the path again would start at the file's
    /// first byte. Links are followed one at a time, stopping at the first spelling of a
    /// descriptor (following `/dev/stdout` to its end, as Foundation's `standardizingPath` does,
    /// would reach the file it is open on instead).
    static func descriptor(namedBy given: String) -> Int32? {
        var path = given
        for _ in 0..<40 {
            if let descriptor = spelledDescriptor(path) ?? resolvedFolder(of: path).flatMap(spelledDescriptor) { return descriptor }
            guard let next = try? SymbolicLink.destination(of: path) else { return nil }
            path = next
        }
        return nil
    }

    /// The descriptor `path` spells (`/dev/./stdout` and `//dev/stdout` count), or nil.
    private static func spelledDescriptor(_ given: String) -> Int32? {
        let path = given.begins(with: "/") ? "/" + given.split(atEvery: "/").filter { !$0.isEmpty && $0 != "." }.joined(separator: "/") : given
        return switch path {
        case "/dev/stdin": STDIN_FILENO
        case "/dev/stdout": STDOUT_FILENO
        case "/dev/stderr": STDERR_FILENO
        default: ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(getpid())/fd/"].lazy
            .compactMap { path.hasPrefix($0) ? Int32(path.dropFirst($0.count)) : nil }.first
        }
    }

    /// `path` with its folder resolved to the folder it is (`../dev/stdout` from `/tmp`:
    /// `/dev/stdout`), its last name kept; nil when the folder cannot be resolved.
    private static func resolvedFolder(of path: String) -> String? {
        let parts = PathParts(path)
        guard let resolved = realpath(parts.openableFolder, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + parts.name
    }
}
