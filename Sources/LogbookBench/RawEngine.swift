import CSQLite
import Foundation
import Logbook
import SQLiteQuery

/// The baseline: what a careful C programmer writes against the SQLite C API for the same work.
/// Same file layout (the migrations' SQL), same pragmas, prepared statements reused, values bound,
/// one transaction for writes, children read with one ordered join, rows grouped by their integer
/// key. Ids and days are written and read with the same codecs Logbook uses (SQLiteQuery's
/// `SQLiteValue` conformances of `UUID` and `CalendarDay`, which format on the stack), not
/// Foundation's `uuidString` and `UUID(uuidString:)` (`sprintf` and `sscanf`, 6,000 instructions
/// an id): the ratios measure what Logbook adds, not a slow formatter in the baseline.
final class RawEngine {
    private let db: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) {
        var handle: OpaquePointer?
        sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        db = handle!
        sqlite3_busy_timeout(db, 5_000)
        exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -2048; PRAGMA mmap_size = 0")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    func createSchema() {
        for file in Schema.migrationFiles { exec(file.sql) }
    }

    func exec(_ sql: String) {
        if sqlite3_exec(db, sql, nil, nil, nil) != SQLITE_OK {
            fatalError("raw engine: \(String(cString: sqlite3_errmsg(db))) in \(sql)")
        }
    }

    /// Runs `sql`, one statement without results, from the statement cache: the transaction
    /// around each read, prepared once as Logbook's are (`exec` would parse it on every call).
    private func run(_ sql: String) {
        let statement = statement(sql)
        _ = step(statement)
        sqlite3_reset(statement)
    }

    private func statement(_ sql: String) -> OpaquePointer {
        if let statement = statements[sql] {
            sqlite3_reset(statement)
            return statement
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            fatalError("raw engine: \(String(cString: sqlite3_errmsg(db))) in \(sql)")
        }
        statements[sql] = statement
        return statement
    }

    private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = sqlite3_bind_text(statement, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                  Int32(bytes.count), transient)
        }
    }

    private func bind(_ statement: OpaquePointer, _ index: Int32, _ value: some SQLiteValue) {
        _ = value.bind(to: statement, at: index)
    }

    private func read<Value: SQLiteValue>(_ statement: OpaquePointer, _ column: Int32, as type: Value.Type = Value.self) -> Value {
        do { return try Value.read(from: statement, at: column) } catch { fatalError("raw engine: \(error)") }
    }

    private func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        String(decoding: UnsafeBufferPointer(start: sqlite3_column_text(statement, column),
                                             count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }

    private func step(_ statement: OpaquePointer) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: fatalError("raw engine: \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    // MARK: Workloads

    /// Inserts `days` in one transaction, with the page cache Logbook gives a bulk write
    /// (`Connection.Options.bulkWriteCacheSizeKiB`) when there are more than
    /// `HistoryRepository.bulkSaveThreshold`, as `HistoryRepository.save` and imports do.
    func insert(_ days: [ExerciseDay]) {
        guard days.count > HistoryRepository.bulkSaveThreshold else { return insertInOneTransaction(days) }
        let options = Connection.Options()
        exec("PRAGMA cache_size = -\(options.bulkWriteCacheSizeKiB)")
        defer { exec("PRAGMA cache_size = -\(options.cacheSizeKiB)") }
        insertInOneTransaction(days)
    }

    private func insertInOneTransaction(_ days: [ExerciseDay]) {
        run("BEGIN IMMEDIATE")
        insertRows(of: days)
        run("COMMIT")
    }

    /// Inserts the days of `pieces` in one transaction, with the page cache of a bulk write, as an
    /// import of a history that large does; returns the seconds spent in SQLite (making each piece
    /// is not counted) through the commit and its checkpoint. For the scale curve, whose
    /// histories are too large to hold in memory at once.
    func bulkInsert(_ pieces: some Sequence<[ExerciseDay]>) -> Double {
        exec("PRAGMA cache_size = -\(Connection.Options().bulkWriteCacheSizeKiB)")
        var time = seconds { run("BEGIN IMMEDIATE") }
        for days in pieces { time += seconds { insertRows(of: days) } }
        return time + seconds { run("COMMIT") }
    }

    /// The rows of `days`, one statement a row, in the open transaction.
    private func insertRows(of days: [ExerciseDay]) {
        let insertDay = statement("INSERT INTO exercise_days (id, day, date) VALUES (?, ?, ?)")
        let insertName = statement("INSERT INTO exercises (day_pk, position, name, name_key) VALUES (?, ?, ?, ?)")
        for day in days {
            sqlite3_reset(insertDay)
            bind(insertDay, 1, day.id)
            bind(insertDay, 2, day.day)
            sqlite3_bind_double(insertDay, 3, day.date.timeIntervalSinceReferenceDate)
            _ = step(insertDay)
            let key = sqlite3_last_insert_rowid(db)
            for (offset, name) in day.exercises.enumerated() {
                sqlite3_reset(insertName)
                sqlite3_bind_int64(insertName, 1, key)
                sqlite3_bind_int64(insertName, 2, Int64(offset + 1))
                bindText(insertName, 3, name)
                bindText(insertName, 4, name.comparisonKey)
                _ = step(insertName)
            }
        }
    }

    /// Days in `from...to` (all when nil) with their exercises, by day, from one ordered join.
    func days(from: CalendarDay?, to: CalendarDay?) -> [ExerciseDay] {
        let sql = """
            SELECT d.pk, d.id, d.day, d.date, e.name FROM exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
            WHERE d.day BETWEEN ? AND ? ORDER BY d.day, e.position
            """
        let select = statement(sql)
        if let from { bind(select, 1, from) } else { bindText(select, 1, "0000") }
        if let to { bind(select, 2, to) } else { bindText(select, 2, "9999") }
        run("BEGIN")
        var result: [ExerciseDay] = []
        var currentDay: Int64 = 0
        while step(select) {
            let key = sqlite3_column_int64(select, 0)
            if key != currentDay || result.isEmpty {
                currentDay = key
                result.append(ExerciseDay(id: read(select, 1), date: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 3)),
                                          day: read(select, 2), exercises: []))
            }
            result[result.count - 1].exercises.append(text(select, 4))
        }
        sqlite3_reset(select)
        run("COMMIT")
        return result
    }

    /// Days in `from...to` on which `name` was done.
    func countDays(with name: String, from: CalendarDay, to: CalendarDay) -> Int {
        let count = statement("""
            SELECT count(*) FROM exercise_days AS d
            WHERE d.day BETWEEN ? AND ? AND EXISTS (SELECT 1 FROM exercises AS e WHERE e.day_pk = d.pk AND e.name_key = ?)
            """)
        bind(count, 1, from)
        bind(count, 2, to)
        bindText(count, 3, name.comparisonKey)
        _ = step(count)
        let result = Int(sqlite3_column_int64(count, 0))
        sqlite3_reset(count)
        return result
    }

    func insertDrafts(_ drafts: [ReleaseDraft]) {
        exec("BEGIN IMMEDIATE")
        let insertDraft = statement("""
            INSERT INTO drafts (id, version, version_key, whats_new, submitted_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        let insertItem = statement("INSERT INTO checklist_items (draft_pk, position, id, title, is_done) VALUES (?, ?, ?, ?, ?)")
        for draft in drafts {
            sqlite3_reset(insertDraft)
            bind(insertDraft, 1, draft.id)
            bindText(insertDraft, 2, draft.version)
            bindText(insertDraft, 3, draft.version.comparisonKey)
            bindText(insertDraft, 4, draft.whatsNew)
            if let submitted = draft.submittedAt {
                sqlite3_bind_double(insertDraft, 5, submitted.timeIntervalSinceReferenceDate)
            } else {
                sqlite3_bind_null(insertDraft, 5)
            }
            sqlite3_bind_double(insertDraft, 6, draft.createdAt.timeIntervalSinceReferenceDate)
            sqlite3_bind_double(insertDraft, 7, draft.updatedAt.timeIntervalSinceReferenceDate)
            _ = step(insertDraft)
            let key = sqlite3_last_insert_rowid(db)
            for (offset, item) in draft.checklist.enumerated() {
                sqlite3_reset(insertItem)
                sqlite3_bind_int64(insertItem, 1, key)
                sqlite3_bind_int64(insertItem, 2, Int64(offset + 1))
                bind(insertItem, 3, item.id)
                bindText(insertItem, 4, item.title)
                sqlite3_bind_int64(insertItem, 5, item.isDone ? 1 : 0)
                _ = step(insertItem)
            }
        }
        exec("COMMIT")
    }

    /// Unsubmitted drafts whose version starts with `prefix` and that have at least
    /// `minimumItems` items, last updated first then by version, 20 at most, with their
    /// checklists: the page is chosen in a subquery and joined to its items in one ordered pass.
    func openDrafts(prefix: String, minimumItems: Int) -> [ReleaseDraft] {
        let select = statement("""
            SELECT d.pk, d.id, d.version, d.whats_new, d.submitted_at, d.created_at, d.updated_at, c.id, c.title, c.is_done
            FROM (SELECT pk, id, version, version_key, whats_new, submitted_at, created_at, updated_at FROM drafts
                  WHERE submitted_at IS NULL AND swift_starts_with(version, ?)
                    AND (SELECT count(*) FROM checklist_items AS i WHERE i.draft_pk = drafts.pk) >= ?
                  ORDER BY updated_at DESC, version_key, id LIMIT 20) AS d
            LEFT JOIN checklist_items AS c ON c.draft_pk = d.pk
            ORDER BY d.updated_at DESC, d.version_key, d.id, c.position
            """)
        bindText(select, 1, prefix)
        sqlite3_bind_int64(select, 2, Int64(minimumItems))
        var drafts: [ReleaseDraft] = []
        var currentDraft: Int64 = 0
        while step(select) {
            let key = sqlite3_column_int64(select, 0)
            if key != currentDraft || drafts.isEmpty {
                currentDraft = key
                let submitted = sqlite3_column_type(select, 4) == SQLITE_NULL ? nil
                    : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 4))
                drafts.append(ReleaseDraft(id: read(select, 1), version: text(select, 2), whatsNew: text(select, 3),
                                           checklist: [], submittedAt: submitted,
                                           createdAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 5)),
                                           updatedAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 6))))
            }
            if sqlite3_column_type(select, 7) != SQLITE_NULL {
                drafts[drafts.count - 1].checklist.append(ChecklistItem(id: read(select, 7), title: text(select, 8),
                                                                        isDone: sqlite3_column_int64(select, 9) == 1))
            }
        }
        sqlite3_reset(select)
        return drafts
    }

    /// Registers `swift_starts_with` as the same Swift function Logbook's connections use, so both
    /// engines run the same SQL.
    func registerStartsWith() {
        sqlite3_create_function_v2(db, "swift_starts_with", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let a = sqlite3_value_text(arguments[0]), let b = sqlite3_value_text(arguments[1]) else {
                sqlite3_result_null(context)
                return
            }
            let text = String(cString: a), prefix = String(cString: b)
            sqlite3_result_int(context, text.starts(with: prefix) ? 1 : 0)
        }, nil, nil, nil)
    }

    func analyze() { exec("PRAGMA analysis_limit = 1000; ANALYZE") }
}
