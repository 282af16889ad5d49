import Foundation
import LogbookTestSupport
import XCTest

/// The sample app (what the README's library section shows) runs as an app would: opens its store,
/// imports the old history.plist once, keeps its live list current through adds, edits and deletes.
final class SampleAppTests: XCTestCase {
    private func runSampleApp(data: URL, plist: URL) throws -> (stdout: String, status: Int32) {
        let process = Process()
        process.executableURL = CLIHarness.executable.deletingLastPathComponent().appendingPathComponent("logbook-sample-app")
        process.arguments = ["--data", data.path, "--history-plist", plist.path]
        process.environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: bytes, as: UTF8.self), process.terminationStatus)
    }

    func testTheSampleAppImportsOnceAndItsLiveListFollowsEveryChange() throws {
        let folder = try TemporaryFolder("logbook-sample")
        let plist = try Fixtures.copy("history.plist")
        defer { try? FileManager.default.removeItem(at: plist.deletingLastPathComponent()) }
        let first = try runSampleApp(data: folder.url, plist: plist)
        XCTAssertEqual(first.status, 0, first.stdout)
        XCTAssertTrue(first.stdout.contains("imported history.plist: "), first.stdout)
        let listings = first.stdout.components(separatedBy: "open drafts:").dropFirst()
        XCTAssertGreaterThanOrEqual(listings.count, 4, "drawn at launch and after each change: \(first.stdout)")
        XCTAssertTrue(listings.contains { $0.contains("3.0.0-beta") && $0.contains("2.6.0  0/2 done") }, first.stdout)
        XCTAssertTrue(listings.last?.hasPrefix(" none") == true, first.stdout)

        let second = try runSampleApp(data: folder.url, plist: plist)
        XCTAssertEqual(second.status, 0, second.stdout)
        XCTAssertTrue(second.stdout.contains("history.plist was imported before"), second.stdout)
    }
}
