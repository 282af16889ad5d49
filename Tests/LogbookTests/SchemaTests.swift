import Foundation
import CSQLite
import XCTest
@testable import Logbook
import SQLiteQuery

final class SchemaTests: XCTestCase {
    /// The reference schema computed at build time (so that no process applies every migration in
    /// memory to check a file) is what applying the migrations gives with the SQLite linked now,
    /// and was computed with that same version, so every open here uses it.
    func testTheReferenceSchemaComputedAtBuildTimeIsWhatTheMigrationsCreate() throws {
        XCTAssertEqual(embeddedReferenceSchema.objects, try Schema.migrator().buildReferenceSchema())
        XCTAssertEqual(embeddedReferenceSchema.sqliteVersion, String(cString: sqlite3_libversion()))
        XCTAssertGreaterThan(embeddedReferenceSchema.objects.count, 20)
    }

    /// The binary carries exactly the files of `Migrations/`: the folder is the single source of truth.
    func testEmbeddedMigrationsAreTheMigrationsFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        XCTAssertEqual(Schema.migrationFiles.map(\.fileName), names)
        for file in Schema.migrationFiles {
            XCTAssertEqual(file.sql, try String(contentsOf: folder.appendingPathComponent(file.fileName), encoding: .utf8))
        }
        XCTAssertEqual(try Schema.migrator().latestVersion, names.count)
    }

    /// The checksums computed at build time are the SHA-256 of each embedded file, as a migration
    /// made from the folder's file computes it: a file edited after it was applied is still refused.
    func testEmbeddedChecksumsAreThoseOfTheFiles() throws {
        let migrations = try Schema.migrator().migrations
        XCTAssertEqual(migrations.count, embeddedMigrationFiles.count)
        for (migration, file) in zip(migrations, embeddedMigrationFiles) {
            XCTAssertEqual(migration.checksum, try Migration(fileName: file.fileName, sql: file.sql).checksum, file.fileName)
            XCTAssertEqual(migration.checksum.count, 64)
        }
    }
}
