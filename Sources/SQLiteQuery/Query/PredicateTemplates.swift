import Foundation

/// A schema's ``PredicateTemplate``s by shape: the first predicate of a shape is translated, and
/// every later one reuses its template. Safe to use from any thread.
final class PredicateTemplates: @unchecked Sendable {
    /// The most shapes kept; past it one (the dictionary's first, in no particular order) makes
    /// room for each new one, so that predicates built at run time with ever new key paths or
    /// lists of ever new lengths cannot grow it without end.
    static let capacity = 256

    private let lock = NSLock()
    private var templates: [PredicateShape: PredicateTemplate] = [:]

    /// The template for `shape`, made with `make` (outside the lock) when there is none yet.
    func template(for shape: PredicateShape, orMake make: () throws -> PredicateTemplate) rethrows -> PredicateTemplate {
        if let template = lock.withLock({ templates[shape] }) { return template }
        let template = try make()
        lock.withLock {
            if templates.count >= Self.capacity, templates[shape] == nil { templates.remove(at: templates.startIndex) }
            templates[shape] = template
        }
        return template
    }

    /// How many shapes are kept (for tests).
    var count: Int { lock.withLock { templates.count } }
}
