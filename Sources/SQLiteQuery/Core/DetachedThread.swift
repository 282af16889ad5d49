import Foundation

/// Starts a thread that may fail to start, and says so. Foundation's `Thread.detachNewThread`
/// gives no answer: where the process may not make another thread (`ulimit -u`, a container's
/// limit on processes), its body never ran, and an import that handed it work waited for it
/// forever, holding the write lock (helper-76). A caller that cannot have a thread does the
/// work on its own.
package enum DetachedThread {
    /// Runs `body` on a new thread, detached; false, with `body` not run, when no thread could be made.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
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
            return false
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return true
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
