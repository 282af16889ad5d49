/// Aligned columns for people. Widths come from the header and the first rows (up to
/// `sampleSize`); after that rows stream out as they come, so a long listing starts at once and
/// never sits in memory. A cell's control characters are shown as escapes, and its backslashes
/// doubled (``Console/cell(_:)``): a row is one line, no text in it can move the cursor or
/// recolor the terminal or pass for an escape (the data formats keep every byte).
struct TableWriter {
    private let header: [String]
    private var sample: [[String]] = []
    private var widths: [Int]?
    private let sampleSize = 200
    private(set) var rowCount = 0
    /// The line being written.
    private var line: [UInt8] = []

    init(header: [String]) { self.header = header.map(Console.cell) }

    mutating func add(_ row: [String]) throws {
        let row = row.map(Console.cell)
        rowCount += 1
        if let widths {
            try writeLine(row, widths)
            return
        }
        sample.append(row)
        if sample.count == sampleSize { try flushSample() }
    }

    /// Writes whatever is still held back.
    mutating func finish() throws {
        if widths == nil { try flushSample() }
    }

    private mutating func flushSample() throws {
        let widths = header.indices.map { column in
            ([header] + sample).map { DisplayWidth.of($0[column]) }.max() ?? 0
        }
        self.widths = widths
        try writeLine(header, widths)
        for row in sample { try writeLine(row, widths) }
        sample.removeAll()
    }

    /// Writes `row` as a line, each cell but the last padded to its column's width and two spaces,
    /// built as UTF-8 in one reused buffer (a table can have millions of lines).
    private mutating func writeLine(_ row: [String], _ widths: [Int]) throws {
        line.removeAll(keepingCapacity: true)
        for (column, cell) in row.enumerated() {
            var cell = cell
            cell.withUTF8 { line.append(contentsOf: $0) }
            if column < row.count - 1 {
                for _ in 0..<(max(0, widths[column] - DisplayWidth.of(cell)) + 2) { line.append(UInt8(ascii: " ")) }
            }
        }
        line.append(UInt8(ascii: "\n"))
        try line.withUnsafeBytes { try Console.write(bytes: $0) }
    }

    /// The first line of `text` (up to a line feed or a carriage return), tabs as spaces, cut to
    /// `limit` characters with an ellipsis; ` …` after it when more lines follow.
    static func excerpt(_ text: String, limit: Int) -> String {
        let scalars = text.unicodeScalars
        let end = scalars.firstIndex { $0 == "\n" || $0 == "\r" } ?? scalars.endIndex
        let single = String(String.UnicodeScalarView(scalars[..<end])).replacingOccurrences(of: "\t", with: " ")
        let cut = single.count > limit ? String(single.prefix(limit - 1)) + "…" : single
        return end != scalars.endIndex && cut == single ? cut + " …" : cut
    }
}
