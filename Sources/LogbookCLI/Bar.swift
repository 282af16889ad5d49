/// Bars for tables read by people: a trend of counts, a checklist's progress.
enum Bar {
    /// The eighths of a block, from none to whole.
    private static let eighths: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]

    /// `value` as a bar of up to `width` blocks against `maximum` (whole blocks and a last eighth),
    /// trailing spaces dropped; empty for 0.
    static func text(_ value: Int, of maximum: Int, width: Int) -> String {
        guard value > 0, maximum > 0 else { return "" }
        let eighthsLong = max(1, Int((Double(value) / Double(maximum) * Double(width * 8)).rounded()))
        // As UTF-8 bytes: a table of a day a row draws millions of bars.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(3 * (eighthsLong / 8 + 1))
        for _ in 0..<eighthsLong / 8 { utf8 += [0xE2, 0x96, 0x88] }  // █
        if eighthsLong % 8 != 0 { utf8.append(contentsOf: String(eighths[eighthsLong % 8]).utf8) }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// `done` of `total` as `width` cells, filled or not: `██████░░░░`.
    static func progress(_ done: Int, of total: Int, width: Int) -> String {
        let filled = total > 0 ? Int((Double(done) / Double(total) * Double(width)).rounded(.down)) : 0
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }
}
