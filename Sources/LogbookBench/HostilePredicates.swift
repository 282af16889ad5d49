import Foundation
import Logbook

/// The `hostile-predicates` workload: shapes that nest one quantifier over the checklist inside
/// another, correlated with it (the shapes the differential test generates at depth two, and the
/// one that took 32 s in SQL against 2 s in Swift), each fetched through SQL and, to compare,
/// by fetching every draft and evaluating the predicate in Swift, and shapes that compare a
/// draft's long notes inside a walk over its checklist. Issue 21's goal: SQL at most 2x the Swift
/// evaluation for every shape.
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

    /// Shapes that compare an item, or another field, with the draft's notes, run on
    /// ``longNotesDrafts(_:)``: the notes' comparison key was computed once per item (5x to 29x
    /// the Swift evaluation; helper-102).
    static let longNotesShapes: [(name: String, predicate: Predicate<ReleaseDraft>)] = [
        ("an item titled as the draft's long notes", #Predicate<ReleaseDraft> { draft in
            draft.checklist.contains { item in item.title == draft.whatsNew }
        }),
        ("an item titled as the version or the long notes", #Predicate<ReleaseDraft> { draft in
            draft.checklist.contains { item in item.title == draft.version }
                || draft.checklist.contains { item in item.title == draft.whatsNew }
        }),
        ("the version equal to the long notes", #Predicate<ReleaseDraft> { draft in draft.version == draft.whatsNew }),
    ]

    /// `count` drafts of 12 checklist items whose notes are about 2,000 characters of accented
    /// text (not ASCII, so their key is computed), each beginning with its own number.
    static func longNotesDrafts(_ count: Int) -> [ReleaseDraft] {
        let notes = String(repeating: "Corrigé un plantage de l’éditeur à l’ouverture. ", count: 42)
        return (0..<count).map { index in
            ReleaseDraft(version: "1.\(index)", whatsNew: "\(index) \(notes)",
                         checklist: (0..<12).map { ChecklistItem(title: "Item \($0)", isDone: $0 % 2 == 0) })
        }
    }
}
