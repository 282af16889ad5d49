import Foundation
import SQLiteQuery

extension Logbook {
    /// Imports every record of `handle`'s content (named `file` in messages) in one transaction.
    ///
    /// Any invalid record rejects the whole file with ``LogbookError/importRefused(_:)``, whose
    /// ``ImportError`` names the record and field, and the database stays exactly as it was. Records are matched by id (drafts from
    /// files without ids get one derived from their content); history entries of a calendar day
    /// that already has a record are appended to it ("merged").
    ///
    /// A regular file's records are read and parsed on a thread of their own while the earlier
    /// ones are written (a pipe's or a terminal's as they come); the call returns only once that
    /// thread is done with `handle`.
    public func importRecords(from handle: FileHandle, file: String, options: ImportOptions) throws -> ImportSummary {
        try importRecords(from: ByteStream(handle: handle), file: file, options: options)
    }

    /// Imports the file at `url` (named by its path in messages; its extension tells the format
    /// when ``ImportOptions/format`` is `auto`), as `importRecords(from:file:options:)` does.
    public func importRecords(from url: URL, options: ImportOptions = ImportOptions()) throws -> ImportSummary {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw LogbookError.importRefused(ImportError(file: url.path, reason: "cannot read the file: \(error.localizedDescription)"))
        }
        defer { try? handle.close() }
        return try importRecords(from: handle, file: url.path, options: options)
    }

    /// Imports `data`, the content of a file called `name` (for messages and, when
    /// ``ImportOptions/format`` is `auto`, its extension), as `importRecords(from:file:options:)` does.
    public func importRecords(from data: Data, named name: String, options: ImportOptions = ImportOptions()) throws -> ImportSummary {
        try importRecords(from: ByteStream(data: data), file: name, options: options)
    }

    private func importRecords(from stream: ByteStream, file: String, options: ImportOptions) throws -> ImportSummary {
        do {
            return try importAll(from: stream, file: file, options: options)
        } catch let failure as ByteStream.ReadFailure {
            throw LogbookError.importRefused(ImportError(file: file, reason: "cannot read it: \(failure.reason)"))
        } catch {
            throw LogbookError.reported(error, path: path)
        }
    }

    /// Refuses text in UTF-16 or UTF-32 (``WideTextEncoding``), naming its encoding.
    private func refuseWideText(_ prefix: [UInt8], file: String) throws {
        guard let encoding = WideTextEncoding(ofTextStartingWith: prefix) else { return }
        throw ImportError(file: file, reason: "it is text in \(encoding.name)\(encoding.isMarked ? " (by its byte order mark)" : ""); "
                            + "json, ndjson and csv are read in UTF-8, as the apps and 'logbook export' write them: convert it "
                            + "first (iconv -f \(encoding.name) -t UTF-8)")
    }

    private func importAll(from stream: ByteStream, file: String, options: ImportOptions) throws -> ImportSummary {
        var format = options.format
        if format == .auto {
            // What Logbook writes but reads no record from (a PostgreSQL script was read as CSV, its
            // first comment line named as an unknown column of a history file).
            if let written = FormatExtension.formatName(of: file), ImportFormat(rawValue: written) == nil {
                throw ImportError(file: file, reason: "its name says \(written) (what 'logbook export --format \(written)' "
                                    + "writes for another program), which no import reads; import json, ndjson, csv or plist, "
                                    + "or pass --format")
            }
            let prefix = try stream.prefix(64)
            guard let detected = ImportFormat.detect(name: file, prefix: prefix) else {
                // Text in UTF-16 or UTF-32 is told apart from no format at all (its text checked below otherwise).
                try refuseWideText(prefix, file: file)
                throw ImportError(file: file, reason: (prefix.isEmpty ? "it is empty, so its format cannot be told" : "cannot tell the format")
                                    + "; pass --format json|ndjson|csv|plist|sqlite")
            }
            format = detected
        }
        if format == .sqlite { return try merge(logbookAt: file, options: options) }
        if format != .plist {
            try refuseWideText(try stream.prefix(4), file: file)
            try stream.skipByteOrderMark()
        }
        let source: any RecordSource = switch format {
        case .json, .auto, .sqlite: JSONRecordSource(file: file, stream: stream, isLines: false, kind: options.kind)
        case .ndjson: JSONRecordSource(file: file, stream: stream, isLines: true, kind: options.kind)
        case .csv: CSVRecordSource(file: file, stream: stream, kind: options.kind)
        case .plist: try PropertyListRecordSource(file: file, stream: stream, kind: options.kind)
        }
        let records = IDlessDayGrouping(source)
        // A pipe or a terminal is read as its writer writes, not ahead (ReadAheadRecordSource), and
        // so is any file when no thread can be made.
        if stream.readsWithoutWaiting, let readAhead = ReadAheadRecordSource(records, offset: { stream.offset }) {
            return try importAll(from: readAhead, file: file, options: options, progressOffset: { readAhead.offset }, afterRecords: { _ in })
        }
        return try importAll(from: records, file: file, options: options, progressOffset: { stream.offset }, afterRecords: { _ in })
    }

    /// Merges the Logbook database at `path` (another device's) with the rules of every import: ids,
    /// the conflict policy, the same-day rule with aliases. A day both hold under different ids
    /// becomes one record whichever way the merge goes: the record whose first exercise came first
    /// gives its id and date and its exercises come first; the other id becomes an alias. The other
    /// file's aliases come along, so merging again, or merging a third device that merged it,
    /// changes nothing. A record both hold (by id or alias) is kept in its later state
    /// (``ImportWriter/settle(_:dayKey:with:record:into:)``), so devices merged into each other in
    /// turn end the same. Drafts come first, then days, each in the order stored.
    private func merge(logbookAt path: String, options: ImportOptions) throws -> ImportSummary {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ImportError(file: path, reason: "another logbook is merged from its file: give its path, not standard input")
        }
        // By path, links followed, or by device and inode (a hard link), before it is opened: opened
        // by another name, SQLite kept a second write-ahead log beside it.
        if DatabaseFiles.areOneFile(path, self.path) {
            throw ImportError(file: path, reason: "that is this logbook's own file")
        }
        let other: Logbook
        do {
            other = try Logbook.openForReading(path: path, timeZone: timeZone)
        } catch LogbookError.migration(_, .pendingMigrations(let identifiers)) {
            // The migration error's own advice ("run 'logbook migrate'") would migrate this logbook, not the other.
            throw ImportError(file: path, reason: "it needs migrations it has not had (\(identifiers.joined(separator: ", "))): "
                                + "run 'logbook --db \(path) migrate' first (or merge a migrated copy)")
        } catch LogbookError.migration(_, let error) {
            throw ImportError(file: path, reason: "\(error)")
        }
        // A damaged file reads differently by each path to its rows (an index that no longer
        // matches its table gives one day to the export and another to a merge), so a merge reads
        // only a file that SQLite's integrity check finds sound, whole.
        let integrity = try other.database.read { try $0.integrityCheck() }
        guard integrity == ["ok"] else {
            throw ImportError(damagedLogbook: path, integrity.prefix(2).joined(separator: "; ") + (integrity.count > 2 ? "; …" : ""))
        }
        // What every reader of a file refuses (a date out of range, text that is not UTF-8, a
        // malformed id or day), refused before anything is read, naming that file.
        if let problem = try other.database.read({ try StoredValueAudit.problems(in: $0) }).first {
            throw ImportError(file: path, reason: "it holds values Logbook cannot read (\(problem)); "
                                + "'logbook --db \(path) check' counts every one and names the first three")
        }
        return try other.database.read { otherConnection in
            let source = try LogbookRecordSource(connection: otherConnection, kind: options.kind, file: path)
            return try importAll(from: source, file: path, options: options, symmetricSameDay: true,
                                 progressOffset: { 0 }, afterRecords: { writer in
                guard options.kind != .drafts else { return }
                try writer.copyAliases(try LogbookRecordSource.aliases(in: otherConnection, file: path))
            })
        }
    }

    private func importAll(from source: some RecordSource, file: String, options: ImportOptions, symmetricSameDay: Bool = false,
                           progressOffset: () -> Int,
                           afterRecords: (inout ImportWriter) throws -> Void) throws -> ImportSummary {
        // Timed by a clock the wall clock's steps do not move (set back an hour, an import took -3598 s: helper-77).
        let started = ContinuousClock.now
        let cancellation = Cancellation.current
        var source = source
        var summary = ImportSummary()
        try database.withBulkWriteCache {
            try database.write(dryRun: options.dryRun) { connection in
                var writer = ImportWriter(connection: connection, file: file, timeZone: timeZone, now: Date(),
                                          policy: options.onConflict, symmetricSameDay: symmetricSameDay,
                                          tallies: try ExerciseTallies(in: connection),
                                          earlier: try EarlierRecords(in: connection, sourceMayRepeatIDs: !symmetricSameDay),
                                          idlessOccurrences: IDlessOccurrences(in: connection))
                while let record = try source.next() {
                    summary.read += 1
                    switch record.content {
                    case .draft(let draft): try writer.importDraft(draft, record: record.place, into: &summary)
                    case .day(let day): try writer.importDay(day, record: record.place, into: &summary)
                    }
                    if summary.read % 1_000 == 0 {
                        try cancellation?.checkCancellation()
                        if summary.read % 5_000 == 0, let progress = options.progress {
                            let (read, offset) = (summary.read, progressOffset())
                            database.refusingWrites(because: "a write from inside an import's progress callback would be part of "
                                                        + "the import's transaction; write once the import has returned") {
                                progress(read, offset)
                            }
                        }
                    }
                }
                try afterRecords(&writer)
                try writer.earlier.finish()
                try writer.idlessOccurrences.finish()
                try writer.tallies.apply(in: connection)
                summary.kind = source.kind
                if !options.dryRun && summary.inserted + summary.merged + summary.replaced - writer.unchangedReplacements >= 10_000 {
                    // Fresh statistics keep the planner on the right indexes as the tables grow,
                    // committed with the records: run after the commit, a failure (a full disk, a
                    // kill) failed an import whose records were saved, or left a small file's
                    // statistics on a large one.
                    try connection.execute("PRAGMA analysis_limit = 1000; ANALYZE")
                }
            }
        }
        options.progress?(summary.read, progressOffset())
        let elapsed = (ContinuousClock.now - started).components
        summary.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return summary
    }
}

/// Writes imported records through cached statements, applying the conflict policy and the
/// same-day merge.
private struct ImportWriter {
    let connection: Connection
    let file: String
    let timeZone: TimeZone
    let now: Date
    let policy: ConflictPolicy
    /// Whether a day that meets a stored record of its calendar day is ordered by which came first
    /// (merging another logbook: the same result either way) rather than appended to it.
    var symmetricSameDay = false
    /// The exercises of new days, added to the tallies at the end (or left waiting, for an
    /// import of a few new days and nothing else: ``ExerciseTallies``).
    var tallies: ExerciseTallies
    /// Whether `exercise_day_aliases` holds an id; nil until asked (``mayHoldAliases()``).
    var holdsAliases: Bool?
    /// The records met earlier in the file.
    var earlier: EarlierRecords
    /// How many drafts and days without an id of each content the file held so far.
    var idlessOccurrences: IDlessOccurrences
    /// How many of the records counted replaced were stored exactly as the file gives them, and
    /// so were not written (``isStoredAsGiven(_:_:)``).
    var unchangedReplacements = 0
    /// The days of stored records with others merged into them that this import replaced,
    /// dropping the exercises those brought (``isStillMerged(alias:day:date:exercises:)``).
    var daysOfReplacedRecords: Set<CalendarDay> = []

    mutating func importDraft(_ input: DraftInput, record: RecordPlace, into summary: inout ImportSummary) throws {
        let id = try input.id ?? idlessDraftID(input)
        let created = input.createdAt ?? now
        let draft = ReleaseDraft(id: id, version: input.version, whatsNew: input.whatsNew, checklist: input.checklist,
                                 submittedAt: input.submittedAt, createdAt: created, updatedAt: input.updatedAt ?? created)
        try checked(record) { try draft.validate() }
        if let key = try Tables.drafts.rowKey(identity: id, in: connection) {
            let content = EarlierRecords.content(of: draft)
            var first = try earlier.rememberedContent(.draft, id: id)
            if first == nil, earlier.isInsertedByThisImport(.draft, key: key) {
                first = try Tables.drafts.fetchOne(identity: id, in: connection).map(EarlierRecords.content(of:))
            }
            if let first { return try repeated(record, id: id, isSame: first.utf8.elementsEqual(content.utf8), into: &summary) }
            try earlier.remember(.draft, id: id, content: content)
            switch policy {
            case .skip: summary.skipped += 1
            case .fail: throw conflict(record, "a draft with id \(id.uuidString) already exists")
            case .replace:
                summary.replaced += 1
                if isStoredAsGiven(content, try Self.readableContent { try Tables.drafts.fetchOne(identity: id, in: connection).map(EarlierRecords.content(of:)) }) {
                    return
                }
                try Tables.drafts.upsert(draft, in: connection)
            }
            return
        }
        try Tables.drafts.insert(draft, in: connection)
        summary.inserted += 1
    }

    /// Whether the stored record (its content, `stored`) is exactly the file's, `incoming`: then a
    /// replacement writes nothing (no row rewritten, no change logged, no day recounted), and is
    /// counted in ``unchangedReplacements``. Importing a file again with `replace` deleted and
    /// inserted every record: 200,000 days took 24 s against 3 s the first time.
    private mutating func isStoredAsGiven(_ incoming: String, _ stored: String?) -> Bool {
        guard let stored, stored.utf8.elementsEqual(incoming.utf8) else { return false }
        unchangedReplacements += 1
        return true
    }

    /// Whether record `id` of the file, once merged into the record of `day` (its id an alias
    /// there), is still there as the file gives it: its exercises a run of that record's, whose
    /// date is no later than the one given (a merge keeps the earlier date), and that record not
    /// replaced by this import (which dropped what was merged into it). Then its replacement is
    /// taken as unchanged and writes nothing: merged again, its exercises were appended once more
    /// by each import of the file with `replace` (helper-45).
    ///
    /// Logbook keeps no record of which exercises each merged record brought, so a replacement
    /// whose exercises the day already holds in a run is taken as unchanged too, even when the
    /// file changed the record to exactly those.
    private func isStillMerged(alias id: UUID, day: CalendarDay, date: Date, exercises: [String]) throws -> Bool {
        guard !daysOfReplacedRecords.contains(day) else { return false }
        // The record `id` was merged into, when it is `day`'s: its row key and date.
        let merged = try connection.cachedStatement("""
            SELECT d.pk, d.date FROM exercise_day_aliases AS a JOIN exercise_days AS d ON d.pk = a.day_pk WHERE a.id = ? AND d.day = ?
            """)
        defer { merged.reset() }
        try merged.bind(id, at: 1)
        try merged.bind(day, at: 2)
        guard try merged.step(), try merged.column(1, as: Date.self) <= date else { return false }
        let key = try merged.column(0, as: Int64.self)
        let names: [String]
        do {
            names = try Tables.exerciseNames(ofDayKey: key, in: connection)
        } catch is ColumnConversionError {
            return false  // a value Logbook cannot read (another program's): merging again puts it right
        }
        guard names.count >= exercises.count else { return false }
        return (0...(names.count - exercises.count)).contains { start in
            zip(names[start...], exercises).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
        }
    }

    /// The content `read` makes of a stored record; nil when the record has a value Logbook cannot
    /// read (another program's), which is then not stored as any file gives it: replacing it puts
    /// it right, as it always did (helper-33).
    private static func readableContent(_ read: () throws -> String?) throws -> String? {
        do {
            return try read()
        } catch is ColumnConversionError {
            return nil
        }
    }

    /// The id of a draft the file gives none: its content's, counting the identical drafts before
    /// it in the file, so that each of them is kept.
    private mutating func idlessDraftID(_ input: DraftInput) throws -> UUID {
        let content = ContentID.forDraft(input)
        let occurrence = try idlessOccurrences.countBefore(.draft, content: content)
        return occurrence == 0 ? content : ContentID.forDraft(input, occurrence: occurrence)
    }

    /// The id of a day record the file gives none (consecutive ones of a day joined by
    /// ``IDlessDayGrouping``): its content's, counting the identical records before it in the
    /// file, so that each of them is kept.
    private mutating func idlessDayID(_ input: DayInput) throws -> UUID {
        let content = input.contentID ?? ContentID.forDay(input)
        let occurrence = try idlessOccurrences.countBefore(.day, content: content)
        return occurrence == 0 ? content : ContentID.forDay(input, occurrence: occurrence)
    }

    mutating func importDay(_ input: DayInput, record: RecordPlace, into summary: inout ImportSummary) throws {
        let timeZone = timeZone  // (the closure then captures the zone, not a copy of the writer)
        let day = try checked(record) {
            // What the library saves, no more: at least one exercise, no name empty (a blank cell).
            try ExerciseDay.validate(exercises: input.exercises)
            guard let date = input.date else {
                guard let day = input.day else { throw FieldError(field: "day", reason: "missing: a record needs a day or a date") }
                // Its date will be the day's first instant, which must fall on it and be one the store
                // keeps (0001-01-01 east of Greenwich starts in year 0000, and was stored, unreadable).
                if let reason = day.skippedDayReason(in: timeZone) {
                    throw LogbookError.invalidValue(field: "day", value: day.description, reason: reason + "; give the record a date")
                }
                let start = day.start(in: timeZone)
                guard start.isSupported else {
                    throw LogbookError.invalidValue(field: "day", value: day.description,
                                                    reason: "it starts at \(start.textForMessages) in time zone \(timeZone.nameForPeople), "
                                                        + "outside the instants Logbook stores; give the record a date")
                }
                return day
            }
            return try input.day ?? CalendarDay.storable(date, in: timeZone)
        }
        let id = try input.id ?? idlessDayID(input)
        let date = input.date ?? day.start(in: timeZone)
        if try !mayHoldAliases() {
            // No id can be a merged entry's alias: one statement inserts a new day, and a record
            // whose id or day is stored writes nothing and takes the way below.
            let record = ExerciseDay(id: id, date: date, day: day, exercises: input.exercises)
            if try Tables.exerciseDays.insertUnlessConflicting(record, in: connection) != nil {
                try tallies.addNewDay(record, in: connection)
                summary.inserted += 1
                return
            }
        }
        if symmetricSameDay, let key = try dayRecord(day), let stored = try sharedRecord(dayKey: key, with: id, aliases: input.aliases) {
            return try settle(stored, dayKey: key, with: (id, day, date, input.exercises), record: record, into: &summary)
        }
        var replacing = false
        // The ids merged into the record replaced, kept for its replacement on the same day.
        var keptAliases: [UUID] = []
        // The record's content, for a record that comes again in the file (made only where it may).
        let content = { EarlierRecords.content(of: ExerciseDay(id: id, date: date, day: day, exercises: input.exercises)) }
        if let stored = try storedDay(id: id) {
            if symmetricSameDay, !stored, let mergedInto = try aliasDay(of: id), mergedInto != day {
                throw ImportError(file: file, record: record, field: "id",
                                  reason: Self.filedApart(id, mergedHereInto: mergedInto, keptThereOn: day))
            }
            var first = try earlier.rememberedContent(.day, id: id)
            if first == nil, stored, let key = try Tables.exerciseDays.rowKey(identity: id, in: connection),
               earlier.isInsertedByThisImport(.day, key: key) {
                first = try Tables.exerciseDays.fetchOne(identity: id, in: connection).map(EarlierRecords.content(of:))
            }
            let incoming = content()
            if let first { return try repeated(record, id: id, isSame: first.utf8.elementsEqual(incoming.utf8), into: &summary) }
            try earlier.remember(.day, id: id, content: incoming)
            switch policy {
            case .skip:
                summary.skipped += 1
                return
            case .fail:
                throw conflict(record, "a day with id \(id.uuidString) already exists")
            case .replace:
                if stored, isStoredAsGiven(incoming, try Self.readableContent {
                    try Tables.exerciseDays.fetchOne(identity: id, in: connection).map(EarlierRecords.content(of:))
                }) {
                    summary.replaced += 1
                    return
                }
                if !stored, try isStillMerged(alias: id, day: day, date: date, exercises: input.exercises) {
                    unchangedReplacements += 1
                    summary.replaced += 1
                    return
                }
                if stored {
                    keptAliases = try mayHoldAliases() ? aliasesKept(replacing: id, with: day, record: record) : []
                    try tallies.countWaitingDays(in: connection)
                    try Tables.exerciseDays.delete(identity: id, in: connection)
                    if !keptAliases.isEmpty { daysOfReplacedRecords.insert(day) }
                } else {
                    // An id merged into another day's record (an alias) is a record of its own again,
                    // as the file gives it, whatever order the file's records come in: the alias goes,
                    // and the exercises it once brought stay in that record.
                    try Tables.removeAlias(id, in: connection)
                }
                replacing = true
            }
        }
        if let existing = try dayRecord(day) {
            // Both records are the file's content as given, for a record that comes again: the
            // one merged into, as this import inserted it, before it changes (read once: read for
            // every record merged into it, a day of 10,000 merged records took 33 s; helper-31).
            try earlier.remember(.day, id: id, content: content())
            if earlier.isInsertedByThisImport(.day, key: existing), let target = try storedIDAndDate(ofDayKey: existing),
               try earlier.rememberedContent(.day, id: target.id) == nil,
               let inserted = try Tables.exerciseDays.fetchAll(where: "exercise_days.pk = ?", arguments: [.integer(existing)],
                                                               in: connection).first {
                try earlier.remember(.day, id: inserted.id, content: EarlierRecords.content(of: inserted))
            }
            if symmetricSameDay, let stored = try storedIDAndDate(ofDayKey: existing),
               (date, id.text) < (stored.date, stored.id.text) {
                // The incoming record came first: it gives the id and date, its exercises first.
                try Tables.prepend(input.exercises, id: id, date: date, toDayKey: existing, in: connection)
                try addAlias(stored.id, toDayKey: existing)
            } else {
                try Tables.merge(input.exercises, at: date, intoDayKey: existing, in: connection)
                try addAlias(id, toDayKey: existing)
            }
            // A stored record replaced by one of another day that has a record is counted replaced.
            if replacing { summary.replaced += 1 } else { summary.merged += 1 }
        } else {
            let record = ExerciseDay(id: id, date: date, day: day, exercises: input.exercises)
            let key = try Tables.exerciseDays.insert(record, in: connection)
            for alias in keptAliases { try addAlias(alias, toDayKey: key) }
            try tallies.addNewDay(record, in: connection)
            if replacing { summary.replaced += 1 } else { summary.inserted += 1 }
        }
    }

    /// The ids merged into the stored record `id` (other records of its day, appended to it), which
    /// its replacement on `day` keeps. A replacement on another day is refused when there are any:
    /// the merged records' exercises are in the stored record, and would go with it.
    private func aliasesKept(replacing id: UUID, with day: CalendarDay, record: RecordPlace) throws -> [UUID] {
        let statement = try connection.cachedStatement("""
            SELECT d.day, a.id FROM exercise_days AS d JOIN exercise_day_aliases AS a ON a.day_pk = d.pk WHERE d.id = ? ORDER BY a.id
            """)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        var storedDay: CalendarDay?
        var aliases: [UUID] = []
        while try statement.step() {
            storedDay = try statement.column(0, as: CalendarDay.self)
            aliases.append(try statement.column(1, as: UUID.self))
        }
        guard let storedDay, storedDay != day else { return aliases }
        throw ImportError(file: file, record: record, field: "day",
                          reason: "the record \(id.uuidString) of \(storedDay) holds \(aliases.count == 1 ? "a record" : "\(aliases.count) records") "
                            + "merged into it (\(aliases[0].uuidString)\(aliases.count > 1 ? ", …" : "")), whose exercises would go if it moved "
                            + "to \(day); replace it on \(storedDay), or edit that day with 'logbook history'")
    }

    /// A stored day record as a merge compares it with the other logbook's.
    private struct SharedRecord {
        let id: UUID
        let date: Date
        let exercises: [String]
        let aliases: Set<UUID>
    }

    /// The stored record with row key `key` when it is the same record as the incoming one: they
    /// share an id, counting the ids merged into either (its aliases here, `aliases` there). Nil
    /// for two records that were never one.
    private func sharedRecord(dayKey key: Int64, with id: UUID, aliases: [UUID]) throws -> SharedRecord? {
        guard let (storedID, date) = try storedIDAndDate(ofDayKey: key) else { return nil }
        var storedAliases = Set<UUID>()
        let statement = try connection.cachedStatement("SELECT id FROM exercise_day_aliases WHERE day_pk = ?")
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        while try statement.step() { storedAliases.insert(try statement.column(0)) }
        let incoming = Set(aliases).union([id])
        guard incoming.contains(storedID) || !incoming.isDisjoint(with: storedAliases) else { return nil }
        return SharedRecord(id: storedID, date: date, exercises: try Tables.exerciseNames(ofDayKey: key, in: connection),
                            aliases: storedAliases)
    }

    /// Settles a record both logbooks hold (``sharedRecord(dayKey:with:aliases:)``): the one whose
    /// exercises hold the other's, in order and one after another, is the later state of the
    /// record (the other device added to it, or merged it into its own record of the day), and is
    /// kept with its id and date; between two with the same exercises, the one whose (date, id)
    /// comes first, as the same-day merge orders records, so that either direction gives the same
    /// record. Records that each changed apart are a conflict that the policy settles. The id
    /// that is not kept stays as an alias, so that merging again changes nothing.
    ///
    /// An incoming id that this logbook merged into its record of another day is refused, as
    /// ``copyAliases(_:)`` refuses the other way round: it was skipped as a conflict, exit 0, so
    /// the merge that was refused one way was taken the other, and the two devices never agreed
    /// again (helper-82).
    private mutating func settle(_ stored: SharedRecord, dayKey key: Int64,
                                 with incoming: (id: UUID, day: CalendarDay, date: Date, exercises: [String]),
                                 record: RecordPlace, into summary: inout ImportSummary) throws {
        let isOwnID = incoming.id == stored.id || stored.aliases.contains(incoming.id)
        if !isOwnID, let mergedInto = try aliasDay(of: incoming.id) {
            throw ImportError(file: file, record: record, field: "id",
                              reason: Self.filedApart(incoming.id, mergedHereInto: mergedInto, keptThereOn: incoming.day))
        }
        // The incoming id held by another day here (a record moved on one device) is no later state of this one.
        let isIDFree = try isOwnID || storedDay(id: incoming.id) == nil
        // Named in a refusal: where this logbook keeps the incoming id as a record of its own.
        let keptHereOn = isIDFree ? "" : try recordDay(of: incoming.id).map { "\($0)" } ?? "another day"
        let storedHoldsIncoming = isIDFree && incoming.exercises.isRun(in: stored.exercises)
        let incomingHoldsStored = isIDFree && stored.exercises.isRun(in: incoming.exercises)
        let takesIncoming: Bool
        switch (storedHoldsIncoming, incomingHoldsStored) {
        case (true, true): takesIncoming = (incoming.date, incoming.id.text) < (stored.date, stored.id.text)
        case (true, false): takesIncoming = false
        case (false, true): takesIncoming = true
        case (false, false):
            switch policy {
            case .skip: takesIncoming = false
            case .fail where !isIDFree:
                throw conflict(record, "the id \(incoming.id.uuidString) is this logbook's record of \(keptHereOn), "
                                 + "where the other keeps it on \(incoming.day)")
            case .fail: throw conflict(record, "the day \(incoming.id.uuidString) changed here and in the other logbook since they shared it")
            case .replace: takesIncoming = true
            }
        }
        guard takesIncoming else {
            if try storedDay(id: incoming.id) == nil { try addAlias(incoming.id, toDayKey: key) }
            summary.skipped += 1
            return
        }
        guard isIDFree else {
            throw ImportError(file: file, record: record, field: "id",
                              reason: "the id \(incoming.id.uuidString) is this logbook's record of \(keptHereOn), "
                                + "which --on-conflict replace would keep beside the other logbook's record of \(incoming.day) that holds it; "
                                + "move it so both agree, then merge again")
        }
        if stored.aliases.contains(incoming.id) {
            try Tables.removeAlias(incoming.id, in: connection)
        }
        try tallies.countWaitingDays(in: connection)
        try Tables.rewrite(dayKey: key, id: incoming.id, date: incoming.date, exercises: incoming.exercises, in: connection)
        if try storedDay(id: stored.id) == nil { try addAlias(stored.id, toDayKey: key) }
        if incomingHoldsStored { summary.merged += 1 } else { summary.replaced += 1 }
    }

    private func storedIDAndDate(ofDayKey key: Int64) throws -> (id: UUID, date: Date)? {
        let statement = try connection.cachedStatement("SELECT id, date FROM exercise_days WHERE pk = ?")
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        return (try statement.column(0, as: UUID.self), try statement.column(1, as: Date.self))
    }

    private mutating func addAlias(_ id: UUID, toDayKey key: Int64) throws {
        try connection.run("INSERT INTO exercise_day_aliases (id, day_pk) VALUES (?, ?)", [id.databaseValue, .integer(key)])
        holdsAliases = true
    }

    /// Whether `exercise_day_aliases` may hold an id: it held one when the import began, or the
    /// import added one. (Asked once; only this transaction writes the table meanwhile.)
    private mutating func mayHoldAliases() throws -> Bool {
        if let holdsAliases { return holdsAliases }
        let found = try Tables.holdsAliases(in: connection)
        holdsAliases = found
        return found
    }

    /// Adds the other logbook's aliases (ids of entries merged there) that this one does not know,
    /// each to this logbook's record of the same calendar day.
    ///
    /// An id the other logbook merged into its record of one day, which this one keeps as a record
    /// of another day, is refused: each holds that record's exercises on its own day, and taking
    /// either side would count them twice or drop them (the same file imported in two time zones
    /// files records near midnight under different days; so does a `history move` on one device).
    mutating func copyAliases(_ aliases: [(id: UUID, day: CalendarDay)]) throws {
        for (id, day) in aliases {
            if let keptOn = try recordDay(of: id) {
                guard keptOn == day else { throw ImportError(file: file, reason: Self.filedApart(id, mergedThereInto: day, keptHereOn: keptOn)) }
                continue
            }
            // Merged here into the record of another day than there (both devices moved it, to
            // different days): each record holds its exercises, which would be counted twice.
            if let mergedHere = try aliasDay(of: id), mergedHere != day {
                throw ImportError(file: file, reason: "this logbook merged \(id.uuidString) into its record of \(mergedHere), where the "
                                    + "other merged it into its record of \(day)" + Self.filedApartAdvice)
            }
            guard try storedDay(id: id) == nil, let key = try dayRecord(day) else { continue }
            try addAlias(id, toDayKey: key)
        }
    }

    /// The day of the record whose id is `id`, or nil.
    private func recordDay(of id: UUID) throws -> CalendarDay? {
        try connection.scalar("SELECT day FROM exercise_days WHERE id = ?", [id.databaseValue], as: CalendarDay.self)
    }

    /// The day of the record that the merged id `id` is an alias of, or nil.
    private func aliasDay(of id: UUID) throws -> CalendarDay? {
        try connection.scalar("SELECT d.day FROM exercise_day_aliases AS a JOIN exercise_days AS d ON d.pk = a.day_pk WHERE a.id = ?",
                              [id.databaseValue], as: CalendarDay.self)
    }

    /// Why a merge is refused when this logbook merged record `id` into its record of one day and
    /// the other keeps it as a record of another day (and the other way round, below).
    private static func filedApart(_ id: UUID, mergedHereInto: CalendarDay, keptThereOn: CalendarDay) -> String {
        "this logbook merged \(id.uuidString) into its record of \(mergedHereInto), where the other keeps it on \(keptThereOn)"
            + filedApartAdvice
    }

    private static func filedApart(_ id: UUID, mergedThereInto: CalendarDay, keptHereOn: CalendarDay) -> String {
        "it merged \(id.uuidString) into its record of \(mergedThereInto), where this logbook keeps it on \(keptHereOn)"
            + filedApartAdvice
    }

    private static let filedApartAdvice = ": the two filed it under different days (as imports of one file in different time "
        + "zones do, or a 'history move' on one of them), and either way would count its exercises twice or drop them; "
        + "move it so both agree, then merge again"

    /// Whether `id` is stored as a day record (true) or as the alias of a merged entry (false);
    /// nil when it is not stored.
    private func storedDay(id: UUID) throws -> Bool? {
        let statement = try connection.cachedStatement("""
            SELECT 1 FROM exercise_days WHERE id = ?1 UNION ALL SELECT 0 FROM exercise_day_aliases WHERE id = ?1
            """)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        return try statement.column(0, as: Int.self) == 1
    }

    /// The row key of `day`'s record, or nil.
    private func dayRecord(_ day: CalendarDay) throws -> Int64? {
        try connection.scalar("SELECT pk FROM exercise_days WHERE day = ?", [day.databaseValue], as: Int64.self)
    }

    /// A record whose id an earlier record of this file has (``EarlierRecords``): the same record
    /// again (an app's file may hold a draft twice, whose id comes from its content) is skipped,
    /// and a record with other content is refused, rather than either being dropped or replacing
    /// the other whatever the conflict policy (a CSV file whose rows of one record were sorted
    /// apart read as two records of one id, and lost the second's exercises).
    private func repeated(_ record: RecordPlace, id: UUID, isSame: Bool, into summary: inout ImportSummary) throws {
        guard isSame else {
            throw ImportError(file: file, record: record, field: "id", reason: "an earlier record in this file has the id "
                                + "\(id.uuidString) and other content; each record comes once (in CSV, a record's rows are consecutive)")
        }
        summary.skipped += 1
    }

    /// Runs `body`, turning a refused value into an ``ImportError`` that names the file and record.
    private func checked<T>(_ record: RecordPlace, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch LogbookError.invalidValue(let field, let value, let reason) {
            throw ImportError(file: file, record: record, field: field, reason: value.isEmpty ? reason : "'\(value)': \(reason)")
        }
    }

    private func conflict(_ record: RecordPlace, _ reason: String) -> ImportError {
        ImportError(file: file, record: record, field: "id", reason: reason + " (--on-conflict fail)")
    }
}

extension Array where Element == String {
    /// Whether `self` appears in `other` as a run: its names in order, one after another, byte for
    /// byte (the empty list is in every list).
    func isRun(in other: [String]) -> Bool {
        guard count <= other.count else { return false }
        if isEmpty { return true }
        return (0...(other.count - count)).contains { start in
            indices.allSatisfy { self[$0].utf8.elementsEqual(other[start + $0].utf8) }
        }
    }
}
