import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// `readingOneSnapshot`: the reads inside it agree with each other while another connection
/// writes, and the next call sees the writes.
final class OneSnapshotTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!

    func testReadsInsideOneSnapshotDoNotSeeAnotherConnectionsWrites() throws {
        let folder = try TemporaryFolder("logbook-snapshot")
        let path = folder.file("s.sqlite").path
        let reader = try Logbook(path: path, timeZone: utc)
        let writer = try Logbook(path: path, timeZone: utc)
        _ = try writer.history.addDoneExercises(["Squat", "Plank"], at: Date(iso8601: "2026-01-01T12:00:00Z"))

        let (before, during) = try reader.readingOneSnapshot {
            let before = (try reader.history.count(), try reader.reports.exercises().map(\.count), try reader.reports.streaks().longestStreak)
            _ = try writer.history.addDoneExercises(["Squat"], at: Date(iso8601: "2026-01-02T12:00:00Z"))
            _ = try writer.drafts.save(ReleaseDraft(version: "1.0"))
            let during = (try reader.history.count(), try reader.reports.exercises().map(\.count), try reader.reports.streaks().longestStreak)
            XCTAssertEqual(try reader.drafts.count(), 0, "a draft saved meanwhile was read")
            return (before, during)
        }
        XCTAssertEqual(before.0, 1)
        XCTAssertEqual(during.0, before.0, "the day count moved inside one snapshot")
        XCTAssertEqual(during.1, before.1, "the exercise report moved inside one snapshot")
        XCTAssertEqual(during.2, before.2, "the streak moved inside one snapshot")
        XCTAssertEqual(try reader.history.count(), 2, "the next read does not see the write")
        XCTAssertEqual(try reader.reports.streaks().longestStreak, 2)
        XCTAssertEqual(try reader.drafts.count(), 1)
    }

    func testTheAsyncFormReadsOneSnapshot() async throws {
        let folder = try TemporaryFolder("logbook-snapshot")
        let path = folder.file("s.sqlite").path
        let reader = try Logbook(path: path, timeZone: utc)
        let writer = try Logbook(path: path, timeZone: utc)
        _ = try await writer.history.addDoneExercise("Squat", at: Date(iso8601: "2026-01-01T12:00:00Z"))
        let counts = try await reader.readingOneSnapshot {
            let first = try reader.history.count()
            _ = try writer.history.addDoneExercise("Squat", at: Date(iso8601: "2026-01-02T12:00:00Z"))
            return [first, try reader.history.count()]
        }
        XCTAssertEqual(counts, [1, 1])
        let after = try await reader.history.count()
        XCTAssertEqual(after, 2)
    }

    /// A call inside another reads in the outer one's snapshot.
    func testACallInsideAnotherReadsInItsSnapshot() throws {
        let folder = try TemporaryFolder("logbook-snapshot")
        let path = folder.file("s.sqlite").path
        let reader = try Logbook(path: path, timeZone: utc)
        let writer = try Logbook(path: path, timeZone: utc)
        _ = try writer.history.addDoneExercise("Squat", at: Date(iso8601: "2026-01-01T12:00:00Z"))
        let counts = try reader.readingOneSnapshot {
            let outer = try reader.history.count()
            let inner = try reader.readingOneSnapshot {
                _ = try writer.history.addDoneExercise("Squat", at: Date(iso8601: "2026-01-02T12:00:00Z"))
                return try reader.history.count()
            }
            return [outer, inner, try reader.history.count()]
        }
        XCTAssertEqual(counts, [1, 1, 1])
    }

    /// A store without read connections reads on its writer, as does a call inside a write: a
    /// write inside is refused, not taken into the read's transaction.
    func testAWriteInsideOnAStoreWithoutReadConnectionsIsRefused() throws {
        let store = try Logbook(path: ":memory:", timeZone: utc)
        XCTAssertThrowsError(try store.readingOneSnapshot {
            _ = try store.history.addDoneExercise("Squat", at: Date(iso8601: "2026-01-01T12:00:00Z"))
        }) { error in
            XCTAssertTrue("\(error)".contains("a write from inside a read"), "\(error)")
        }
        XCTAssertEqual(try store.history.count(), 0)

        let folder = try TemporaryFolder("logbook-snapshot")
        let file = try Logbook(path: folder.file("s.sqlite").path, timeZone: utc)
        XCTAssertThrowsError(try file.underlyingDatabase.write { _ in
            try file.readingOneSnapshot { _ = try file.history.addDoneExercise("Squat", at: Date(iso8601: "2026-01-01T12:00:00Z")) }
        }) { error in
            XCTAssertTrue("\(error)".contains("a write from inside a read"), "\(error)")
        }
        XCTAssertEqual(try file.history.count(), 0)
    }
}
