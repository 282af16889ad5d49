import Foundation
import XCTest
@testable import Logbook

final class SchemaTests: XCTestCase {
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
}
