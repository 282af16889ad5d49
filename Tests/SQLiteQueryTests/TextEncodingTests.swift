import CSQLite
import Foundation
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

/// A file another program made with `PRAGMA encoding = 'UTF-16…'`: SQLite converts each text
/// written to it, writing U+FFFE and U+FFFF as U+FFFD, and orders its text as UTF-16, so a
/// `Database` refuses it, changing nothing, except to inspect it, where `fileProblems()` names it.
final class TextEncodingTests: XCTestCase {
    private static let encodings = ["UTF-16le", "UTF-16be"]

    /// A file in `encoding` holding table `t` with `texts`, made through the C API as another
    /// program would.
    private func makeFile(encoding: String, texts: [String] = []) throws -> String {
        let path = try makeDatabasePath()
        var handle: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &handle), SQLITE_OK)
        defer { sqlite3_close(handle) }
        XCTAssertEqual(sqlite3_exec(handle, "PRAGMA encoding = '\(encoding)'; CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT)", nil, nil, nil),
                       SQLITE_OK)
        var insert: OpaquePointer?
        XCTAssertEqual(sqlite3_prepare_v2(handle, "INSERT INTO t (v) VALUES (?)", -1, &insert, nil), SQLITE_OK)
        defer { sqlite3_finalize(insert) }
        for text in texts {
            sqlite3_reset(insert)
            XCTAssertEqual(text.bind(to: insert!, at: 1), SQLITE_OK)
            XCTAssertEqual(sqlite3_step(insert), SQLITE_DONE)
        }
        return path
    }

    /// `t`'s texts in the order `sql` selects them.
    private func texts(_ path: String, _ sql: String = "SELECT v FROM t ORDER BY n") throws -> [String] {
        let read = try Connection(path: path).prepare(sql)
        var texts: [String] = []
        while try read.step() { texts.append(try read.column(0)) }
        return texts
    }

    /// Why such a file is refused: SQLite writes U+FFFE and U+FFFF into it as U+FFFD, and sorts
    /// its text by its UTF-16 bytes (U+FF61 after U+1F600 in both byte orders; by UTF-8 bytes, before).
    func testSQLiteChangesNoncharactersAndSortsByUTF16InAUTF16File() throws {
        for encoding in Self.encodings {
            let path = try makeFile(encoding: encoding, texts: ["a\u{FFFF}", "\u{FFFE}b", "\u{1F600}", "\u{FF61}"])
            XCTAssertEqual(try Connection(path: path).scalar("PRAGMA encoding", as: String.self), encoding)
            XCTAssertEqual(try texts(path), ["a\u{FFFD}", "\u{FFFD}b", "\u{1F600}", "\u{FF61}"], encoding)
            XCTAssertEqual(try texts(path, "SELECT v FROM t WHERE n > 2 ORDER BY v"), ["\u{1F600}", "\u{FF61}"], encoding)
            XCTAssertTrue(Array("\u{FF61}".utf8).lexicographicallyPrecedes(Array("\u{1F600}".utf8)), "UTF-8 sorts them the other way")
        }
    }

    /// Opening to migrate or to read throws `SQLITE_CANTOPEN` naming the encoding and the way to
    /// copy the file into UTF-8; the file, whatever its migration history, stays byte for byte as it
    /// was, with no `-wal` beside it. Opened to inspect, `fileProblems()` names the same.
    func testAUTF16FileIsRefusedUnlessInspectedAndChangesNothing() throws {
        let migrator = try Migrator(migrations: [Migration(version: 1, name: "notes", sql: "CREATE TABLE notes (body TEXT NOT NULL)")])
        let problem = { (encoding: String) in
            "it stores text as \(encoding), which SQLite neither keeps byte for byte (it writes U+FFFE and U+FFFF as U+FFFD) "
                + "nor orders by UTF-8 bytes; 'sqlite3 FILE .dump | sqlite3 NEW' copies it into a UTF-8 file"
        }
        for encoding in Self.encodings {
            let path = try makeFile(encoding: encoding)
            do {
                // Migrated by hand, as an earlier release's `init` did.
                let connection = try Connection(path: path)
                try connection.execute("DROP TABLE t")
                _ = try migrator.migrate(connection)
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for mode in [Database.OpenMode.migrate, .read] {
                let error = assertThrows(SQLiteError.self) { try Database(path: path, migrator: migrator, mode: mode) }
                XCTAssertEqual(error?.primaryCode, SQLITE_CANTOPEN, "\(encoding) \(mode)")
                XCTAssertEqual(error?.message, problem(encoding), "\(encoding) \(mode)")
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "\(encoding) \(mode)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"), "\(encoding) \(mode)")
            }
            let inspected = try Database(path: path, migrator: migrator, mode: .inspect)
            XCTAssertEqual(try inspected.withConnection { $0.fileProblems() }, [problem(encoding)], encoding)
        }
    }
}
