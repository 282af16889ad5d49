import Foundation
import XCTest

/// The libraries are built only on Linux here, but apps build them for macOS, iOS, watchOS, tvOS
/// and visionOS. This lint fails when their sources use, outside an `#if canImport(…)`/`#if os(…)`
/// block, what exists only on Linux (the Glibc or Musl modules, `FoundationEssentials`-only
/// imports, Linux system calls and `stat` fields) or what iOS, watchOS and tvOS lack (processes).
final class PortabilityLintTests: XCTestCase {
    /// Words that name Linux-only modules, calls or fields, with what to use instead.
    static let linuxOnly: [(word: String, instead: String)] = [
        ("import Glibc", "Foundation, which imports the C library on every platform"),
        ("import Musl", "Foundation"),
        ("import FoundationEssentials", "Foundation (FoundationEssentials is not a module on Apple platforms before macOS 15)"),
        ("Glibc.", "the unqualified name through Foundation"),
        ("st_mtim", "FileManager attributes (Darwin names it st_mtimespec)"),
        ("st_atim", "FileManager attributes"),
        ("st_ctim", "FileManager attributes"),
        ("O_TMPFILE", "a named temporary file"),
        ("O_PATH", "a plain open(2)"),
        ("O_DIRECT", "F_NOCACHE on Darwin, behind #if"),
        ("statfs(", "FileManager's volume attributes"),
        ("mallinfo", "nothing: no portable equivalent"),
        ("epoll_", "DispatchSource"),
        ("inotify_", "DispatchSource"),
        ("eventfd", "a pipe"),
        ("getrandom(", "SystemRandomNumberGenerator"),
        ("memfd_create", "a temporary file"),
        ("pipe2(", "pipe(2) and fcntl"),
        ("dup3(", "dup2(2)"),
        ("prctl(", "nothing: Linux only"),
        ("gettid(", "pthread_self"),
        ("sched_getaffinity", "ProcessInfo.activeProcessorCount"),
        ("get_nprocs", "ProcessInfo.activeProcessorCount"),
        ("SIGPOLL", "SIGIO"),
        ("__errno_location", "errno"),
        // Not Linux-only, but missing on iOS, watchOS and tvOS, where apps cannot start processes.
        ("Process(", "nothing in a library: only the CLI starts processes"),
        ("fork(", "nothing in a library"),
        ("posix_spawn", "nothing in a library"),
        ("system(", "nothing in a library"),
    ]

    /// The Linux-only words in `text` outside `#if canImport(…)`/`#if os(…)` blocks and comments,
    /// as `line: word (use …)`.
    static func findings(in text: String) -> [String] {
        var found: [String] = []
        var conditionalDepth = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            if code.hasPrefix("#if canImport(") || code.hasPrefix("#if os(") { conditionalDepth += 1; continue }
            if code.hasPrefix("#endif") && conditionalDepth > 0 { conditionalDepth -= 1; continue }
            guard conditionalDepth == 0 else { continue }
            for (word, instead) in linuxOnly where code.contains(word) {
                found.append("\(number + 1): \(word) (use \(instead))")
            }
        }
        return found
    }

    func testTheLibrariesUseNoLinuxOnlyAPIOutsideAConditionalBlock() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var found: [String] = []
        for library in ["SQLiteQuery", "Logbook"] {
            let folder = sources.appendingPathComponent(library)
            let files = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") }
            XCTAssertFalse(files.isEmpty, library)
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                found += Self.findings(in: text).map { "\(library)/\(file):\($0)" }
            }
        }
        XCTAssertEqual(found, [], "Linux-only API in a library that Apple platforms build")
    }

    func testTheLintFindsLinuxOnlyAPIAndAcceptsItBehindACondition() {
        let sample = """
            import Foundation
            #if canImport(Glibc)
            import Glibc
            #endif
            // import Glibc in a comment is prose
            let seconds = status.st_mtim.tv_sec
            #if os(Linux)
            let fd = memfd_create("x", 0)
            #endif
            import FoundationEssentials
            """
        XCTAssertEqual(Self.findings(in: sample), [
            "6: st_mtim (use FileManager attributes (Darwin names it st_mtimespec))",
            "10: import FoundationEssentials (use Foundation (FoundationEssentials is not a module on Apple platforms before macOS 15))",
        ])
    }
}
