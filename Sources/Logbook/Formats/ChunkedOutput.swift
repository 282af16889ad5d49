/// Text handed on in pieces of about 64 KiB as it is appended: the rows of one record (a day of a
/// million exercises, a checklist of a hundred thousand items) never sit in memory whole, and a
/// record of a few rows is still handed on in one piece.
package struct ChunkedOutput {
    /// The size past which the text gathered is handed on.
    package static let pieceBytes = 1 << 16
    private let output: (String) throws -> Void
    private var text = ""

    package init(_ output: @escaping (String) throws -> Void) { self.output = output }

    /// Appends `piece`, handing the text on once it reaches ``pieceBytes``.
    package mutating func append(_ piece: String) throws {
        text += piece
        if text.utf8.count >= Self.pieceBytes { try flush() }
    }

    /// Hands on what is gathered, if anything.
    package mutating func flush() throws {
        guard !text.isEmpty else { return }
        try output(text)
        text = ""
    }
}
