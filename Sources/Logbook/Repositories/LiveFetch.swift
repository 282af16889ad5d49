#if canImport(SwiftUI)
import SwiftUI

/// A ``LiveQuery`` held by a SwiftUI view, in the spirit of SwiftData's `@Query`: the view shows
/// the current result and is redrawn when a commit changes it.
///
/// ```swift
/// struct OpenDrafts: View {
///     @LiveFetch var drafts: [ReleaseDraft]
///     init(store: Logbook) {
///         _drafts = LiveFetch(store.drafts.liveQuery(FetchDescriptor(predicate: #Predicate { $0.submittedAt == nil })))
///     }
///     var body: some View {
///         List(drafts) { Text($0.version) }
///             .overlay { if $drafts.isLoading { ProgressView() } }
///     }
/// }
/// ```
///
/// `@State` keeps the first query for the view's lifetime; the autoclosure is evaluated again each
/// time SwiftUI re-creates the view value, and those extra queries are released (and stop) at once.
/// For a view re-created often, hold the query in an `@Observable` view model instead.
///
/// (Written for Apple platforms and not compiled on Linux, where SwiftUI does not exist.)
@propertyWrapper
public struct LiveFetch<Value: Encodable & Sendable>: DynamicProperty {
    @State private var query: LiveQuery<Value>

    /// Holds `query` for the view's lifetime.
    @MainActor
    public init(_ query: @autoclosure () -> LiveQuery<Value>) {
        _query = State(initialValue: query())
    }

    /// The current result.
    @MainActor public var wrappedValue: Value { query.value }

    /// The query itself: its loading state and error.
    @MainActor public var projectedValue: LiveQuery<Value> { query }
}
#endif
