import Foundation

/// A thread of its own for work handed over in batches (counting, reading ahead, writing rows),
/// which its owner waits for with ``join()``.
///
/// It may fail to start, and says so: Foundation's `Thread.detachNewThread` gives no answer, and
/// where the process may not make another thread (`ulimit -u`, a container's limit on
/// processes) its body never ran, and an import that handed it work waited for it forever,
/// holding the write lock (helper-76). A caller that cannot have a thread does the work on its own.
///
/// Waiting is the system's join, so the owner knows the body has returned, and let go of what it
/// held, without a flag of its own for it.
package final class WorkerThread {
    private var thread: pthread_t?

    private init(_ thread: pthread_t) { self.thread = thread }

    /// Runs `body` on a new thread; nil, with `body` not run, when no thread could be made.
    package static func start(_ body: @escaping @Sendable () -> Void) -> WorkerThread? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        #else
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        #endif
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        #if canImport(Darwin)
        // (A thread made and running its body is never reported as none: its work would be done twice.)
        guard let thread else { preconditionFailure("pthread_create succeeded without a thread") }
        #endif
        return WorkerThread(thread)
    }

    /// Waits until the body has returned; at once when it was waited for before. Called from
    /// another thread than this one (the body itself must not wait for its own thread).
    package func join() {
        guard let thread else { return }
        precondition(pthread_equal(thread, pthread_self()) == 0, "a worker thread waited for itself")
        self.thread = nil
        pthread_join(thread, nil)
    }

    /// A thread never waited for is let go of, so the system frees it when it returns.
    deinit {
        if let thread { pthread_detach(thread) }
    }

    /// The work a thread runs, kept alive from its start until it has run.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) {
            // On Apple's systems a bare thread has no autorelease pool of its own.
            #if canImport(Darwin)
            run = { autoreleasepool { body() } }
            #else
            run = body
            #endif
        }
    }
}
