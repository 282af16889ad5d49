import Foundation
import Logbook

/// Standard input, where `-` names it (`import -`, `--whats-new -`).
enum StandardInput {
    /// The handle to read stdin from. Throws when the process started with stdin closed, which
    /// would otherwise read as an empty file, taken for what the caller meant. `what` names the
    /// argument in the error (`--whats-new -`).
    static func handle(for what: String) throws -> FileHandle {
        guard !StandardDescriptors.wasClosed(STDIN_FILENO) else {
            throw CommandFailure("\(what): standard input is closed")
        }
        return FileHandle.standardInput
    }

    /// Every byte of stdin. A stdin that cannot be read (a folder, a descriptor open only for
    /// writing) is an error naming `what` and the system's reason.
    static func readAll(for what: String) throws -> Data {
        do {
            return try ByteStream(handle: try handle(for: what)).readAll(limit: .max) ?? Data()
        } catch let failure as ByteStream.ReadFailure {
            throw CommandFailure("\(what): cannot read standard input: \(failure.reason)")
        }
    }
}
