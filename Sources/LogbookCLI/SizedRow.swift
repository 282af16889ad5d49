import Foundation
import Logbook

/// A row that ``BackgroundRowWriter`` hands to its writing thread: about how many bytes it
/// holds, so that the rows waiting to be written stay a few megabytes however big each row is
/// (a batch of 8,192 query rows of 200 KB each held 1.6 GB).
protocol SizedRow: Sendable {
    /// About how many bytes the row's values hold (a text's UTF-8, a blob's bytes); a count,
    /// not a walk of the text.
    var approximateByteCount: Int { get }
}

/// What a number, a date or a flag counts for: the size of its text in a row, about.
private let scalarByteCount = 16

extension Array: SizedRow where Element: SizedRow {
    var approximateByteCount: Int { reduce(0) { $0 + $1.approximateByteCount } }
}

extension Cell: SizedRow {
    var approximateByteCount: Int {
        if case .text(let text) = self { return text.utf8.count }
        return scalarByteCount
    }
}

extension DatabaseValue: SizedRow {
    var approximateByteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        // Written as base64: four bytes for three.
        case .blob(let data): data.count / 3 * 4 + 4
        case .null, .integer, .real: scalarByteCount
        }
    }
}

extension HistoryReportRow: SizedRow {
    var approximateByteCount: Int { period.utf8.count + (topExercise?.utf8.count ?? 0) + 3 * scalarByteCount }
}

extension ExerciseReportRow: SizedRow {
    var approximateByteCount: Int { exercise.utf8.count + 4 * scalarByteCount }
}

extension DraftReportRow: SizedRow {
    var approximateByteCount: Int { version.utf8.count + 5 * scalarByteCount }
}
