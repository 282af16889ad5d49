import Foundation
import Logbook

/// `logbook-bench --scale [--sizes N,N,…]`: imports histories of 1, 5 and 10 million exercises
/// (5 a day) with the `logbook` executable, and prints for each size the import's time per
/// exercise beside the raw engine's plain insert of the same days, the import's peak memory, the
/// file's size, the latency of a 30-day range fetch and of a 365-day count, each report's time
/// (and the daily one's from the CLI, as CSV), and SQLite's own time to step the rows of the
/// daily and weekly reports (``RawTotalsScan``), so the curve shows what grows with the history
/// and how far the reports are from SQLite's floor.
enum ScaleCurve {
    static func run(sizes: [Int], executable: String, folder: (String) -> String) throws {
        write("logbook-bench --scale: \(sizes.map(String.init).joined(separator: ", ")) exercises, 5 a day")
        write(["exercises", "import µs/ex", "raw µs/ex", "peak MiB", "file MiB", "range ms/raw", "count ms/raw"].map { $0.padding(toLength: 13, withPad: " ", startingAt: 0) }
                .joined() + "reports (s): " + reports.map(\.name).joined(separator: " | ") + " | CLI by day, csv | "
              + RawTotalsScan.scans.map(\.name).joined(separator: " | "))
        for size in sizes {
            let dayCount = size / 5
            let ndjson = folder("scale-\(size).ndjson"), database = folder("scale-\(size).sqlite")
            try writeHistory(days: dayCount, to: ndjson)
            let imported = runProcess(executable, ["--db", database, "--time-zone", "UTC", "import", ndjson])
            try? FileManager.default.removeItem(atPath: ndjson)
            guard imported.status == 0 else { throw ScaleError.importFailed(size) }
            let fileSize = (try FileManager.default.attributesOfItem(atPath: database)[.size] as? Int) ?? 0
            let rawInsert = rawInsertSeconds(days: dayCount, at: folder("scale-\(size)-raw.sqlite"))
            let store = try Logbook(path: database, timeZone: TimeZone(identifier: "UTC")!)
            guard try store.history.count() == dayCount else { throw ScaleError.wrongCount(size) }
            let last = SampleData.firstDay.adding(days: dayCount - 1)!
            let latency = try ProbeLatency.measure(store, RawEngine(path: database), first: SampleData.firstDay, days: dayCount, seed: UInt64(size))
            let reportTimes = try reports.map { report in try seconds { try report.run(store, last) } }
                // As a script gets it: a process of its own, which also checks the tallies, and every row printed.
                + [runProcess(executable, ["--db", database, "report", "history", "--by", "day", "--format", "csv"]).seconds]
                + RawTotalsScan.scans.map { RawTotalsScan.time($0.sql, in: database) }
            let cells = [String(size), String(format: "%.2f", imported.seconds / Double(size) * 1e6),
                         String(format: "%.2f", rawInsert / Double(size) * 1e6), String(imported.peakKiB / 1024),
                         String(fileSize / 1_048_576), latency.range.cell, latency.count.cell]
            write(cells.map { $0.padding(toLength: 13, withPad: " ", startingAt: 0) }.joined()
                  + reportTimes.map { String(format: "%.3f", $0) }.joined(separator: " | "))
            try? FileManager.default.removeItem(atPath: database)
        }
    }

    /// `logbook-bench --reports FILE [--runs N]`: each report on an existing logbook, timed N times
    /// (default 2: the first call on a connection also checks that the tallies are current), then
    /// the range and count probes beside the raw engine (``ProbeLatency``) when the history spans
    /// more than a year; only the one named `only` when given ("probes" for the two probes).
    static func timeReports(of path: String, runs: Int, only: String?) throws {
        let store = try Logbook(path: path, timeZone: TimeZone(identifier: "UTC")!)
        let last = try store.history.fetch(FetchDescriptor(sortBy: [SortDescriptor(\.day, order: .reverse)], fetchLimit: 1)).first?.day
            ?? CalendarDay(Date(), in: TimeZone(identifier: "UTC")!)
        func time(_ name: String, _ run: () throws -> Double) rethrows {
            guard only.map({ $0 == name }) ?? true else { return }
            let times = try (0..<runs).map { _ in try run() }
            write(name.padding(toLength: 12, withPad: " ", startingAt: 0) + times.map { String(format: "%.3f s", $0) }.joined(separator: "  "))
        }
        for (name, run) in reports { try time(name) { try seconds { try run(store, last) } } }
        for (name, sql) in RawTotalsScan.scans { time(name) { RawTotalsScan.time(sql, in: path) } }
        guard only == nil || only == "probes", let first = try store.history.fetch(FetchDescriptor(sortBy: [SortDescriptor(\.day)], fetchLimit: 1)).first?.day,
              case let span = last.dayNumber - first.dayNumber + 1, span > 366 else { return }
        let latency = try ProbeLatency.measure(store, RawEngine(path: path), first: first, days: span, seed: 1)
        write("range ms    \(latency.range.cell) (Logbook/raw, 30 days with their exercises)")
        write("count ms    \(latency.count.cell) (Logbook/raw, days of 365 with one exercise)")
    }

    private enum ScaleError: Error {
        case importFailed(Int), wrongCount(Int)
    }

    /// Every report, each reading all its rows.
    private static let reports: [(name: String, run: @Sendable (Logbook, CalendarDay) throws -> Void)] = [
        ("by day", { store, _ in try store.reports.history(by: .day) { _ in } }),
        ("by week", { store, _ in try store.reports.history(by: .week) { _ in } }),
        ("by month", { store, _ in try store.reports.history(by: .month) { _ in } }),
        ("by year", { store, _ in try store.reports.history(by: .year) { _ in } }),
        ("exercises", { store, _ in try store.reports.exercises { _ in } }),
        ("streaks", { store, last in _ = try store.reports.streaks(asOf: last) }),
    ]

    /// The history of `days` days of 5 exercises from SampleData.firstDay, in pieces of 20,000
    /// days so that memory stays flat: the same days for the import and the raw insert.
    private static func history(days: Int) -> some Sequence<[ExerciseDay]> {
        sequence(state: (sample: SampleData(seed: 7), start: 0)) { state in
            guard state.start < days else { return nil }
            let count = min(20_000, days - state.start)
            defer { state.start += count }
            return state.sample.days(count, perDay: 5, from: SampleData.firstDay.adding(days: state.start)!)
        }
    }

    /// ``history(days:)`` as NDJSON, written piece by piece.
    private static func writeHistory(days: Int, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        for piece in history(days: days) {
            var text = ""
            for day in piece {
                text += #"{"id":"\#(day.id.uuidString)","day":"\#(day.day)","date":"\#(day.date.iso8601Microseconds)","exercises":["#
                    + day.exercises.map { "\"\($0)\"" }.joined(separator: ",") + "]}\n"
            }
            try file.write(contentsOf: Data(text.utf8))
        }
    }

    /// Seconds for the raw engine to insert ``history(days:)`` into a new file at `path` in one
    /// transaction (``RawEngine/bulkInsert(_:)``), the file removed after: the floor under the
    /// import's time per exercise at that size, which grows too once the unique index on the
    /// days' random ids outgrows the page cache.
    private static func rawInsertSeconds(days: Int, at path: String) -> Double {
        defer { removeDatabaseFiles(atPath: path) }
        let engine = RawEngine(path: path)
        engine.createSchema()
        return engine.bulkInsert(history(days: days))
    }
}
