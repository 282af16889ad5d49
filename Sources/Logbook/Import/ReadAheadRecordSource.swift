import Foundation
import SQLiteQuery

/// A record source that reads another one on a thread of its own, a few batches ahead of the
/// import that writes its records: parsing the file (about 7% of a large NDJSON import's
/// instructions) then runs beside SQLite's writes instead of between them.
///
/// The records come out exactly as the source gives them, in order, and a failure of the source
/// is thrown where the source threw it, after every record before it: an import sees what it saw
/// reading the source itself. At most ``batchesAhead`` batches wait, each of at most
/// ``batchSize`` records or about ``batchByteLimit`` bytes of the file (and one record, however
/// big); with the batch being taken and the one being read, four at most are held, so memory
/// stays flat. Dropping the reader stops the thread and waits until it has let go of the source,
/// so the source and its file are the caller's again; a source that can wait for input (a pipe, a
/// terminal) must not be read ahead, as that wait could then last as long as its writer likes.
final class ReadAheadRecordSource: RecordSource {
    /// Records a batch holds at most: each hand-over may wake a thread, which costs tens of
    /// microseconds on a virtual machine.
    static let batchSize = 512
    /// Bytes of the file a batch is read from at most, about.
    static let batchByteLimit = 1 << 20
    /// Batches read and not yet taken, at most.
    static let batchesAhead = 2

    private let channel = Channel()
    /// The reading thread; nil when none could be made.
    private var thread: WorkerThread?
    /// The batch being taken, and the next record's place in it.
    private var current = Batch()
    private var nextIndex = 0
    /// The bytes of the file consumed through the last record taken.
    private(set) var offset = 0
    private(set) var kind: RecordKind?

    /// Starts reading `source` on a thread of its own; `offset` tells how many bytes of the file
    /// the source has consumed, and is asked on that thread after each record. Nil, with nothing
    /// read, when no thread could be made (a process limit): the source is then read as the
    /// import goes.
    init?(_ source: some RecordSource, offset: @escaping () -> Int) {
        kind = source.kind
        let reading = Reading(source: source, offset: offset, channel: channel)
        thread = WorkerThread.start { reading.run() }
        if thread == nil { return nil }
    }

    deinit {
        channel.stop()
        thread?.join()
    }

    func next() throws -> ImportedRecord? {
        while nextIndex == current.records.count {
            switch current.end {
            case .failed(let failure): throw failure
            case .exhausted(let endOffset):
                offset = endOffset
                return nil
            case nil: break
            }
            current = channel.take()
            nextIndex = 0
            kind = current.kind
        }
        defer { nextIndex += 1 }
        offset = current.offsets[nextIndex]
        return current.records[nextIndex]
    }

    /// Records read in order, with the file's offset after each, and how the reading ended when
    /// it did after them.
    private struct Batch {
        var records: [ImportedRecord] = []
        var offsets: [Int] = []
        var kind: RecordKind?
        var end: End?
    }

    private enum End {
        /// The source has no more records; the bytes of the file it consumed in all.
        case exhausted(offset: Int)
        case failed(any Error)
    }

    /// The batches handed from the reading thread to the import's, under one lock.
    private final class Channel: @unchecked Sendable {
        private let condition = NSCondition()
        private var ready: [Batch] = []
        private var isStopped = false

        /// Waits for room, and hands `batch` over; false when the reader was dropped.
        func put(_ batch: Batch) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while ready.count >= ReadAheadRecordSource.batchesAhead && !isStopped { condition.wait() }
            guard !isStopped else { return false }
            ready.append(batch)
            condition.broadcast()
            return true
        }

        /// Whether the reader was dropped, for the reading thread to stop within a batch.
        var shouldStop: Bool {
            condition.lock()
            defer { condition.unlock() }
            return isStopped
        }

        /// Waits for the next batch and takes it.
        func take() -> Batch {
            condition.lock()
            defer { condition.unlock() }
            while ready.isEmpty { condition.wait() }
            condition.broadcast()
            return ready.removeFirst()
        }

        /// Tells the reading thread to stop within a batch, and drops the batches read.
        func stop() {
            condition.lock()
            isStopped = true
            ready.removeAll()
            condition.broadcast()
            condition.unlock()
        }
    }

    /// What the reading thread owns: the source, until it ends or the reader is dropped.
    private final class Reading: @unchecked Sendable {
        /// Nil once the thread has let go of them, before it returns.
        private var source: (any RecordSource)?
        private var offset: (() -> Int)?
        private let channel: Channel

        init(source: some RecordSource, offset: @escaping () -> Int, channel: Channel) {
            self.source = source
            self.offset = offset
            self.channel = channel
        }

        func run() {
            readBatches()
            // The source and, through it, the file are let go of before the thread returns, which
            // the reader waits for before the caller has them back.
            source = nil
            offset = nil
        }

        private func readBatches() {
            guard var source, let offset else { return }
            while true {
                var batch = Batch()
                batch.records.reserveCapacity(ReadAheadRecordSource.batchSize)
                batch.offsets.reserveCapacity(ReadAheadRecordSource.batchSize)
                let start = offset()
                do {
                    while batch.records.count < ReadAheadRecordSource.batchSize,
                          offset() - start < ReadAheadRecordSource.batchByteLimit {
                        guard let record = try source.next() else {
                            batch.end = .exhausted(offset: offset())
                            break
                        }
                        batch.records.append(record)
                        batch.offsets.append(offset())
                        if batch.records.count % 64 == 0, channel.shouldStop { return }
                    }
                } catch {
                    batch.end = .failed(error)
                }
                batch.kind = source.kind
                guard channel.put(batch), batch.end == nil else { return }
            }
        }
    }
}
