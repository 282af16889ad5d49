import Foundation
import SQLiteQuery

/// A bulk write's ``NewDayCounts``, counted on a thread of its own while the writing thread goes
/// on writing rows. Counting the names in memory is about a third of what the tallies cost a bulk
/// import (1.6 of 4.6 billion instructions for 200,000 days under `callgrind`), and the writing
/// thread is the one that sets an import's pace.
///
/// The days are handed over in batches of ``batchSize``: a batch is counted on the thread once it
/// is full (the first full batch starts the thread; a write of fewer days never does), and the
/// days of a batch not yet full are counted by the caller when it takes the counts back
/// (``finish()``). Every day is counted once, in the order given, so the counts are those that
/// counting each day on the caller's thread gives. At most two batches wait or are being counted,
/// so memory stays flat. Dropping the counter before ``finish()`` (a write that failed) stops the
/// thread once its batch is counted, and waits for it.
final class CountingThread {
    /// Days a batch holds: each hand-over may wake a thread, which costs tens of microseconds on a
    /// virtual machine.
    static let batchSize = 512

    /// A day to count.
    typealias Day = (exercises: [String], day: CalendarDay)

    private let shared: Shared
    /// The batch being filled.
    private var filling: [Day] = []
    /// The thread counting, once the first full batch started it.
    private var thread: WorkerThread?
    /// Whether no thread could be made (a process limit): the batches are counted on the caller's.
    private var countsOnCaller = false
    /// Whether ``finish()`` was called: the counter counts no more days then.
    private var isFinished = false

    /// Counts on from `counts` (the days counted so far).
    init(counting counts: NewDayCounts) {
        shared = Shared(counts: counts)
        filling.reserveCapacity(Self.batchSize)
    }

    deinit {
        stopThread()
    }

    /// Counts `exercises` done on `day`, a new day, and returns the totals of the days whose
    /// counting ended since the last call, in the order given (each new day with an exercise has
    /// its totals once, here or from ``finish()``).
    func add(_ exercises: [String], on day: CalendarDay) -> [NewDayCounts.DayTotals] {
        // (Its thread has stopped for good: a batch handed to it would never be taken.)
        precondition(!isFinished, "a counter's days were added after its counts were taken back")
        filling.append((exercises, day))
        guard filling.count == Self.batchSize else { return [] }
        if thread == nil && !countsOnCaller {
            let shared = shared
            thread = WorkerThread.start { shared.run() }
            countsOnCaller = thread == nil
        }
        defer { filling.removeAll(keepingCapacity: true) }
        let totals: [NewDayCounts.DayTotals]
        (totals, pendingCount) = countsOnCaller ? shared.countHere(filling) : shared.hand(filling)
        return totals
    }

    /// The tallies and weeks counted (``NewDayCounts/tallies`` and ``NewDayCounts/weekTotals``)
    /// as of the last batch counted when a batch was last handed over: what tells when to write them.
    private(set) var pendingCount = 0

    /// Waits until every batch handed over is counted, stops the thread, counts the days of the
    /// batch being filled, and returns the counts and the totals of the days not returned yet;
    /// once: the counter is done then (days counted after need a counter of their own).
    func finish() -> (counts: NewDayCounts, totals: [NewDayCounts.DayTotals]) {
        precondition(!isFinished, "a counter's counts were taken back twice")
        isFinished = true
        stopThread()
        var (counts, totals) = shared.takeAll()
        for day in filling {
            if let dayTotals = counts.add(day.exercises, on: day.day) { totals.append(dayTotals) }
        }
        filling.removeAll()
        return (counts, totals)
    }

    /// Lets the thread count what it was handed, then stops it and waits until it has returned.
    private func stopThread() {
        guard let thread else { return }
        shared.stop()
        thread.join()
        self.thread = nil
    }

    /// What the two threads share, under one lock: the batches handed over, the totals counted,
    /// and the counts, which the counting thread alone touches while it runs.
    private final class Shared: @unchecked Sendable {
        private let condition = NSCondition()
        private var counts: NewDayCounts
        /// The batch handed over and not yet taken by the thread.
        private var waiting: [Day]?
        /// The totals of the days counted and not yet taken.
        private var totals: [NewDayCounts.DayTotals] = []
        /// The counts' tallies and weeks as of the last batch counted.
        private var pending = 0
        private var isStopped = false

        init(counts: NewDayCounts) { self.counts = counts }

        /// Waits until the thread has taken the batch handed over before, hands `batch` over,
        /// and takes the totals counted so far, with the counts' size after the last batch counted.
        func hand(_ batch: [Day]) -> (totals: [NewDayCounts.DayTotals], pending: Int) {
            condition.lock()
            defer { condition.unlock() }
            while waiting != nil { condition.wait() }
            waiting = batch
            condition.broadcast()
            defer { totals = [] }
            return (totals, pending)
        }

        /// The counting thread: counts each batch handed over until stopped.
        func run() {
            condition.lock()
            while true {
                while waiting == nil && !isStopped { condition.wait() }
                guard let batch = waiting else { break }
                waiting = nil
                condition.broadcast()
                condition.unlock()
                // (The counts are this thread's while it counts: the caller reads them only once
                // the thread has stopped.)
                let (counted, pending) = count(batch)
                condition.lock()
                totals.append(contentsOf: counted)
                self.pending = pending
                condition.broadcast()
            }
            condition.unlock()
        }

        /// Counts `batch` (on the thread, or on the caller's when there is none): the totals of its
        /// days, with the counts' tallies and weeks after it.
        private func count(_ batch: [Day]) -> (totals: [NewDayCounts.DayTotals], pending: Int) {
            var counted: [NewDayCounts.DayTotals] = []
            counted.reserveCapacity(batch.count)
            for day in batch {
                if let dayTotals = counts.add(day.exercises, on: day.day) { counted.append(dayTotals) }
            }
            return (counted, counts.tallies.count + counts.weekTotals.count)
        }

        /// Counts `batch` on the caller's thread, when no thread could be made.
        func countHere(_ batch: [Day]) -> (totals: [NewDayCounts.DayTotals], pending: Int) {
            condition.lock()
            defer { condition.unlock() }
            let (counted, pending) = count(batch)
            self.pending = pending
            return (counted, pending)
        }

        /// Tells the thread to return once it has counted what it was handed.
        func stop() {
            condition.lock()
            isStopped = true
            condition.broadcast()
            condition.unlock()
        }

        /// The counts and the totals not taken yet, moved out (the caller's copy is then the only
        /// one, which it changes in place); once the thread has returned, or if it never started.
        func takeAll() -> (NewDayCounts, [NewDayCounts.DayTotals]) {
            condition.lock()
            defer { condition.unlock() }
            let taken = (counts, totals)
            (counts, totals) = (NewDayCounts(), [])
            return taken
        }
    }
}
