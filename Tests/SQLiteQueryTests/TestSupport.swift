import Foundation
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

// Helpers shared by every SQLiteQuery test file.

extension XCTestCase {
    /// A fresh, empty folder under the system's temporary directory, removed when the test ends.
    func makeTemporaryDirectory() throws -> URL {
        let folder = try TemporaryFolder("SQLiteQueryTests")
        // Removed here, not left to the folder's release: XCTest keeps teardown blocks (and what
        // they capture) until the process ends.
        addTeardownBlock { try? FileManager.default.removeItem(at: folder.url) }
        return folder.url
    }

    /// The path of a database file (not yet created) in a fresh temporary folder.
    func makeDatabasePath(_ fileName: String = "test.sqlite") throws -> String {
        try makeTemporaryDirectory().appendingPathComponent(fileName).path
    }

    /// A connection to a new database file in a fresh temporary folder.
    func makeConnection() throws -> Connection {
        try Connection(path: try makeDatabasePath())
    }

    /// Runs `body`, which must throw an error of type `E`, and returns that error.
    func assertThrows<E: Error, T>(_ errorType: E.Type, _ body: () throws -> T,
                                   file: StaticString = #filePath, line: UInt = #line) -> E? {
        do {
            let value = try body()
            XCTFail("expected \(E.self) to be thrown, got the value \(value)", file: file, line: line)
            return nil
        } catch let error as E {
            return error
        } catch {
            XCTFail("expected \(E.self), got \(type(of: error)): \(error)", file: file, line: line)
            return nil
        }
    }
}

extension Connection {
    /// Every row of the first column of `sql`, in order.
    func column<Value: SQLiteValue>(_ sql: String, as type: Value.Type = Value.self) throws -> [Value] {
        let statement = try prepare(sql)
        var values: [Value] = []
        while try statement.step() {
            values.append(try statement.column(0, as: Value.self))
        }
        return values
    }

    /// The names of the tables in the main schema, sorted.
    func tableNames() throws -> [String] {
        try column("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", as: String.self)
    }
}

/// The bytes of a file, or nil when it does not exist.
func fileBytes(atPath path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}
