import CSQLite
import Foundation

/// The floor under the reports that print a row per day or per week: SQLite alone stepping the
/// rows they read (every day's totals, every week's), each column read through the C API into a
/// checksum, in a read-only connection of its own. `logbook-bench --reports` and `--scale` print
/// it beside the library's reports, so their ratio to SQLite's own work is measured, not guessed.
enum RawTotalsScan {
    /// The scans timed, by the report whose rows each reads.
    static let scans: [(name: String, sql: String)] = [
        ("raw day", "SELECT day, exercises, distinct_exercises, top_exercise FROM exercise_day_totals ORDER BY day"),
        ("raw week", """
            SELECT start, active_days, exercises, distinct_exercises, top_exercise FROM exercise_period_totals
            WHERE period = 'week' ORDER BY start
            """),
    ]

    /// Seconds to step every row of `sql` in the database at `path`, reading every value as a
    /// report does: an integer as an integer, a text as its bytes.
    static func time(_ sql: String, in path: String) -> Double {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            fatalError("cannot open \(path)")
        }
        defer { sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            fatalError(String(cString: sqlite3_errmsg(database)))
        }
        defer { sqlite3_finalize(statement) }
        return seconds {
            while sqlite3_step(statement) == SQLITE_ROW {
                for column in 0..<sqlite3_column_count(statement) {
                    if sqlite3_column_type(statement, column) == SQLITE_INTEGER {
                        _ = sqlite3_column_int64(statement, column)
                    } else {
                        _ = sqlite3_column_text(statement, column)
                        _ = sqlite3_column_bytes(statement, column)
                    }
                }
            }
        }
    }
}
