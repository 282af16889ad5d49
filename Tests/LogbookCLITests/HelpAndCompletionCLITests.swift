import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// The manual page and the shell completions are generated from the commands' declarations: a
/// real bash and fish complete commands, options and their values; man renders the page without warnings.
final class HelpAndCompletionCLITests: XCTestCase {
    private func bash(_ script: String, in cli: CLIHarness) throws -> String {
        try shell("/bin/bash", ["--norc", "--noprofile", "-c", script], in: cli)
    }

    /// What the shell at `path` printed, on stdout and stderr, run with `arguments` in the harness's folder.
    private func shell(_ path: String, _ arguments: [String], in cli: CLIHarness) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = cli.folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// What `logbook ARGUMENTS` printed, saved as `name` in the harness's folder.
    private func output(of arguments: [String], savedAs name: String, in cli: CLIHarness) throws -> URL {
        let result = try cli.run(arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        let file = cli.folder.appendingPathComponent(name)
        try result.output.write(to: file)
        return file
    }

    /// Words typed, the last one being completed, and the candidates every shell offers.
    private static let completions: [(words: [String], expected: String)] = [
        (["logbook", "dr"], "drafts"),
        (["logbook", "drafts", ""], "list add edit show item submit delete"),
        (["logbook", "drafts", "item", ""], "add check uncheck remove move"),
        (["logbook", "history", ""], "list add delete remove rename move"),
        (["logbook", "history", "list", "--fo"], "--format"),
        (["logbook", "history", "list", "--format", ""], "table json ndjson csv"),
        (["logbook", "drafts", "show", "2.0", "--format", ""], "table json ndjson csv plist"),
        (["logbook", "--db", "x.sqlite", "repo"], "report"),
        (["logbook", "report", ""], "history exercises streaks drafts calendar"),
        (["logbook", "report", "history", "--by", ""], "day week month year"),
        (["logbook", "export", ""], "drafts history"),
        (["logbook", "completion", ""], "bash zsh fish"),
        (["logbook", "import", "x.json", "--on-conflict", ""], "skip replace fail"),
    ]

    func testBashCompletesCommandsOptionsAndValuesFromTheDeclarations() throws {
        let cli = try CLIHarness()
        let file = try output(of: ["completion", "bash"], savedAs: "logbook.bash", in: cli)
        XCTAssertEqual(try bash("bash -n \(file.path) && echo ok", in: cli), "ok\n")
        for (words, expected) in Self.completions {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try bash("""
                source \(file.path)
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _logbook; echo "${COMPREPLY[*]}"
                """, in: cli)
            XCTAssertEqual(result, expected + "\n", words.joined(separator: " "))
        }
        let zsh = try cli.run(["completion", "zsh"]).stdout
        XCTAssertTrue(zsh.hasPrefix("#compdef logbook\nautoload -U +X bashcompinit && bashcompinit\n"), zsh)
        XCTAssertFailure(try cli.run(["completion", "tcsh"]), status: 2, mentioning: "unknown shell 'tcsh'")
    }

    /// A real fish completes the same words as bash, and a value from a list with the list alone
    /// (at the top level it offered nothing and printed `test: Missing argument` for each
    /// command, and it offered file names among `--format`'s values; helper-86).
    func testFishCompletesTheSameWordsAsBash() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else {
            throw XCTSkip("fish is not installed (.ci/run installs it)")
        }
        let cli = try CLIHarness()
        let file = try output(of: ["completion", "fish"], savedAs: "logbook.fish", in: cli)
        XCTAssertEqual(try shell("/usr/bin/fish", ["--no-config", "--no-execute", file.path], in: cli), "")
        for (words, expected) in Self.completions {
            let line = words.joined(separator: " ")
            let output = try shell("/usr/bin/fish", ["--no-config", "-c", "source \(file.path); complete -C '\(line)'"], in: cli)
            let candidates = output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
            XCTAssertEqual(candidates.sorted(), expected.split(separator: " ").map(String.init).sorted(), "\(line): \(output)")
        }
    }

    func testTheManualPageRendersEveryCommandWithoutWarnings() throws {
        let cli = try CLIHarness()
        let file = try output(of: ["help", "--man"], savedAs: "logbook.1", in: cli)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else {
            throw XCTSkip("groff renders the page (the man-db package)")
        }
        let warnings = try bash("groff -man -Tutf8 -ww -z \(file.path) 2>&1", in: cli)
        XCTAssertEqual(warnings, "", "troff warnings")
        let rendered = try bash("MANWIDTH=100 man -l -P cat \(file.path) 2>&1", in: cli)
        XCTAssertTrue(rendered.hasPrefix("LOGBOOK(1)"), rendered)
        for command in ["drafts item add", "history rename", "report", "completion"] {
            XCTAssertTrue(rendered.contains("   \(command)\n"), "\(command) missing")
        }
        let words = rendered.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(words.contains("--format FMT"), "options are listed")
        XCTAssertTrue(words.contains("One of: table, json, ndjson, csv."), "values are listed")
        XCTAssertTrue(words.contains("2026-11-19 07:30, yesterday, …"), "text beyond ASCII is kept")
        // A terminal without those characters (LC_ALL=C) gets ASCII, without warnings (groff dropped the ellipsis; helper-86).
        let page = try String(contentsOf: file, encoding: .utf8)
        let used = Set(page.matches(of: /\\\[u[0-9A-F]{4,6}\]/).map { String($0.output) })
        for character in used {
            XCTAssertTrue(page.contains(".fchar \(character) "), "\(character) has no ASCII fallback")
        }
        let ascii = try bash("LC_ALL=C MANWIDTH=100 man --warnings -l -P cat \(file.path) 2>&1", in: cli)
        XCTAssertFalse(ascii.contains("warning"), ascii)
        XCTAssertTrue(ascii.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("2026-11-19 07:30, yesterday, ..."), ascii)
        XCTAssertEqual(try cli.run(["help", "history", "list"]).stdout, try cli.run(["history", "list", "--help"]).stdout)
        XCTAssertFailure(try cli.run(["help", "histroy"]), status: 2, mentioning: "no command 'histroy'")
    }

    func testHelpTopicsComeFromTheDeclarationsAndTheREADMEKeepsTheirTable() throws {
        let cli = try CLIHarness()
        for topic in ["where", "dates", "formats", "files", "reports"] {
            let result = try cli.run(["help", topic])
            XCTAssertEqual(result.status, 0, topic)
            XCTAssertGreaterThan(result.lines.count, 5, topic)
        }
        XCTAssertTrue(try cli.run(["help", "where"]).stdout.contains("history     id day date exercises exercises.count"))
        XCTAssertTrue(try cli.run(["help", "dates"]).stdout.contains("2026-11, 2026-W47, 2026"))
        XCTAssertTrue(try cli.run(["help", "reports"]).stdout.contains("streaks: currentStreak"))
        // The README's table of dates is DateExpression.forms, row by row, in order.
        let readme = try Fixtures.readme()
        let rows = DateExpression.forms.map { "| \($0.text) | \($0.meaning) |" }
        XCTAssertTrue(readme.contains(rows.joined(separator: "\n")), "README's dates table differs from DateExpression.forms")
    }
}
