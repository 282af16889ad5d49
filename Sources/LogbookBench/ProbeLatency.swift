import Foundation
import Logbook

/// The scale curve's two probes on one file, each through Logbook's public API and through the
/// raw engine (``RawEngine``) on the same file for the same random days, alternately
/// (``pairedMedians(runs:logbookSetup:logbook:rawSetup:raw:)``): a fetch of 30 days with their
/// exercises, and a count of the days of 365 on which one exercise was done. What the raw engine
/// takes at each size is SQLite's own latency there: B-trees a level deeper and pages further
/// apart cost both engines alike, and only Logbook's share beyond it is Logbook's.
enum ProbeLatency {
    /// Milliseconds a probe through Logbook, and through the raw engine.
    struct Pair {
        let logbook: Double, raw: Double
        /// "0.134/0.120": Logbook's milliseconds, then the raw engine's.
        var cell: String { String(format: "%.3f/%.3f", logbook * 1000, raw * 1000) }
    }

    /// Probes the history between `first` and `days` days later (366 or more) with 200 ranges and
    /// 200 counts drawn from `seed`, each set timed 3 times per engine; throws when the engines
    /// disagree.
    static func measure(_ store: Logbook, _ engine: RawEngine, first: CalendarDay, days: Int,
                        seed: UInt64) throws -> (range: Pair, count: Pair) {
        let probes = 200, runs = 3
        var random = SampleData(seed: seed)
        let ranges = (0..<probes).map { _ in
            let start = first.adding(days: random.below(days - 30))!
            return (from: start, to: start.adding(days: 29)!)
        }
        let counts = (0..<probes).map { _ in
            let start = first.adding(days: random.below(days - 365))!
            return (from: start, to: start.adding(days: 364)!,
                    name: SampleData.exerciseNames[random.below(SampleData.exerciseNames.count)])
        }
        var logbookDays: [[ExerciseDay]] = [], rawDays: [[ExerciseDay]] = []
        let range = try pairedMedians(runs: runs, logbook: {
            logbookDays = try ranges.map { from, to in
                try store.history.fetch(FetchDescriptor(
                    predicate: #Predicate<ExerciseDay> { $0.day >= from && $0.day <= to }, sortBy: [SortDescriptor(\.day)]))
            }
        }, raw: {
            rawDays = ranges.map { engine.days(from: $0.from, to: $0.to) }
        })
        guard logbookDays == rawDays, rawDays.contains(where: { !$0.isEmpty }) else { throw Disagreement(probe: "range") }
        var logbookCounts: [Int] = [], rawCounts: [Int] = []
        let count = try pairedMedians(runs: runs, logbook: {
            logbookCounts = try counts.map { from, to, name in
                try store.history.fetchCount(FetchDescriptor(
                    predicate: #Predicate<ExerciseDay> { $0.day >= from && $0.day <= to && $0.exercises.contains(name) }))
            }
        }, raw: {
            rawCounts = counts.map { engine.countDays(with: $0.name, from: $0.from, to: $0.to) }
        })
        guard logbookCounts == rawCounts, rawCounts.contains(where: { $0 > 0 }) else { throw Disagreement(probe: "count") }
        return (Pair(logbook: range.logbook / Double(probes), raw: range.raw / Double(probes)),
                Pair(logbook: count.logbook / Double(probes), raw: count.raw / Double(probes)))
    }

    /// The two engines returned different results for a probe.
    struct Disagreement: Error { let probe: String }
}
