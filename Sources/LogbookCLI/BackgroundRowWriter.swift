import Foundation
import Logbook
import SQLiteQuery

/// Writes rows with a ``RowStreamWriter`` on a thread of its own: the command's thread steps
/// SQLite and hands each row over as it comes, while this one makes the row's cells, formats
/// and writes the rows before it, so a big report or query uses two cores (making and
/// formatting the cells took about two fifths of a daily CSV report's time). Rows go over in
/// batches of at most 8,192 rows or about 1 MiB, at most two waiting, so memory stays flat
/// however many rows there are and however big each is, and the rows come out in order.
///
/// The first write that fails stops the rows after it; its error is thrown from the next
/// ``add(_:)`` or from ``finish()``. Rows handed over are written before this goes away (a
/// command that fails half-way prints what it printed before, and nothing writes to stdout after
/// the command returns). Only the command's thread holds this; the writing thread holds the
/// ``Writing`` state, so the wait in `deinit` never runs on the thread it waits for.
final class BackgroundRowWriter<Row: SizedRow> {
    private let writing: Writing
    /// The batches handed to the writing thread, and the thread, once it is started.
    private var handing: (batches: Handing, thread: WorkerThread)?
    /// Whether no thread could be made (a process limit): rows are written on the command's
    /// thread then. (A dispatch queue here waited for a thread for ever: helper-76.)
    private var writesHere = false
    /// Rows not handed over yet.
    private var batch: [Row] = []
    /// About how many bytes the rows of `batch` hold.
    private var batchBytes = 0
    /// Rows a batch holds at most: each hand-over wakes the writing thread, which costs tens of
    /// microseconds on a virtual machine.
    private static var batchSize: Int { 8_192 }
    /// Bytes a batch holds at most, about (and one row, however big).
    private static var batchByteLimit: Int { 1 << 20 }

    /// Starts the output (the header row, `[`) on the calling thread; each row is written as the
    /// cells `cells` makes of it.
    init(_ writer: RowStreamWriter, cells: @escaping @Sendable (Row) -> [Cell]) throws {
        var writer = writer
        try writer.begin()
        writing = Writing(writer: writer, cells: cells)
        batch.reserveCapacity(Self.batchSize)
    }

    deinit {
        closeAndWait()
    }

    /// Takes one row; throws the error of a write that failed before.
    func add(_ row: Row) throws {
        batchBytes += row.approximateByteCount
        batch.append(row)
        if batch.count == Self.batchSize || batchBytes >= Self.batchByteLimit { try handOver() }
    }

    /// Writes the rows left and ends the output; throws the first error writing.
    func finish() throws {
        try handOver()
        closeAndWait()
        writing.end()
        if let failure = writing.firstFailure { throw failure }
    }

    private func handOver() throws {
        if let failure = writing.firstFailure { throw failure }
        guard !batch.isEmpty else { return }
        let rows = batch
        batch = []
        batchBytes = 0
        batch.reserveCapacity(Self.batchSize)
        if handing == nil && !writesHere {
            let batches = Handing(), writing = writing
            if let thread = WorkerThread.start({ batches.run(writing) }) { handing = (batches, thread) } else { writesHere = true }
        }
        if let handing { handing.batches.hand(rows) } else { writing.write(rows) }
    }

    /// Lets the writing thread write what it was handed, and waits until it has returned.
    private func closeAndWait() {
        guard let handing else { return }
        handing.batches.close()
        handing.thread.join()
        self.handing = nil
    }

    /// The batches on their way to the writing thread, under one lock: at most two handed over
    /// and not yet written, the one being written included.
    private final class Handing: @unchecked Sendable {
        private let condition = NSCondition()
        private var waiting: [[Row]] = []
        /// Batches handed over and not yet written.
        private var unwritten = 0
        private var isClosed = false

        /// Waits for room, then hands `rows` over.
        func hand(_ rows: [Row]) {
            condition.lock()
            defer { condition.unlock() }
            while unwritten == 2 { condition.wait() }
            waiting.append(rows)
            unwritten += 1
            condition.broadcast()
        }

        /// The writing thread: writes each batch in turn until closed and empty.
        func run(_ writing: Writing) {
            condition.lock()
            while true {
                while waiting.isEmpty && !isClosed { condition.wait() }
                guard !waiting.isEmpty else { break }
                let rows = waiting.removeFirst()
                condition.broadcast()
                condition.unlock()
                writing.write(rows)
                condition.lock()
                unwritten -= 1
                condition.broadcast()
            }
            condition.unlock()
        }

        /// Tells the thread to return once it has written what it was handed.
        func close() {
            condition.lock()
            isClosed = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// What the writing thread uses: the writer, and the first error it met (read by both threads).
    private final class Writing: @unchecked Sendable {
        /// Used on the writing thread only.
        private var writer: RowStreamWriter
        private let cells: @Sendable (Row) -> [Cell]
        private let lock = NSLock()
        /// The first error writing, under `lock`.
        private var failure: Error?

        init(writer: RowStreamWriter, cells: @escaping @Sendable (Row) -> [Cell]) {
            self.writer = writer
            self.cells = cells
        }

        var firstFailure: Error? {
            lock.withLock { failure }
        }

        func write(_ rows: [Row]) {
            guard firstFailure == nil else { return }
            do {
                for row in rows { try writer.write(cells(row)) }
            } catch {
                record(error)
            }
        }

        func end() {
            guard firstFailure == nil else { return }
            do { try writer.end() } catch { record(error) }
        }

        private func record(_ error: Error) {
            lock.withLock { failure = failure ?? error }
        }
    }
}
