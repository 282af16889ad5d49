import Foundation
import Logbook
import LogbookTestSupport
import XCTest

/// The manual page and the shell completions are generated from the commands' declarations: a
/// real bash completes commands, options and their values; man renders the page without warnings.
final class HelpAndCompletionCLITests: XCTestCase {
    private func bash(_ script: String, in cli: CLIHarness) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "--noprofile", "-c", script]
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

    func testBashCompletesCommandsOptionsAndValuesFromTheDeclarations() throws {
        let cli = try CLIHarness()
        let file = try output(of: ["completion", "bash"], savedAs: "logbook.bash", in: cli)
        XCTAssertEqual(try bash("bash -n \(file.path) && echo ok", in: cli), "ok\n")
        let cases: [(words: [String], expected: String)] = [
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
        for (words, expected) in cases {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try bash("""
                source \(file.path)
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _logbook; echo "${COMPREPLY[*]}"
                """, in: cli)
            XCTAssertEqual(result, expected + "\n", words.joined(separator: " "))
        }
        let zsh = try cli.run(["completion", "zsh"]).stdout
        XCTAssertTrue(zsh.hasPrefix("#compdef logbook\nautoload -U +X bashcompinit && bashcompinit\n"), zsh)
        let fish = try cli.run(["completion", "fish"]).stdout
        XCTAssertTrue(fish.contains("complete -c logbook -n \"test (__logbook_path) = 'history list'\" -l format -r -a 'table json ndjson csv'"),
                      fish)
        XCTAssertFailure(try cli.run(["completion", "tcsh"]), status: 2, mentioning: "unknown shell 'tcsh'")
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
