import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// Tasks that await reads in a loop leave other tasks a turn: an `async` read runs in place, off
/// any actor, and gave its thread up only when it had to wait, so as many reading loops as the
/// cooperative pool has threads (two on two cores) left no thread for a write's caller to resume
/// on. The write returned only once the loops ended, and never when they waited for it
/// (helper-63). Every 16th read on a thread now yields it once when done.
final class ReadLoopsTests: XCTestCase {
    /// One more reading loop than the machine has cores, each until it sees the write (or, failing,
    /// for 60 seconds): the write returns while they read, and every loop sees it.
    func testReadLoopsLeaveAWriteATurn() async throws {
        let folder = try TemporaryFolder("logbook-read-loops")
        let store = try Logbook(path: folder.file("loops.sqlite").path, timeZone: TimeZone(identifier: "UTC")!)
        _ = try await store.history.addDoneExercise("Squat", at: Date(timeIntervalSinceReferenceDate: 0))
        let deadline = Date().addingTimeInterval(60)
        let loops = (0...ProcessInfo.processInfo.activeProcessorCount).map { _ in
            Task.detached { () async throws -> Bool in
                while Date() < deadline {
                    if try await store.history.fetchCount() == 2 { return true }
                }
                return false
            }
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        _ = try await Task.detached { try await store.history.addDoneExercise("Burpee", at: Date(timeIntervalSinceReferenceDate: 86_400)) }.value
        for loop in loops {
            let sawTheWrite = try await loop.value
            XCTAssertTrue(sawTheWrite, "a reading loop ran for 60 s and the write returned only after it")
        }
    }
}
