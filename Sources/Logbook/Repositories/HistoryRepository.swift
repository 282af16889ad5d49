import Foundation
import SQLiteQuery

/// Exercise-day history: one record per calendar day, with the exercises done that day in order.
/// Each method is one transaction.
public struct HistoryRepository: Sendable {
    let database: Database
    let timeZone: TimeZone
    let now: @Sendable () -> Date
    var table: TableDescription<ExerciseDay> { Tables.exerciseDays }

    /// Records that `exercise` was done at `date`: appended to the record of that calendar day
    /// (in the store's time zone) if there is one, else a new record for the day. Returns the day.
    @discardableResult
    public func addDoneExercise(_ exercise: String, at date: Date? = nil) throws -> ExerciseDay {
        try addDoneExercises([exercise], at: date)
    }

    /// Records several exercises done at `date`, in order, in one transaction.
    @discardableResult
    public func addDoneExercises(_ exercises: [String], at date: Date? = nil) throws -> ExerciseDay {
        let date = date ?? now()
        try ExerciseDay.validate(exercises: exercises)
        let day = try CalendarDay.storable(date, in: timeZone)
        return try database.write { connection in
            if let key = try connection.scalar("SELECT pk FROM exercise_days WHERE day = ?", [day.databaseValue], as: Int64.self) {
                try Tables.add(exercises, at: date, to: day, dayKey: key, in: connection)
                try ExerciseTallies.recountStaleDays(in: connection)
                guard let merged = try table.fetchAll(where: "exercise_days.pk = ?", arguments: [.integer(key)], in: connection).first else {
                    throw RecordNotFound(table: table.name, identity: day.description)
                }
                return merged
            }
            let record = ExerciseDay(id: UUID(), date: date, day: day, exercises: exercises)
            var tallies = try ExerciseTallies(in: connection)
            try table.insert(record, in: connection)
            try tallies.addNewDay(record, in: connection)
            try tallies.apply(in: connection)
            return record
        }
    }

    /// The record of `day`, or nil.
    public func fetch(day: CalendarDay) throws -> ExerciseDay? {
        try database.read { try record(on: day, in: $0) }
    }

    /// The record of `day` in `connection`'s transaction, or nil.
    func record(on day: CalendarDay, in connection: Connection) throws -> ExerciseDay? {
        try table.fetchAll(where: "exercise_days.day = ?", arguments: [day.databaseValue], in: connection).first
    }

    /// The record of `day` in `connection`'s transaction; throws ``LogbookError/dayNotFound(_:)``.
    func existingRecord(on day: CalendarDay, in connection: Connection) throws -> ExerciseDay {
        guard let record = try record(on: day, in: connection) else { throw LogbookError.dayNotFound(day) }
        return record
    }

    /// The record with `id`, or nil. The id of an imported entry that was merged into another record of its
    /// day is not a record's id, and gives nil.
    public func fetch(id: UUID) throws -> ExerciseDay? {
        try database.read { try table.fetchOne(identity: id, in: $0) }
    }

    /// Every day, oldest first.
    public func fetchAll() throws -> [ExerciseDay] {
        try database.read { try table.fetchAll(orderBy: "exercise_days.day", in: $0) }
    }

    /// The number of day records stored (not of exercises).
    public func count() throws -> Int {
        try database.read { try table.count(in: $0) }
    }

    /// Deletes the record of `day` with its exercises; throws ``LogbookError/dayNotFound(_:)``.
    @discardableResult
    public func delete(day: CalendarDay) throws -> ExerciseDay {
        try database.write { connection in
            let record = try existingRecord(on: day, in: connection)
            try table.delete(identity: record.id, in: connection)
            try ExerciseTallies.recountStaleDays(in: connection)
            return record
        }
    }

    /// Stores whole day records as given (their day included), in one transaction: inserted, or
    /// replacing the record with the same id. Two records may not share a day: a record whose day
    /// another holds throws ``LogbookError/dayTaken(_:by:)``, and nothing is saved. A record whose
    /// id was merged into another day's record (`moveDay(_:to:dryRun:)`, an import's merge) is a
    /// record of its own again, as an import of it with `replace` makes it; the exercises it brought
    /// stay in the record it was merged into.
    ///
    /// A save of more than ``bulkSaveThreshold`` records (as the sequence's `underestimatedCount`
    /// tells, exact for an array) runs with the page cache of an import
    /// (`Connection.Options.bulkWriteCacheSizeKiB`).
    public func save(_ days: some Sequence<ExerciseDay>) throws {
        if days.underestimatedCount > Self.bulkSaveThreshold {
            try database.withBulkWriteCache { try saveInOneTransaction(days) }
        } else {
            try saveInOneTransaction(days)
        }
    }

    /// The number of records above which `save(_:)` raises the page cache for the transaction.
    public static let bulkSaveThreshold = 1_000

    private func saveInOneTransaction(_ days: some Sequence<ExerciseDay>) throws {
        try database.write { connection in
            // A replaced record is counted here too; the triggers mark its days stale, and the
            // recount of stale days in apply() supersedes the addition.
            var tallies = try ExerciseTallies(in: connection)
            let holdsAliases = try Tables.holdsAliases(in: connection)
            for day in days {
                try day.date.checkSupported(field: "date")
                try ExerciseDay.validate(exercises: day.exercises)
                if holdsAliases { try Tables.removeAlias(day.id, in: connection) }
                do {
                    try table.upsert(day, in: connection)
                } catch let error as SQLiteError where error.isUniqueConstraint {
                    // Another record holds the day (the id is the upsert's own conflict target).
                    let holder = try connection.scalar("SELECT id FROM exercise_days WHERE day = ?", [day.day.databaseValue],
                                                       as: UUID.self)
                    throw holder.map { LogbookError.dayTaken(day.day, by: $0) } ?? error
                }
                try tallies.addNewDay(day, in: connection)
            }
            try tallies.apply(in: connection)
        }
    }
}
