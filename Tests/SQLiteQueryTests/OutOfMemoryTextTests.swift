import CSQLite
import Foundation
import LogbookTestSupport
import XCTest
@testable import SQLiteQuery

/// Text that SQLite cannot hand over for lack of memory is an error, never empty text in its
/// place. In a UTF-16 file every text a reader or an SQL function asks for as UTF-8 is converted,
/// which allocates; `sqlite3_hard_heap_limit64` makes those allocations fail. Each read or call
/// runs under a sweep of limits just above the memory in use, and must give what the same read gives
/// without a limit, or fail with `SQLITE_NOMEM`; each reader and each function must meet the failure
/// (positive control), a function at a limit where the same row read without it steps.
/// (What it gives without a limit is SQLite's conversion: writing into a UTF-16 file, SQLite turns
/// U+FFFE and U+FFFF into U+FFFD, which is why Logbook refuses such files; see `LogbookTests`.)
final class OutOfMemoryTextTests: XCTestCase {
    /// Adversarial texts (empty, NUL, NFC/NFD twins, every plane) stored in a UTF-16 file.
    /// Returns the connection and each row's text as read without a limit.
    private func makeUTF16Table(seed: UInt64) throws -> (Connection, texts: [String]) {
        let path = try makeDatabasePath()
        var handle: OpaquePointer?
        XCTAssertEqual(sqlite3_open(path, &handle), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(handle, "PRAGMA encoding = 'UTF-16le'; CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT)", nil, nil, nil),
                       SQLITE_OK)
        sqlite3_close(handle)
        var random = SplitMix64(seed: seed)
        let texts = [""] + (0..<40).map { _ in AdversarialText.string(using: &random, nonEmpty: true) }
        let connection = try Connection(path: path)
        XCTAssertEqual(try connection.scalar("PRAGMA encoding", as: String.self), "UTF-16le", "the file must be UTF-16 (seed \(seed))")
        let insert = try connection.prepare("INSERT INTO t (v) VALUES (?)")
        for text in texts {
            insert.reset()
            try insert.bind(text, at: 1)
            try insert.execute()
        }
        let stored = try connection.prepare("SELECT v FROM t ORDER BY n")
        var readBack: [String] = []
        while try stored.step() { readBack.append(try stored.column(0, as: String.self)) }
        XCTAssertEqual(readBack.count, texts.count)
        return (connection, readBack)
    }

    /// Runs `body` with SQLite's heap limited to what is in use now plus `headroom` bytes.
    private func withHeapLimit<Result>(headroom: Int64, _ body: () throws -> Result) rethrows -> Result {
        sqlite3_hard_heap_limit64(sqlite3_memory_used() + headroom)
        defer { sqlite3_hard_heap_limit64(0) }
        return try body()
    }

    /// The outcome of one read under a limit: the text, or the error's code.
    private enum Outcome: Equatable {
        case text(String)
        case failed(Int32)
    }

    private func outcome(_ body: () throws -> String) -> Outcome {
        do {
            return .text(try body())
        } catch let error as SQLiteError {
            return .failed(error.primaryCode)
        } catch {
            return .failed(-1)
        }
    }

    /// Every way a column's text is read (`String` through the statement and through its handle,
    /// `DatabaseValue`), each stepped to the row without a limit and read under one.
    func testColumnTextOutOfMemoryIsAnErrorNeverEmptyText() throws {
        let seed = PropertyTestSettings.seed("OUT_OF_MEMORY_TEXT_SEED", default: 0x4E4F_4D45_4D54_5854)
        let (connection, texts) = try makeUTF16Table(seed: seed)
        let readers: [(name: String, read: (Statement) throws -> String)] = [
            ("String from the statement", { try $0.column(0, as: String.self) }),
            ("String from its handle", { try String.read(from: $0.handle, at: 0) }),
            ("DatabaseValue", { statement in
                guard case .text(let text) = try statement.column(0, as: DatabaseValue.self) else { return "(not text)" }
                return text
            }),
        ]
        var failures = [Int](repeating: 0, count: readers.count)
        for (row, expected) in texts.enumerated() {
            for (index, reader) in readers.enumerated() {
                for headroom in stride(from: Int64(0), through: 2_048, by: 64) {
                    let statement = try connection.prepare("SELECT v FROM t WHERE n = ?")
                    try statement.bind(row + 1, at: 1)
                    XCTAssertTrue(try statement.step())
                    let result = withHeapLimit(headroom: headroom) { outcome { try reader.read(statement) } }
                    if result == .failed(SQLITE_NOMEM) { failures[index] += 1; continue }
                    XCTAssertEqual(result, .text(expected),
                                   "row \(row + 1) read as \(reader.name) with \(headroom) bytes to spare (seed \(seed))")
                }
            }
        }
        for (index, reader) in readers.enumerated() {
            XCTAssertGreaterThan(failures[index], 0, "no read as \(reader.name) ran out of memory: the test did not reach the failure (seed \(seed))")
        }
    }

    /// `swift_key` and a function registered with `createFunction` get their text arguments as
    /// UTF-8: when that conversion fails, the statement fails, never computing from empty text or
    /// handing the argument back as its own key.
    func testFunctionArgumentsOutOfMemoryFailTheStatement() throws {
        let seed = PropertyTestSettings.seed("OUT_OF_MEMORY_FUNCTION_SEED", default: 0x4E4F_4D45_4D46_554E)
        let (connection, texts) = try makeUTF16Table(seed: seed)
        try connection.createFunction("echo", argumentCount: 1) { $0[0] }
        let functions: [(sql: String, expected: (String) -> String)] = [
            ("SELECT swift_key(v) FROM t WHERE n = ?", { $0.comparisonKey }),
            ("SELECT echo(v) FROM t WHERE n = ?", { $0 }),
        ]
        /// The first column of the row `n = row` through `sql`, under a limit of `headroom` bytes.
        func step(_ sql: String, row: Int, headroom: Int64) throws -> Outcome {
            let statement = try connection.prepare(sql)
            try statement.bind(row, at: 1)
            defer { statement.reset() }
            return withHeapLimit(headroom: headroom) {
                outcome {
                    guard try statement.step() else { return "(no row)" }
                    return try statement.column(0, as: String.self)
                }
            }
        }
        var failuresInTheFunction = [Int](repeating: 0, count: functions.count)
        for (row, text) in texts.enumerated() {
            for (index, function) in functions.enumerated() {
                for headroom in stride(from: Int64(0), through: 4_096, by: 32) {
                    let result = try step(function.sql, row: row + 1, headroom: headroom)
                    if result == .failed(SQLITE_NOMEM) {
                        // The function's own failure when the row, read without it, steps at this limit.
                        if try step("SELECT v FROM t WHERE n = ?", row: row + 1, headroom: headroom) != .failed(SQLITE_NOMEM) {
                            failuresInTheFunction[index] += 1
                        }
                        continue
                    }
                    XCTAssertEqual(result, .text(function.expected(text)),
                                   "row \(row + 1), \(function.sql) with \(headroom) bytes to spare (seed \(seed))")
                }
            }
        }
        for (index, function) in functions.enumerated() {
            XCTAssertGreaterThan(failuresInTheFunction[index], 0,
                                 "\(function.sql) never ran out of memory where the plain read did not (seed \(seed))")
        }
    }
}
