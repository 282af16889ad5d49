import Foundation
import Observation

/// A value read from the store that stays current: the records of a fetch, a count or a report,
/// fetched again whenever this process or any other commits a change to the file, and replaced
/// only when the change alters it. An `@Observable` object on the main actor, for a SwiftUI view
/// (through `LiveFetch` where SwiftUI exists) or an `@Observable` view model:
///
/// ```swift
/// @Observable @MainActor final class DraftsModel {
///     let open: LiveQuery<[ReleaseDraft]>
///     init(store: Logbook) {
///         open = store.drafts.liveQuery(FetchDescriptor(predicate: #Predicate { $0.submittedAt == nil }))
///     }
/// }
/// ```
///
/// Reading ``value`` in a view or inside `withObservationTracking` registers for its changes.
/// Each replacement of ``value`` follows a commit that changed the result: commits that leave it
/// alone change nothing, and a burst of commits is coalesced, never more than one update per
/// commit. A fetch that fails sets ``error`` and keeps ``value``; it is fetched again at each
/// interval, and a fetch that succeeds clears ``error`` (a value another program stored that
/// Logbook cannot read stopped the updates for good, where the next commit had put it right:
/// helper-91). Updates stop when the object is released, or when the file is deleted, moved or
/// replaced.
@MainActor
@Observable
public final class LiveQuery<Value: Encodable & Sendable> {
    /// The latest result; the `initial` value until the first load finishes.
    public private(set) var value: Value
    /// Whether the first result is still loading.
    public private(set) var isLoading = true
    /// Why the last fetch failed, while it fails (another program's value Logbook cannot read, a
    /// lock held past the busy timeout), until a fetch succeeds; or what
    /// stopped the updates for good (a predicate that cannot be translated, a file that went away).
    public private(set) var error: (any Error)?

    @ObservationIgnored private let updates = UpdateTask()
    @ObservationIgnored private var waitingForFirstLoad: [CheckedContinuation<Void, Never>] = []

    /// Starts loading the values of `results` into ``value``, which holds `initial` until the first
    /// arrives, and its failures into ``error``.
    init(initial: Value, results: AsyncThrowingStream<Result<Value, any Error>, Error>) {
        value = initial
        updates.task = Task { [weak self] in
            do {
                for try await result in results {
                    guard let self else { return }
                    switch result {
                    case .success(let value):
                        self.value = value
                        self.error = nil
                    case .failure(let error):
                        self.error = error
                    }
                    self.finishLoading()
                }
                // The stream ended without a first value (cancelled): nobody waits for one.
                self?.finishLoading()
            } catch {
                guard let self else { return }
                self.error = error
                self.finishLoading()
            }
        }
    }

    /// Returns once the first result (or the error that stopped the query) is in: for code that
    /// must not show the `initial` value, as an app's launch screen.
    public func loaded() async {
        guard isLoading else { return }
        await withCheckedContinuation { waitingForFirstLoad.append($0) }
    }

    private func finishLoading() {
        guard isLoading else { return }
        isLoading = false
        waitingForFirstLoad.forEach { $0.resume() }
        waitingForFirstLoad = []
    }
}

/// The task that feeds a ``LiveQuery``, cancelled when the query is released.
private final class UpdateTask: @unchecked Sendable {
    var task: Task<Void, Never>?
    deinit { task?.cancel() }
}

extension QueryableRepository where Record: Encodable & Sendable {
    /// The records `descriptor` selects, kept current (see ``LiveQuery``); empty until loaded.
    @MainActor
    public func liveQuery(_ descriptor: FetchDescriptor<Record>,
                          options: ObservationOptions = ObservationOptions()) -> LiveQuery<[Record]> {
        let query: RecordQuery
        do {
            query = try self.query(for: descriptor)
        } catch {
            return LiveQuery(initial: [], results: AsyncThrowingStream { $0.finish(throwing: error) })
        }
        let repository = self
        return LiveQuery(initial: [], results: ObservedValues.results(database: storage.database, options: options) {
            try await repository.fetch(query)
        })
    }
}

extension QueryableRepository where Record: Sendable {
    /// How many records `descriptor` selects, kept current; 0 until loaded.
    @MainActor
    public func liveCount(_ descriptor: FetchDescriptor<Record> = FetchDescriptor(),
                          options: ObservationOptions = ObservationOptions()) -> LiveQuery<Int> {
        let repository = self
        return LiveQuery(initial: 0, results: ObservedValues.results(database: storage.database, options: options) {
            try await repository.fetchCount(descriptor)
        })
    }
}

extension Reports {
    /// The history report's rows, kept current; empty until loaded.
    @MainActor
    public func liveHistory(by period: ReportPeriod = .week, from: CalendarDay? = nil, to: CalendarDay? = nil,
                            options: ObservationOptions = ObservationOptions()) -> LiveQuery<[HistoryReportRow]> {
        let reports = self
        return LiveQuery(initial: [], results: ObservedValues.results(database: database, options: options) {
            try await reports.history(by: period, from: from, to: to)
        })
    }

    /// The exercises report's rows, kept current; empty until loaded.
    @MainActor
    public func liveExercises(from: CalendarDay? = nil, to: CalendarDay? = nil,
                              options: ObservationOptions = ObservationOptions()) -> LiveQuery<[ExerciseReportRow]> {
        let reports = self
        return LiveQuery(initial: [], results: ObservedValues.results(database: database, options: options) {
            try await reports.exercises(from: from, to: to)
        })
    }
}
