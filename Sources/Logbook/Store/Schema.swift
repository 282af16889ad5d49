import SQLiteQuery

/// The schema this version of Logbook knows: the migrations compiled from `Migrations/*.sql`.
public enum Schema {
    /// A migrator over every embedded migration file.
    public static func migrator() throws -> Migrator {
        try embeddedMigrator.get()
    }

    /// Built once: every store opened in the process shares it (and its checksums).
    private static let embeddedMigrator = Result<Migrator, any Error> {
        let migrator = try Migrator(migrations: embeddedMigrationFiles.map {
            try Migration(fileName: $0.fileName, sql: $0.sql, checksum: $0.checksum)
        })
        migrator.adoptReferenceSchema(embeddedReferenceSchema.objects, builtWithSQLite: embeddedReferenceSchema.sqliteVersion)
        return migrator
    }

    /// The embedded files, for tests that compare them with the `Migrations` folder.
    public static var migrationFiles: [(fileName: String, sql: String)] { embeddedMigrationFiles.map { ($0.fileName, $0.sql) } }
}
