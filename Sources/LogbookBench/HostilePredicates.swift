import Foundation
import Logbook

/// The `hostile-predicates` workload: shapes that nest one quantifier over the checklist inside
/// another, correlated with it (the shapes the differential test generates at depth two, and the
/// one that took 32 s in SQL against 2 s in Swift), each fetched through SQL and, to compare,
/// by fetching every draft and evaluating the predicate in Swift. Issue 21's goal: SQL at most
/// 2x the Swift evaluation for every shape.
enum HostilePredicates {
    static let shapes: [(name: String, predicate: Predicate<ReleaseDraft>)] = [
        ("every item's title on another item", #Predicate<ReleaseDraft> { draft in
            draft.checklist.allSatisfy { item in draft.checklist.contains { other in other.title == item.title } }
        }),
        ("one title both done and not", #Predicate<ReleaseDraft> { draft in
            draft.checklist.contains { item in
                draft.checklist.contains { other in other.title == item.title && other.isDone != item.isDone }
            }
        }),
        ("a title that starts another", #Predicate<ReleaseDraft> { draft in
            draft.checklist.contains { item in
                draft.checklist.contains { other in other.title != item.title && other.title.starts(with: item.title) }
            }
        }),
        ("every done item before an undone one", #Predicate<ReleaseDraft> { draft in
            draft.checklist.allSatisfy { item in
                !item.isDone || draft.checklist.contains { other in !other.isDone && other.title > item.title }
            }
        }),
    ]
}
