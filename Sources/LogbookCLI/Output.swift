import Foundation
import Logbook

/// Standard output, buffered (64 KiB) so that streaming a million rows costs few system calls;
/// or why it cannot be written at all (closed, or open only for reading: `fdopen` refuses it),
/// which the first write throws. Only the CLI prints, and only through ``Console``.
nonisolated(unsafe) private let standardOutput: Result<UnsafeMutablePointer<FILE>, OutputFailure> = {
    guard !StandardDescriptors.wasClosed(STDOUT_FILENO) else { return .failure(OutputFailure(code: EBADF)) }
    guard let stream = fdopen(STDOUT_FILENO, "w") else { return .failure(OutputFailure(code: errno)) }
    setvbuf(stream, nil, _IOFBF, 1 << 16)
    return .success(stream)
}()

/// While set, what would go to stdout is gathered here instead (see ``Console/capture(_:)``).
nonisolated(unsafe) private var captured: String?

/// While set, what would go to stdout goes here instead (see ``Console/redirect(to:_:)``).
nonisolated(unsafe) private var redirection: ((Data) throws -> Void)?

/// Whether confirmations are silenced (`-q`).
nonisolated(unsafe) private var isQuiet = false

/// A write to stdout that failed (a full disk, a closed file, a size limit): its `errno`.
struct OutputFailure: Error {
    let code: Int32
}

enum Console {
    /// Runs `body` and returns what it wrote to stdout instead of writing it.
    static func capture(_ body: () throws -> Void) throws -> String {
        captured = ""
        defer { captured = nil }
        try body()
        return captured ?? ""
    }

    /// Writes `text` to stdout; throws ``OutputFailure`` when it cannot be written.
    static func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Writes bytes to stdout; throws ``OutputFailure`` when they cannot be written.
    static func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write(bytes: $0) }
    }

    /// Runs `body` with what it writes to stdout sent to `sink` instead (`-o FILE`).
    static func redirect(to sink: @escaping (Data) throws -> Void, _ body: () throws -> Void) throws {
        redirection = sink
        defer { redirection = nil }
        try body()
    }

    /// Silences ``note(_:)`` from now on (`-q`).
    static func silenceNotes() { isQuiet = true }

    /// A confirmation for people (`logbook: created PATH`) on stderr, unless `-q` silenced them.
    static func note(_ line: String) {
        if !isQuiet { printError(line) }
    }

    /// Writes UTF-8 bytes to stdout; throws ``OutputFailure`` when they cannot be written.
    static func write(bytes: UnsafeRawBufferPointer) throws {
        if captured != nil {
            captured? += String(decoding: bytes, as: UTF8.self)
            return
        }
        if let redirection {
            try redirection(Data(bytes))
            return
        }
        guard let base = bytes.baseAddress else { return }
        let stream = try standardOutput.get()
        guard fwrite(base, 1, bytes.count, stream) == bytes.count else { throw OutputFailure(code: errno) }
    }

    /// Writes a line to stdout.
    static func print(_ line: String) throws { try write(line + "\n") }

    /// Writes out what stdout's buffer holds; throws ``OutputFailure`` when that fails. Every
    /// command ends with it, so the last write is checked too.
    static func finish() throws {
        // A stdout that cannot be written was never written to: each write threw.
        guard case .success(let stream) = standardOutput else { return }
        if fflush(stream) != 0 { throw OutputFailure(code: errno) }
    }

    /// Writes a line to stderr, at once, after whatever stdout holds, as ``oneLine(_:)`` shows it.
    static func printError(_ line: String) {
        flush()
        writeToStandardError(oneLine(line) + "\n")
    }

    /// Writes `text` to stderr as far as it can be written, and no further: a message that cannot
    /// be shown (stderr closed, a full disk) changes nothing of what the command did, so its exit
    /// status stays what it was. (Foundation's `FileHandle.write(_:)` stops the process instead.)
    static func writeToStandardError(_ text: String) {
        // Closed at start: /dev/null is there now, or, if it could not be opened, whatever file
        // took the number since, which must not receive messages.
        guard !StandardDescriptors.wasClosed(STDERR_FILENO) else { return }
        try? FileOutput(descriptor: STDERR_FILENO, path: "standard error").write(Data(text.utf8))
    }

    /// `line` with each control character written as an escape (`\n`, `\r`, `\t`, `\u{1B}`), and
    /// the line and paragraph separators, the bidirectional embeddings, overrides and isolates
    /// (U+202A…U+202E, U+2066…U+2069) and the other characters drawn as nothing too (U+200B,
    /// U+3164, U+E0001, …): a message is one line on stderr whatever text it quotes
    /// (a name, a token file's contents), and nothing it quotes can move the cursor, recolor the
    /// terminal or show the rest of the line reversed (`Evil\u{202E}gnp.exe`).
    static func oneLine(_ line: String) -> String { escaped(line, doublingBackslashes: false) }

    /// ``oneLine(_:)`` with each backslash doubled too, for a value shown among others (a table's
    /// cell, a draft's field): a name holding a backslash and an `n` must not look like one
    /// holding a line break (`a\\nb` against `a\nb`), as `ls -b` shows names.
    static func cell(_ text: String) -> String { escaped(text, doublingBackslashes: true) }

    private static func escaped(_ line: String, doublingBackslashes: Bool) -> String {
        // Controls, line and paragraph separators, the interlinear annotation marks, and every
        // character Unicode marks default-ignorable (drawn as nothing: the bidirectional marks,
        // embeddings, overrides and isolates, which reorder what follows, U+200B, U+2060…,
        // U+FEFF, Hangul fillers, a language tag, musical beams…), which make two cells look
        // alike. Left to draw: the joiners that shape text (U+200C, U+200D in emoji and Indic and
        // Arabic script), variation selectors (an emoji's style), the tag characters of a
        // subdivision's flag and the soft hyphen.
        func isShownEscaped(_ scalar: Unicode.Scalar) -> Bool {
            if scalar == "\\" { return doublingBackslashes }
            let properties = scalar.properties
            switch properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: break
            }
            if (0xFFF9...0xFFFB).contains(scalar.value) { return true }
            return properties.isDefaultIgnorableCodePoint && !properties.isVariationSelector
                && ![0xAD, 0x200C, 0x200D].contains(scalar.value)
        }
        // Most text has no byte that could start one (C0, DEL, U+0080…U+00AD, U+034F, U+061C,
        // U+1100…, U+2000…, U+3164, U+FE00…, U+1BCA0…, U+1D173…, U+E0000…): a table can have
        // millions of cells.
        guard line.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || [0xC2, 0xCD, 0xD8, 0xE1, 0xE2, 0xE3, 0xEF, 0xF0, 0xF3].contains($0)
                    || (doublingBackslashes && $0 == UInt8(ascii: "\\")) }),
              line.unicodeScalars.contains(where: isShownEscaped) else { return line }
        var shown = String.UnicodeScalarView()
        let scalars = Array(line.unicodeScalars)
        var flagTagsEnd = 0
        for (index, scalar) in scalars.enumerated() {
            if index >= flagTagsEnd, let end = Self.flagTagsEnd(in: scalars, after: index) { flagTagsEnd = end }
            guard isShownEscaped(scalar), index >= flagTagsEnd || !Self.isTag(scalar) else {
                shown.append(scalar)
                continue
            }
            switch scalar {
            case "\\": shown.append(contentsOf: #"\\"#.unicodeScalars)
            case "\n": shown.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": shown.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": shown.append(contentsOf: #"\t"#.unicodeScalars)
            default: shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            }
        }
        return String(shown)
    }

    /// Where the tag characters of a subdivision's flag end (U+1F3F4, then tags U+E0020…U+E007E
    /// ending in U+E007F, which draw the flag of Scotland), when `scalars[index]` is its flag; tag
    /// characters anywhere else are drawn as nothing, and are shown escaped (helper-98: `x\u{E0041}y`
    /// looked like `xy`).
    private static func flagTagsEnd(in scalars: [Unicode.Scalar], after index: Int) -> Int? {
        guard scalars[index].value == 0x1F3F4 else { return nil }
        var end = index + 1
        while end < scalars.count, (0xE0020...0xE007E).contains(scalars[end].value) { end += 1 }
        guard end > index + 1, end < scalars.count, scalars[end].value == 0xE007F else { return nil }
        return end + 1
    }

    private static func isTag(_ scalar: Unicode.Scalar) -> Bool { (0xE0020...0xE007F).contains(scalar.value) }

    /// Writes out stdout's buffer, ignoring failure (``finish()`` reports it).
    static func flush() {
        if case .success(let stream) = standardOutput { fflush(stream) }
    }

    /// Rewrites the current stderr line in place (for progress on a terminal).
    static func progress(_ text: String) {
        writeToStandardError("\r" + text + "\u{1B}[K")
    }

    /// Whether stdout is a terminal, and not redirected by `-o` (colour goes there only then).
    static var stdoutIsTerminal: Bool { redirection == nil && captured == nil && isatty(STDOUT_FILENO) != 0 }

    /// Whether stderr is a terminal (progress lines go there only then).
    private static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Whether progress lines go to stderr: a terminal that takes escapes (`terminalTakesEscapes`),
    /// and no `-q`, which leaves errors alone on stderr.
    static func showsProgress(terminalTakesEscapes: Bool) -> Bool { stderrIsTerminal && terminalTakesEscapes && !isQuiet }
}
