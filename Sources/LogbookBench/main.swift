import CSQLite
import Foundation
import Logbook
import SQLiteQuery

// Usage: `logbook-bench --help` (BenchOptions).
//
// Times Logbook's workloads side by side with RawEngine, a hand-written C-API engine, in one
// process on one machine, and prints one line per workload with the ratio. Every workload also
// checks that both engines return the same results. `--quick` runs tiny sizes once: for CI, to
// prove the workloads run and agree, not to measure.

// As the `logbook` tool does (and a careful C program would): SQLite's memory statistics off in
// this process, for both engines alike.
ProcessSettings.stopCountingMemory()

let options: BenchOptions
do {
    guard let given = try BenchOptions(Array(CommandLine.arguments.dropFirst())) else {
        print(BenchOptions.usage)
        exit(0)
    }
    options = given
} catch let error as BenchOptions.UsageError {
    FileHandle.standardError.write(Data("logbook-bench: \(error.message)\n".utf8))
    exit(2)
}
let quick = options.has("--quick")
/// Stops after the insert workload: for profiling it (`perf record … logbook-bench --only-insert`).
let onlyInsert = options.has("--only-insert")
/// Stops after the range fetches, the fetch of everything and the counts, for profiling them.
let onlyFetches = options.has("--only-fetches")
/// Runs the insert, then only the saves of one day each.
let onlySaves = options.has("--only-saves")
let runs = options.number("--runs") ?? (quick ? 1 : 3)
/// `--days N` sets the history's size (for profiling at a smaller one, say under `valgrind`).
let dayCount = options.number("--days") ?? (quick ? 2_000 : 200_000)
let draftCount = quick ? 500 : 10_000
/// `--fetches N` sets how many range fetches and counts run (for profiling them under `valgrind`).
let fetchCount = options.number("--fetches") ?? (quick ? 200 : 10_000)
let draftFetchCount = quick ? 50 : 1_000
/// Days saved one per transaction after the history (as many again by the raw engine).
let singleSaveCount = quick ? 300 : 2_000

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
/// Removes the scratch folder (hundreds of megabytes) and exits: every way out of the run.
func finish(_ status: Int32 = 0) -> Never {
    try? FileManager.default.removeItem(at: folder)
    exit(status)
}
/// Stopped early (Ctrl-C, `kill`), the run still removes its folder; so it does when its output
/// pipe closes (`| head`): with SIGPIPE ignored, ``write(_:)`` sees the failed write.
signal(SIGPIPE, SIG_IGN)
let stopSignals = [SIGINT, SIGTERM, SIGHUP].map { number -> DispatchSourceSignal in
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler { finish(128 + number) }
    source.resume()
    return source
}
func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
func remove(_ name: String) { removeDatabaseFiles(atPath: path(name)) }
/// Removes the database at `path` with its write-ahead log and shared-memory index.
func removeDatabaseFiles(atPath path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
/// A raw engine on a new file `name` with Logbook's schema (an earlier file of that name removed;
/// close its engine first).
func freshRawEngine(_ name: String) -> RawEngine {
    remove(name)
    let engine = RawEngine(path: path(name))
    engine.createSchema()
    return engine
}

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("logbook").path
if options.has("--scale") {
    try ScaleCurve.run(sizes: options.sizes ?? [1_000_000, 5_000_000, 10_000_000], executable: executable, folder: path)
    finish()
}

if let file = options.text("--reports") {
    try ScaleCurve.timeReports(of: file, runs: options.number("--runs") ?? 2, only: options.text("--report"))
    finish()
}

var disagreements: [String] = []
@MainActor func agree(_ same: Bool, _ workload: String) {
    if !same { disagreements.append(workload) }
}

func formatSeconds(_ value: Double) -> String { String(format: "%8.3f s", value) }

/// Writes a line at once, so a long run shows its progress even through a pipe; stops the run
/// when no one reads it any more.
func write(_ line: String) {
    do {
        try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    } catch {
        finish(1)
    }
}

func report(_ name: String, logbook: Double, raw: Double, target: String) {
    let ratio = raw > 0 ? String(format: "%6.2fx", logbook / raw) : "     -"
    let line = name.padding(toLength: 52, withPad: " ", startingAt: 0) + formatSeconds(logbook) + "  " + formatSeconds(raw)
        + "  " + ratio + "  " + target
    write(line)
}

/// `LOGBOOK_BENCH_READERS=0` runs the store's reads on its writer connection, for an A/B of the read pool.
var storeOptions = Connection.Options()
if let readers = ProcessInfo.processInfo.environment["LOGBOOK_BENCH_READERS"].flatMap({ Int($0) }) {
    storeOptions.maximumReaders = readers
}

var sample = SampleData(seed: 42)
let days = sample.days(dayCount, perDay: 5)
let drafts = sample.drafts(draftCount)
write("logbook-bench: \(dayCount) days × 5 exercises, \(draftCount) drafts; median of \(runs) run(s); "
      + "SQLite \(String(cString: sqlite3_libversion())); \(ProcessInfo.processInfo.activeProcessorCount) cores")
write("workload".padding(toLength: 52, withPad: " ", startingAt: 0) + "   logbook        raw    ratio  target (issue 21; GRDB's ratio)")

// MARK: Insert through the repository API, one transaction

var store: Logbook?
var raw: RawEngine?
let (logbookInsert, rawInsert) = try pairedMedians(runs: runs, logbookSetup: {
    store = nil
    remove("logbook.sqlite")
    store = try Logbook(path: path("logbook.sqlite"), options: storeOptions)
}, logbook: {
    try store!.history.save(days)
}, rawSetup: {
    raw = nil
    raw = freshRawEngine("raw.sqlite")
}, raw: {
    raw!.insert(days)
})
report("insert \(dayCount * 5) exercises (repository, 1 txn)", logbook: logbookInsert, raw: rawInsert, target: "≤1.3x (GRDB 2.2x)")
guard let store, let raw else { fatalError("setup failed") }
if onlyInsert { finish() }
// MARK: Saves of one day each, a transaction each (an app saving today's record)

/// Days before the history, saved one per call into the store that holds it, each a transaction
/// of its own, in `runs` rounds of new days (the median round counts, as in the other workloads);
/// run last, since it adds days to both stores (or alone, `--only-saves`). Logbook leaves such
/// days to be tallied by a later write (every 257th save here counts the 256 before it); the
/// reports must count them.
@MainActor func timeSavesOfOneDayEach() throws {
    let savedDays = runs * singleSaveCount
    let singleDays = sample.days(2 * savedDays, perDay: 5, from: SampleData.firstDay.adding(days: -2 * savedDays)!)
    var round = -1
    let (logbookSingles, rawSingles) = try interleavedMedians(runs: runs, calls: singleSaveCount, logbookSetup: { round += 1 }, logbook: { call in
        try store.history.save([singleDays[round * singleSaveCount + call]])
    }, raw: { call in
        raw.insert([singleDays[savedDays + round * singleSaveCount + call]])
    })
    var reportedExercises = 0
    try store.reports.exercises { reportedExercises += $0.count }
    agree(reportedExercises == 5 * (dayCount + savedDays)
          && raw.days(from: nil, to: SampleData.firstDay.adding(days: -1)!).count == savedDays, "saves of one day")
    report("\(singleSaveCount) saves of one day each (a transaction each)", logbook: logbookSingles, raw: rawSingles,
           target: "≤1.3x (GRDB: .ci/grdb-comparison)")
}
if onlySaves {
    try timeSavesOfOneDayEach()
    finish(disagreements.isEmpty ? 0 : 1)
}

try store.underlyingDatabase.withConnection { try $0.execute("PRAGMA analysis_limit = 1000; ANALYZE") }
raw.analyze()

// MARK: Range fetches of 30 days, sorted by day

func windows(_ count: Int, length: Int, seed: UInt64) -> [(CalendarDay, CalendarDay)] {
    var random = SampleData(seed: seed)
    return (0..<count).map { _ in
        let first = SampleData.firstDay.adding(days: random.below(dayCount - length))!
        return (first, first.adding(days: length - 1)!)
    }
}
let rangeWindows = windows(fetchCount, length: 30, seed: 7)
var logbookRanges: [[ExerciseDay]] = []
var rawRanges: [[ExerciseDay]] = []
let (logbookRange, rawRange) = try interleavedMedians(runs: runs, calls: rangeWindows.count, logbookSetup: { logbookRanges = [] }, logbook: { call in
    let (first, last) = rangeWindows[call]
    let found = try store.history.fetch(FetchDescriptor(
        predicate: #Predicate<ExerciseDay> { $0.day >= first && $0.day <= last }, sortBy: [SortDescriptor(\.day)]))
    if logbookRanges.count < 100 { logbookRanges.append(found) }
}, rawSetup: { rawRanges = [] }, raw: { call in
    let (first, last) = rangeWindows[call]
    let found = raw.days(from: first, to: last)
    if rawRanges.count < 100 { rawRanges.append(found) }
})
agree(logbookRanges == rawRanges && logbookRanges.allSatisfy { $0.count == 30 }, "range fetch")
report("\(fetchCount) fetches of a 30-day window", logbook: logbookRange, raw: rawRange, target: "≤1.1x (GRDB 5.4x)")

// MARK: Fetch everything

var logbookAll: [ExerciseDay] = []
var rawAll: [ExerciseDay] = []
let (logbookFetchAll, rawFetchAll) = try pairedMedians(runs: runs, logbookSetup: { logbookAll = [] }, logbook: {
    logbookAll = try store.history.fetch(FetchDescriptor(sortBy: [SortDescriptor(\.day)]))
}, rawSetup: { rawAll = [] }, raw: {
    rawAll = raw.days(from: nil, to: nil)
})
agree(logbookAll == rawAll && rawAll == days, "fetch all")
report("fetch all \(dayCount) days as [ExerciseDay]", logbook: logbookFetchAll, raw: rawFetchAll, target: "≤1.1x (GRDB 9.2x)")
logbookAll = []
rawAll = []

// MARK: Counts of one exercise in a 365-day window

let countWindows = windows(fetchCount, length: 365, seed: 9)
var logbookCounts: [Int] = []
var rawCounts: [Int] = []
let (logbookCount, rawCount) = try interleavedMedians(runs: runs, calls: countWindows.count, logbookSetup: { logbookCounts = [] }, logbook: { call in
    let (first, last) = countWindows[call]
    let name = SampleData.exerciseNames[call % SampleData.exerciseNames.count]
    logbookCounts.append(try store.history.fetchCount(FetchDescriptor(
        predicate: #Predicate<ExerciseDay> { $0.day >= first && $0.day <= last && $0.exercises.contains(name) })))
}, rawSetup: { rawCounts = [] }, raw: { call in
    let (first, last) = countWindows[call]
    rawCounts.append(raw.countDays(with: SampleData.exerciseNames[call % SampleData.exerciseNames.count], from: first, to: last))
})
agree(logbookCounts == rawCounts && rawCounts.contains { $0 > 0 }, "count")
report("\(fetchCount) counts of one exercise in 365 days", logbook: logbookCount, raw: rawCount, target: "≤1.1x (GRDB 1.2x)")
if onlyFetches { finish() }

// MARK: The async forms, against the synchronous ones

// Both forms timed call by call, alternately, from one task off the main actor, as a view model's
// work runs (on Linux, resuming on the main actor adds a main-queue hop of about 80 to 135 µs to
// any await, measured with a bare continuation, which would measure the platform, not the store).
let (expectedRanges, expectedCounts) = (rawRanges, rawCounts)
let asyncComparison = try await Task.detached {
    func range(_ call: Int) -> FetchDescriptor<ExerciseDay> {
        let (first, last) = rangeWindows[call]
        return FetchDescriptor(predicate: #Predicate<ExerciseDay> { $0.day >= first && $0.day <= last }, sortBy: [SortDescriptor(\.day)])
    }
    var syncRanges: [[ExerciseDay]] = [], asyncRanges: [[ExerciseDay]] = []
    let ranges = try await alternatingMedians(runs: runs, calls: rangeWindows.count, setup: { (syncRanges, asyncRanges) = ([], []) }, sync: { call in
        let found = try store.history.fetch(range(call))
        if syncRanges.count < 100 { syncRanges.append(found) }
    }, async: { call in
        let found = try await store.history.fetch(range(call))
        if asyncRanges.count < 100 { asyncRanges.append(found) }
    })
    func count(_ call: Int) -> FetchDescriptor<ExerciseDay> {
        let (first, last) = countWindows[call], name = SampleData.exerciseNames[call % SampleData.exerciseNames.count]
        return FetchDescriptor(predicate: #Predicate<ExerciseDay> { $0.day >= first && $0.day <= last && $0.exercises.contains(name) })
    }
    var syncCounts: [Int] = [], asyncCounts: [Int] = []
    let counts = try await alternatingMedians(runs: runs, calls: countWindows.count, setup: { (syncCounts, asyncCounts) = ([], []) }, sync: { call in
        syncCounts.append(try store.history.fetchCount(count(call)))
    }, async: { call in
        asyncCounts.append(try await store.history.fetchCount(count(call)))
    })
    return (range: ranges, rangesAgree: syncRanges == expectedRanges && asyncRanges == expectedRanges,
            count: counts, countsAgree: syncCounts == expectedCounts && asyncCounts == expectedCounts)
}.value
agree(asyncComparison.rangesAgree, "async range fetch")
report("  the same, async (ratio to sync, call by call)", logbook: asyncComparison.range.async, raw: asyncComparison.range.sync,
       target: "≤1.1x sync")
agree(asyncComparison.countsAgree, "async count")
report("  the counts, async (ratio to sync, call by call)", logbook: asyncComparison.count.async, raw: asyncComparison.count.sync,
       target: "≤1.1x sync")

// The same fetches awaited from the main actor (top-level code runs there), as a view's own code
// would: each await leaves the main actor and resumes on it through the main queue, which the
// synchronous form, blocking the main thread instead, does not pay.
var mainActorRanges: [[ExerciseDay]] = []
let mainActorCalls = min(rangeWindows.count, 2_000)
let onMainActor = try await alternatingMedians(runs: runs, calls: mainActorCalls, setup: { mainActorRanges = [] }, sync: { call in
    let (first, last) = rangeWindows[call]
    _ = try store.history.fetch(FetchDescriptor(predicate: #Predicate<ExerciseDay> { $0.day >= first && $0.day <= last },
                                                sortBy: [SortDescriptor(\.day)]))
}, async: { call in
    let (first, last) = rangeWindows[call]
    let found = try await store.history.fetch(FetchDescriptor(predicate: #Predicate<ExerciseDay> { $0.day >= first && $0.day <= last },
                                                              sortBy: [SortDescriptor(\.day)]))
    if mainActorRanges.count < 100 { mainActorRanges.append(found) }
})
agree(mainActorRanges == Array(expectedRanges.prefix(mainActorRanges.count)), "async range fetch from the main actor")
report("  \(mainActorCalls) of them, async from the main actor", logbook: onMainActor.async, raw: onMainActor.sync,
       target: "(a hop each way)")

// MARK: Reads in one process beside each other and beside a write

_ = try store.backup(to: path("pool.sqlite"))
var singleOptions = Connection.Options()
singleOptions.maximumReaders = 0
let pooled = try Logbook(path: path("pool.sqlite"))
let single = try Logbook(path: path("pool.sqlite"), options: singleOptions)
let readerThreads = 4
/// The range fetches split over `readerThreads` threads, while `store` writes `extraDays` in one
/// transaction on another thread when asked; the readers' wall time.
func concurrentReads(_ store: Logbook, writing extraDays: [ExerciseDay]?) -> Double {
    let writer = extraDays.map { days in Thread { try! store.history.save(days) } }
    return seconds {
        writer?.start()
        DispatchQueue.concurrentPerform(iterations: readerThreads) { reader in
            let share = rangeWindows.count / readerThreads
            for (first, last) in rangeWindows[(reader * share)..<((reader + 1) * share)] {
                let found = try! store.history.fetch(FetchDescriptor(
                    predicate: #Predicate<ExerciseDay> { $0.day >= first && $0.day <= last }, sortBy: [SortDescriptor(\.day)]))
                precondition(found.count == 30)
            }
        }
        while writer.map({ !$0.isFinished }) ?? false { usleep(1_000) }
    }
}
/// Days after the sample history, the `batch`th tenth of its length.
func extraDays(batch: Int) -> [ExerciseDay] {
    var generator = SampleData(seed: UInt64(batch))
    return generator.days(dayCount / 10, perDay: 5, from: SampleData.firstDay.adding(days: dayCount + batch * dayCount / 10)!)
}
let pooledReads = try median(runs: runs) { _ = concurrentReads(pooled, writing: nil) }
let singleReads = try median(runs: runs) { _ = concurrentReads(single, writing: nil) }
report("\(fetchCount) fetches on \(readerThreads) threads: read pool / one connection", logbook: pooledReads, raw: singleReads,
       target: "< 1x")
var pooledBeside = 0.0, singleBeside = 0.0
for run in 0..<runs {
    let forPooled = extraDays(batch: 2 * run), forSingle = extraDays(batch: 2 * run + 1)
    pooledBeside += concurrentReads(pooled, writing: forPooled) / Double(runs)
    singleBeside += concurrentReads(single, writing: forSingle) / Double(runs)
}
report("  the same beside a \(dayCount / 2)-exercise write (mean)", logbook: pooledBeside, raw: singleBeside, target: "< 1x")

// MARK: Drafts: a #Predicate, two sort keys, limit 20

try store.drafts.save(contentsOf: drafts)
raw.registerStartsWith()
raw.insertDrafts(try store.drafts.fetch(FetchDescriptor(sortBy: [SortDescriptor(\.createdAt)])))
try store.underlyingDatabase.withConnection { try $0.execute("ANALYZE") }
raw.analyze()
let prefixes = ["0.", "1.1", "2.", "3.19", "1."]
var logbookPages: [[ReleaseDraft]] = []
var rawPages: [[ReleaseDraft]] = []
let (logbookDrafts, rawDrafts) = try interleavedMedians(runs: runs, calls: draftFetchCount, block: 10, logbookSetup: { logbookPages = [] }, logbook: { index in
    let prefix = prefixes[index % prefixes.count], minimum = index % 10
    logbookPages.append(try store.drafts.fetch(FetchDescriptor(
        predicate: #Predicate<ReleaseDraft> { $0.submittedAt == nil && $0.version.starts(with: prefix) && $0.checklist.count >= minimum },
        sortBy: [SortDescriptor(\.updatedAt, order: .reverse), SortDescriptor(\.version)], fetchLimit: 20)))
}, rawSetup: { rawPages = [] }, raw: { index in
    rawPages.append(raw.openDrafts(prefix: prefixes[index % prefixes.count], minimumItems: index % 10))
})
agree(logbookPages == rawPages && rawPages.contains { !$0.isEmpty }, "drafts fetch")
report("\(draftFetchCount) draft pages with checklists (#Predicate, 2 sorts, 20)", logbook: logbookDrafts, raw: rawDrafts,
       target: "≤1.5x")

// MARK: Hostile predicates: nested quantifiers, SQL against fetching everything and evaluating

var worstHostile = 0.0
let longNotes = try Logbook(path: path("long-notes.sqlite"))
try longNotes.drafts.save(contentsOf: HostilePredicates.longNotesDrafts(quick ? 50 : 1_000))
for (drafts, shapes) in [(store.drafts, HostilePredicates.shapes), (longNotes.drafts, HostilePredicates.longNotesShapes)] {
    for (name, predicate) in shapes {
        let byCreation = [SortDescriptor(\ReleaseDraft.createdAt)]
        var viaSQL: [ReleaseDraft] = [], inSwift: [ReleaseDraft] = []
        let sql = try median(runs: runs) { viaSQL = try drafts.fetch(FetchDescriptor(predicate: predicate, sortBy: byCreation)) }
        let evaluated = try median(runs: runs) {
            inSwift = try drafts.fetch(FetchDescriptor(sortBy: byCreation)).filter { try predicate.evaluate($0) }
        }
        agree(viaSQL == inSwift, "hostile predicate: \(name)")
        worstHostile = max(worstHostile, sql / evaluated)
        report("hostile: \(name) (vs evaluate)", logbook: sql, raw: evaluated, target: "≤ 2x")
    }
}
write("hostile-predicates: worst ratio \(String(format: "%.2fx", worstHostile)) (SQL against fetch-all + evaluate)")

// MARK: Reports on the whole history

/// How many rows a streaming report hands to its body.
func rowCount<Row>(_ report: ((Row) throws -> Void) throws -> Void) rethrows -> Int {
    var rows = 0
    try report { _ in rows += 1 }
    return rows
}

let reportWorkloads: [(name: String, run: () throws -> Int)] = [
    ("history --by day", { try rowCount { try store.reports.history(by: .day, $0) } }),
    ("history --by week", { try rowCount { try store.reports.history(by: .week, $0) } }),
    ("history --by month", { try rowCount { try store.reports.history(by: .month, $0) } }),
    ("history --by year", { try rowCount { try store.reports.history(by: .year, $0) } }),
    ("exercises", { try rowCount { try store.reports.exercises($0) } }),
    ("streaks", { try store.reports.streaks(asOf: SampleData.firstDay.adding(days: dayCount)).longestStreak }),
    ("drafts", { try rowCount { try store.reports.drafts($0) } }),
]
for (name, run) in reportWorkloads {
    var rows = 0
    let time = try median(runs: runs) { rows = try run() }
    // Every day of the sample history is recorded, so the daily report and the longest streak
    // both count them all; the other reports must at least be non-empty.
    agree(["history --by day", "streaks"].contains(name) ? rows == dayCount : rows > 0, "report \(name)")
    report("report \(name)", logbook: time, raw: 0, target: "< 1 s")
}

// MARK: Whole processes: import, export, peak memory

if FileManager.default.isExecutableFile(atPath: executable) {
    let ndjson = path("days.ndjson"), appJSON = path("days.json")
    let exported = runProcess(executable, ["--db", path("logbook.sqlite"), "export", "history", "--format", "ndjson", "-o", ndjson])
    agree(exported.status == 0, "export ndjson")
    try SampleData.appJSON(days).write(to: URL(fileURLWithPath: appJSON))

    // Each import alternates with a raw insert of the same days into a file of its own, so that
    // the two are timed in the same stretch of the machine's drift.
    var rawCopy: RawEngine?
    for (name, file) in [("NDJSON", ndjson), ("app JSON", appJSON)] {
        var peak = 0
        let (time, rawTime) = pairedMedians(runs: runs, logbookSetup: { remove("import.sqlite") }, logbook: {
            let result = runProcess(executable, ["--db", path("import.sqlite"), "import", file])
            agree(result.status == 0, "import \(name)")
            peak = result.peakKiB
        }, rawSetup: {
            rawCopy = nil
            rawCopy = freshRawEngine("raw-import.sqlite")
        }, raw: {
            rawCopy!.insert(days)
        })
        report("logbook import, \(name) (peak \(peak / 1024) MiB)", logbook: time, raw: rawTime, target: "≤1.3x raw insert")
    }
    rawCopy = nil
    remove("raw-import.sqlite")
    let imported = try Logbook(path: path("import.sqlite"))
    agree(try imported.history.fetchCount() == dayCount, "import count")

    var exportPeak = 0
    let exportTime = try median(runs: runs) {
        let result = runProcess(executable, ["--db", path("logbook.sqlite"), "export", "history", "--format", "csv"])
        agree(result.status == 0, "export csv")
        exportPeak = result.peakKiB
    }
    let shell = "/usr/bin/sqlite3"
    let shellTime = FileManager.default.isExecutableFile(atPath: shell) ? try median(runs: runs) {
        _ = runProcess(shell, ["-csv", "-header", path("logbook.sqlite"), """
            SELECT d.id, d.day, d.date, e.position, e.name FROM exercise_days AS d JOIN exercises AS e ON e.day_pk = d.pk
            ORDER BY d.day, e.position
            """])
    } : 0
    report("logbook export --format csv (peak \(exportPeak / 1024) MiB)", logbook: exportTime, raw: shellTime, target: "≤2x sqlite3 -csv")

    // Start-up: a script that logs one exercise per call pays a whole process each time. Each call
    // appends one exercise to another day of a small history (as a day's sessions are logged), against
    // the sqlite3 shell (a C program) appending the same row to a copy of the same file.
    if FileManager.default.isExecutableFile(atPath: shell) {
        let calls = quick ? 5 : 200
        let small = try Logbook(path: path("startup.sqlite"), timeZone: TimeZone(identifier: "UTC")!)
        let firstDay = CalendarDay(year: 2026, month: 1, day: 1)!
        let startupDays = (0..<calls).map { firstDay.adding(days: $0)! }
        try small.history.save(startupDays.map { ExerciseDay(id: UUID(), date: $0.start(in: TimeZone(identifier: "UTC")!) + 3_600, day: $0,
                                                             exercises: ["Squat", "Row", "Plank"]) })
        _ = try small.backup(to: path("startup-shell.sqlite"))
        func processes(_ program: String, _ arguments: (Int) -> [String]) -> Double {
            (0..<calls).reduce(0) { total, call in
                let result = spawn(program, arguments(call))
                agree(result.status == 0, "start-up: \(program) \(arguments(call).joined(separator: " "))")
                return total + result.seconds
            }
        }
        let logbookVersion = try median(runs: runs) { _ = processes(executable) { _ in ["--version"] } }
        let shellVersion = try median(runs: runs) { _ = processes(shell) { _ in ["--version"] } }
        report("\(calls) × logbook --version / sqlite3 --version", logbook: logbookVersion, raw: shellVersion, target: "as close as Swift allows")
        let logbookAdd = try median(runs: runs) {
            _ = processes(executable) { ["--db", path("startup.sqlite"), "--time-zone", "UTC", "history", "add", "--at", "\(startupDays[$0]) 18:00", "Run"] }
        }
        let shellAdd = try median(runs: runs) {
            _ = processes(shell) { [path("startup-shell.sqlite"), """
                INSERT INTO exercises (day_pk, position, name, name_key)
                    SELECT pk, (SELECT max(position) + 1 FROM exercises WHERE day_pk = d.pk), 'Run', 'Run'
                    FROM exercise_days AS d WHERE day = '\(startupDays[$0])'
                """] }
        }
        report("\(calls) × logbook history add / sqlite3 insert", logbook: logbookAdd, raw: shellAdd, target: "≤3x sqlite3")
    }
    // CI's guard that the scale curve runs too, at tiny sizes.
    if quick { try ScaleCurve.run(sizes: [5_000, 10_000], executable: executable, folder: path) }
} else {
    write("(process workloads skipped: no logbook executable beside logbook-bench; run `swift build` first)")
}

try timeSavesOfOneDayEach()

if disagreements.isEmpty {
    write("results agree: every workload returned the same records from both engines")
} else {
    write("results DISAGREE in: \(disagreements.joined(separator: ", "))")
    finish(1)
}
finish()
