import Foundation
import LogbookTestSupport
@testable import Logbook

/// A store in a scratch folder, removed when the test ends.
final class TestStore {
    private let scratch: TemporaryFolder
    var folder: URL { scratch.url }
    let store: Logbook

    init(timeZone: TimeZone = TimeZone(identifier: "UTC")!, now: @escaping @Sendable () -> Date = Date.init) throws {
        scratch = try TemporaryFolder()
        store = try Logbook(path: scratch.file("test.sqlite").path, timeZone: timeZone, now: now)
    }
}

/// A clock a test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}

func instant(_ text: String) -> Date {
    guard let date = Date(iso8601: text) else { preconditionFailure("bad test date \(text)") }
    return date
}
