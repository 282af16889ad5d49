import Foundation
import GRDB
import Logbook

// GRDBComparison [COUNT]: COUNT days of five exercises saved one per transaction, by GRDB's
// records on Logbook's schema (the migrations' SQL, run as is) and by Logbook's `history.save`,
// in alternate blocks of 100 saves so that the machine's drift stretches both alike; then the
// same days in one transaction each. Prints each total and Logbook's time over GRDB's.

/// A day row as a GRDB record would map it.
struct DayRecord: Codable, PersistableRecord {
    static let databaseTableName = "exercise_days"
    var id: String
    var day: String
    var date: Double
}

/// An exercise row as a GRDB record would map it (the name key is NFC, as Logbook's).
struct ExerciseRecord: Codable, PersistableRecord {
    static let databaseTableName = "exercises"
    var day_pk: Int64
    var position: Int
    var name: String
    var name_key: String
}

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 2_000
let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../Migrations").standardized
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grdb-comparison-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let names = ["Push-up", "Squat", "Burpee", "Crunch", "Plank", "Lunge", "Pull-up", "Dip", "Row", "Sit-up"]
let days = (0..<count).map { offset in
    let day = CalendarDay(dayNumber: 20_000 + offset)!
    return ExerciseDay(date: Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400 + 3_600), day: day,
                       exercises: (0..<5).map { names[($0 * 7 + offset) % names.count] })
}

func grdbStore(_ name: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
    let queue = try DatabaseQueue(path: folder.appendingPathComponent(name).path, configuration: configuration)
    try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
        for file in try FileManager.default.contentsOfDirectory(atPath: migrations.path).filter({ $0.hasSuffix(".sql") }).sorted() {
            try db.execute(sql: String(contentsOf: migrations.appendingPathComponent(file), encoding: .utf8))
        }
    }
    return queue
}

func grdbInsert(_ day: ExerciseDay, _ db: GRDB.Database) throws {
    try DayRecord(id: day.id.uuidString, day: day.day.description, date: day.date.timeIntervalSinceReferenceDate).insert(db)
    let key = db.lastInsertedRowID
    for (offset, name) in day.exercises.enumerated() {
        try ExerciseRecord(day_pk: key, position: offset + 1, name: name, name_key: name.precomposedStringWithCanonicalMapping).insert(db)
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func report(_ workload: String, grdb: Double, logbook: Double) {
    print(workload.padding(toLength: 44, withPad: " ", startingAt: 0)
          + String(format: "GRDB %7.3f s   Logbook %7.3f s   Logbook/GRDB %5.2fx", grdb, logbook, logbook / grdb))
}

// Saves of one day each.
let grdbSingles = try grdbStore("grdb-singles.sqlite")
let logbookSingles = try Logbook(path: folder.appendingPathComponent("logbook-singles.sqlite").path)
var (grdbTime, logbookTime) = (0.0, 0.0)
for (index, first) in stride(from: 0, to: count, by: 100).enumerated() {
    let block = days[first..<min(first + 100, count)]
    let grdb = { for day in block { try grdbSingles.write { try grdbInsert(day, $0) } } }
    let logbook = { for day in block { try logbookSingles.history.save([day]) } }
    if index % 2 == 0 {
        grdbTime += try seconds(grdb)
        logbookTime += try seconds(logbook)
    } else {
        logbookTime += try seconds(logbook)
        grdbTime += try seconds(grdb)
    }
}
report("\(count) saves of one day each", grdb: grdbTime, logbook: logbookTime)

// The same days in one transaction.
let grdbBulk = try grdbStore("grdb-bulk.sqlite")
let logbookBulk = try Logbook(path: folder.appendingPathComponent("logbook-bulk.sqlite").path)
grdbTime = try seconds { try grdbBulk.write { db in for day in days { try grdbInsert(day, db) } } }
logbookTime = try seconds { try logbookBulk.history.save(days) }
report("\(count) days in one transaction", grdb: grdbTime, logbook: logbookTime)
