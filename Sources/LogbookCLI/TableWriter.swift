/// Aligned columns for people. Widths come from the header and the first rows (up to
/// `sampleSize`); after that rows stream out as they come, so a long listing starts at once and
/// never sits in memory.
struct TableWriter {
    private let header: [String]
    private var sample: [[String]] = []
    private var widths: [Int]?
    private let sampleSize = 200
    private(set) var rowCount = 0

    init(header: [String]) { self.header = header }

    mutating func add(_ row: [String]) throws {
        rowCount += 1
        if let widths {
            try Console.print(Self.line(row, widths))
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
            ([header] + sample).map { $0[column].count }.max() ?? 0
        }
        self.widths = widths
        try Console.print(Self.line(header, widths))
        for row in sample { try Console.print(Self.line(row, widths)) }
        sample.removeAll()
    }

    private static func line(_ row: [String], _ widths: [Int]) -> String {
        var text = ""
        for (column, cell) in row.enumerated() {
            let isLast = column == row.count - 1
            text += isLast ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count) + 2)
        }
        return text
    }

    /// The first line of `text`, cut to `limit` characters with an ellipsis.
    static func excerpt(_ text: String, limit: Int) -> String {
        let firstLine = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let single = firstLine.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\r", with: "")
        let cut = single.count > limit ? String(single.prefix(limit - 1)) + "…" : single
        return text.contains("\n") && cut == single ? cut + " …" : cut
    }
}
