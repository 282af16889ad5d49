import Foundation
import PackagePlugin

/// Compiles the package's `Migrations/*.sql` into the target that uses this plugin, as the
/// `embeddedMigrationFiles` constant, so the installed binary carries its schema from any directory.
@main
struct MigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Migrations")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding the migrations",
                executable: try context.tool(named: "MigrationsEmbedder").url,
                arguments: [output.path, folder.path],
                // The folder too: SwiftPM does not ask the plugin again when a file is added, but
                // the folder's change reruns the command, which lists the folder itself.
                inputFiles: [folder] + files,
                outputFiles: [output]
            )
        ]
    }
}
