import Foundation

/// A new, empty folder under the system's temporary directory, removed with everything in it when
/// the value is released: the scratch space of a test.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    /// Creates `$TMPDIR/<prefix>-<UUID>`.
    public init(_ prefix: String = "logbook") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` in the folder (not created).
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
