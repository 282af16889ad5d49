import Foundation

/// The sample files in `Tests/Fixtures`: the apps' formats, and a database written by Logbook 0.1.
public enum Fixtures {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    public static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// The project's README, for tests that keep a table or a block of it equal to the code.
    public static func readme() throws -> String {
        try String(contentsOf: folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"),
                   encoding: .utf8)
    }

    /// A copy of fixture `name` in a new temporary folder (so a database can be opened and
    /// migrated without touching the original); the caller removes the folder.
    public static func copy(_ name: String, as fileName: String? = nil) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent(fileName ?? name)
        try FileManager.default.copyItem(at: url(name), to: destination)
        return destination
    }
}
