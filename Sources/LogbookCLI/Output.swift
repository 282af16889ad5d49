import Foundation

/// Standard output, buffered (64 KiB) so that streaming a million rows costs few system calls.
/// Only the CLI prints, and only through ``Console``.
nonisolated(unsafe) private let standardOutput: UnsafeMutablePointer<FILE>? = {
    let stream = fdopen(STDOUT_FILENO, "w")
    if let stream { setvbuf(stream, nil, _IOFBF, 1 << 16) }
    return stream
}()

/// While set, what would go to stdout is gathered here instead (see ``Console/capture(_:)``).
nonisolated(unsafe) private var captured: String?

enum Console {
    /// Runs `body` and returns what it wrote to stdout instead of writing it.
    static func capture(_ body: () throws -> Void) throws -> String {
        captured = ""
        defer { captured = nil }
        try body()
        return captured ?? ""
    }

    /// Writes `text` to stdout.
    static func write(_ text: String) {
        if captured != nil {
            captured? += text
            return
        }
        var text = text
        text.withUTF8 { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, standardOutput) }
    }

    /// Writes bytes to stdout.
    static func write(_ data: Data) {
        data.withUnsafeBytes { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, standardOutput) }
    }

    /// Writes a line to stdout.
    static func print(_ line: String) { write(line + "\n") }

    /// Writes a line to stderr, at once, after whatever stdout holds.
    static func printError(_ line: String) {
        flush()
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func flush() {
        fflush(standardOutput)
    }

    /// Rewrites the current stderr line in place (for progress on a terminal).
    static func progress(_ text: String) {
        FileHandle.standardError.write(Data(("\r" + text + "\u{1B}[K").utf8))
    }

    /// Whether stderr is a terminal (progress lines go there only then).
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
