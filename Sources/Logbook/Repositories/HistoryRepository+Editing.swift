import Foundation
import SQLiteQuery

/// What an edit of the history changed, or for a dry run would change.
public struct HistoryEdit: Sendable, Equatable {
    /// Exercises removed, renamed or moved.
    public var exercises = 0
    /// The days whose records changed (a moved record's old and new day), in order.
    public var days: [CalendarDay] = []
    /// Days whose record went away: left without exercises, or moved onto another day's record.
    public var deletedDays: [CalendarDay] = []
    /// The exercises `removeExercises` removed (or would remove), in the record's order.
    public var removedExercises: [String] = []
}

/// Fixing mistakes: removing an exercise from a day, renaming an exercise across the history,
/// moving a day's record to another day. Each is one transaction; with `dryRun` it is checked and
/// counted, then rolled back, and nothing is written.
extension HistoryRepository {
    /// Removes from `day`'s record the exercises at the 1-based `positions` (of the list as it is
    /// now) and every exercise named one of `names` (as Swift compares strings, so `Café` in NFC
    /// or NFD); a record left without exercises is deleted. Throws ``LogbookError/dayNotFound(_:)``,
    /// ``LogbookError/exercisePositionOutOfRange(position:count:day:)``, or
    /// ``LogbookError/exerciseNotFound(_:day:)`` for a name the day does not have; then nothing changes.
    public func removeExercises(atPositions positions: [Int] = [], named names: [String] = [], from day: CalendarDay,
                                dryRun: Bool = false) throws -> HistoryEdit {
        var removed: [String] = []
        var result = try edit(day, dryRun: dryRun) { record in
            for position in positions where !record.exercises.indices.contains(position - 1) {
                throw LogbookError.exercisePositionOutOfRange(position: position, count: record.exercises.count, day: day)
            }
            for name in names where !record.exercises.contains(where: { $0 == name }) {
                throw LogbookError.exerciseNotFound(name, day: day)
            }
            let doomed = Set(positions.map { $0 - 1 })
            let goes = record.exercises.enumerated().map { doomed.contains($0.offset) || names.contains($0.element) }
            removed = zip(record.exercises, goes).filter(\.1).map(\.0)
            record.exercises = zip(record.exercises, goes).filter { !$0.1 }.map(\.0)
            return removed.count
        }
        result.removedExercises = removed
        return result
    }

    /// Renames every exercise named `old` (as Swift compares strings) to `new` on the days from
    /// `from` to `to` (each end open when nil). Exercises already spelled `new`, byte for byte,
    /// are left alone and not counted (renaming `Run` to `Run` changes nothing: 0 exercises, no
    /// day, nothing written). Throws ``LogbookError/exerciseNotFound(_:day:)`` when no exercise
    /// has that name there.
    public func renameExercise(_ old: String, to new: String, from: CalendarDay? = nil, to: CalendarDay? = nil,
                               dryRun: Bool = false) throws -> HistoryEdit {
        try ExerciseDay.validate(exercises: [new])
        return try database.write(dryRun: dryRun) { connection in
            let named = """
                name_key = ?1 AND day_pk IN (SELECT pk FROM exercise_days WHERE day >= coalesce(?2, '0000') AND day <= coalesce(?3, '9999-12-31'))
                """
            let arguments: [DatabaseValue] = [.text(old.comparisonKey), from?.databaseValue ?? .null, to?.databaseValue ?? .null]
            guard try connection.scalar("SELECT EXISTS (SELECT 1 FROM exercises WHERE \(named))", arguments, as: Bool.self) == true else {
                throw LogbookError.exerciseNotFound(old, day: nil)
            }
            // Text compares byte for byte here (SQLite's BINARY collation).
            let renamed = "\(named) AND name IS NOT ?4"
            let renamedArguments = arguments + [.text(new)]
            var edit = HistoryEdit()
            let days = try connection.prepare("SELECT day FROM exercise_days WHERE pk IN (SELECT day_pk FROM exercises WHERE \(renamed)) ORDER BY day")
            try days.bind(renamedArguments)
            while try days.step() { edit.days.append(try days.column(0)) }
            guard !edit.days.isEmpty else { return edit }
            try connection.run("UPDATE exercises SET name = ?4, name_key = ?5 WHERE \(renamed)", renamedArguments + [.text(new.comparisonKey)])
            edit.exercises = connection.changes
            try ExerciseTallies.recountStaleDays(in: connection)
            return edit
        }
    }

    /// Moves `day`'s record to `newDay`, keeping the time of day of its date on the store's clock.
    /// When `newDay` has a record, the exercises are appended to it (the same-day rule) and the
    /// moved record's id becomes an alias of it, so that importing the old record again is a no-op.
    public func moveDay(_ day: CalendarDay, to newDay: CalendarDay, dryRun: Bool = false) throws -> HistoryEdit {
        try database.write(dryRun: dryRun) { connection in
            var record = try existingRecord(on: day, in: connection)
            var edit = HistoryEdit(exercises: record.exercises.count, days: [day, newDay].sorted())
            guard newDay != day else { return HistoryEdit() }
            let date = try CalendarDay.moving(record.date, from: day, to: newDay, in: timeZone)
            if let target = try connection.scalar("SELECT pk FROM exercise_days WHERE day = ?", [newDay.databaseValue], as: Int64.self) {
                let source = try connection.scalar("SELECT pk FROM exercise_days WHERE day = ?", [day.databaseValue], as: Int64.self)
                try connection.run("UPDATE exercise_day_aliases SET day_pk = ? WHERE day_pk = ?", [.integer(target), source.map { .integer($0) } ?? .null])
                try table.delete(identity: record.id, in: connection)
                try connection.run("INSERT INTO exercise_day_aliases (id, day_pk) VALUES (?, ?)", [record.id.databaseValue, .integer(target)])
                try Tables.merge(record.exercises, at: date, intoDayKey: target, in: connection)
                edit.deletedDays = [day]
            } else {
                record.day = newDay
                record.date = date
                try table.upsert(record, in: connection)
            }
            try ExerciseTallies.recountStaleDays(in: connection)
            return edit
        }
    }

    /// Reads `day`'s record, lets `change` edit its exercises (returning how many it changed), and
    /// saves it, or deletes it when no exercise is left.
    private func edit(_ day: CalendarDay, dryRun: Bool, _ change: (inout ExerciseDay) throws -> Int) throws -> HistoryEdit {
        try database.write(dryRun: dryRun) { connection in
            var record = try existingRecord(on: day, in: connection)
            var edit = HistoryEdit(exercises: try change(&record), days: [day])
            if record.exercises.isEmpty {
                try table.delete(identity: record.id, in: connection)
                edit.deletedDays = [day]
            } else {
                try table.upsert(record, in: connection)
            }
            try ExerciseTallies.recountStaleDays(in: connection)
            return edit
        }
    }
}

extension HistoryRepository {
    /// Every exercise name stored, one spelling per name as Swift compares them (`Café` in NFC or
    /// NFD is one), sorted by their comparison keys.
    public func exerciseNames() throws -> [String] {
        try database.read { try exerciseNames(in: $0) }
    }

    private func exerciseNames(in connection: Connection) throws -> [String] {
        // While the tallies are current, every exercise row is counted in a year's name tallies,
        // which keep each name's smallest spelling, or is on a day waiting to be tallied: a row per
        // name and year, and the few waiting days' rows, instead of every exercise row (a new name
        // given to `history add`, or `--exercise`, took 4.4 s at 10M exercises).
        let statement = try connection.prepare(try ExerciseTallies.areCurrent(in: connection) ? """
            SELECT min(name) FROM (SELECT name_key, name FROM exercise_years
                                   UNION ALL SELECT name_key, name FROM exercises WHERE day_pk > \(TalliedThrough.sql))
            GROUP BY name_key ORDER BY name_key
            """ : "SELECT min(name) FROM exercises GROUP BY name_key ORDER BY name_key")
        var names: [String] = []
        while try statement.step() { names.append(try statement.column(0)) }
        return names
    }

    /// The stored exercise names with the same letters as `name` up to case and diacritics
    /// (`burpee` finds `Burpee`): what `--exercise` matches.
    public func exerciseNames(matching name: String) throws -> [String] {
        try exerciseNames().filter { $0.hasSameLetters(as: name) }
    }

    /// For a name not yet stored, the stored one it was probably meant as (`Bupree` → `Burpee`,
    /// `squat` → `Squat`); nil when `name` is stored or nothing is close.
    public func knownExercise(resembling name: String) throws -> String? {
        try knownExercises(resembling: [name]).first?.known
    }

    /// `knownExercise(resembling:)` for each of `names`, in one read: only the new names that
    /// resemble a stored one, in order. Whether a name is stored is one probe of the name index;
    /// every stored name is read only when some name is new, so adding known exercises stays cheap.
    public func knownExercises(resembling names: [String]) throws -> [(name: String, known: String)] {
        try database.read { connection in
            let new = try names.filter {
                try connection.scalar("SELECT 1 FROM exercises WHERE name_key = ? LIMIT 1", [.text($0.comparisonKey)], as: Int.self) == nil
            }
            guard !new.isEmpty else { return [] }
            let stored = try exerciseNames(in: connection)
            return new.compactMap { name in name.closest(among: stored).map { (name, $0) } }
        }
    }
}

extension CalendarDay {
    /// `date`, an instant on `day`, moved to `newDay` at the same time on the clock of `timeZone`.
    static func moving(_ date: Date, from day: CalendarDay, to newDay: CalendarDay, in timeZone: TimeZone) throws -> Date {
        // Whole seconds and the fraction apart, in integers: adding the offset in floating point
        // rounded the last `Double` before a midnight up to it (a time of 24:00:00).
        let second = date.timeIntervalSinceReferenceDate.rounded(.down)
        let whole = Int(second) + ProlepticGregorian.referenceDateUnixTime + timeZone.secondsFromGMT(for: date) - day.dayNumber * 86_400
        let moved = DateExpression.instant(at: whole, on: newDay, in: timeZone) + (date.timeIntervalSinceReferenceDate - second)
        try moved.checkSupported(field: "date")
        // A day the zone skipped whole has no instant for the date. (A record whose date is not on
        // its own day, as another zone's import can leave, keeps that distance.)
        if let reason = newDay.skippedDayReason(in: timeZone) {
            throw LogbookError.invalidValue(field: "day", value: newDay.description, reason: reason)
        }
        // Nor has a time of day that a transition skipped up to the next midnight (Toronto's
        // 1919-03-30 from 23:30, Singapore's 1981-12-31 from 23:30): the time after the gap is on the next day.
        // Days told exactly: clamped into 0001 … 9999, an instant of 10000-01-01 there (the far side
        // of a zone's offset) passed for one on its record's day, and each move of it for a gap.
        if CalendarDay(exactly: date, in: timeZone) == day, let landed = CalendarDay(exactly: moved, in: timeZone), landed != newDay {
            let time = String(format: "%02d:%02d:%02d", whole / 3_600, whole / 60 % 60, whole % 60)
            throw LogbookError.invalidValue(field: "day", value: newDay.description,
                                            reason: "time zone \(timeZone.nameForPeople) skipped \(time) on that day (the time after "
                                                + "the transition is on \(landed)), so the record's time of day cannot move there")
        }
        return moved
    }
}
