/// Reads RFC 4180 CSV row by row from a ``ByteStream``: quoted fields may hold commas, quotes
/// (doubled) and line breaks; rows end with CRLF, LF or a CR alone (a spreadsheet's "CSV
/// (Macintosh)", and what Python's `csv`, pandas and LibreOffice read as a line break; it was
/// kept as the field's last character, so `Squat\r` became an exercise of its own: helper-90).
/// Every other byte is kept as it is, U+0000 included. Errors name the line and column.
struct CSVReader {
    struct SyntaxError: Error {
        let message: String
        let line: Int
        let column: Int
        /// The 0-based index in its row of the field at fault, when the problem is in one field.
        var fieldIndex: Int?
    }

    let stream: ByteStream
    /// The line the last row returned by ``nextRow()`` started on.
    private(set) var rowLine = 0

    init(stream: ByteStream) { self.stream = stream }

    /// The next row's fields, or nil at the end of the file. A row of more than `limit` fields is
    /// refused with `message` where its first field past the limit starts, before the rest is
    /// read: a line of millions of commas held each as a field (many times the line's size). A
    /// row of empty fields only (a spreadsheet's empty row, `,,,,`) is read as `limit` empty
    /// fields, however many it has.
    mutating func nextRow(atMost limit: (fields: Int, message: String)? = nil) throws -> [String]? {
        guard try stream.peek() != nil else { return nil }
        rowLine = stream.line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var afterQuote = false
        // Where the field being read began: an error in its text names that place (by the time
        // the field ends, the stream may be on the next line).
        var fieldStart = (line: stream.line, column: stream.column)
        var allEmpty = true
        func finish() throws {
            guard let text = String(exactUTF8: field) else {
                throw SyntaxError(message: "invalid UTF-8", line: fieldStart.line, column: fieldStart.column, fieldIndex: fields.count)
            }
            allEmpty = allEmpty && text.isEmpty
            if let limit, fields.count == limit.fields {
                // An empty field past the limit in a row of empty fields is dropped.
                guard allEmpty else { throw SyntaxError(message: limit.message, line: fieldStart.line, column: fieldStart.column) }
            } else {
                fields.append(text)
            }
            field.removeAll(keepingCapacity: true)
            quoted = false
            afterQuote = false
            fieldStart = (stream.line, stream.column)
        }
        while true {
            let line = stream.line, column = stream.column
            guard let byte = try stream.next() else {
                if quoted && !afterQuote {
                    // Named where the field opens: the end of the file says nothing of where a quote is missing.
                    throw SyntaxError(message: "unclosed quote: the file ends inside the quoted field that starts here",
                                      line: fieldStart.line, column: fieldStart.column, fieldIndex: fields.count)
                }
                try finish()
                return fields
            }
            if quoted && !afterQuote {
                if byte == UInt8(ascii: "\"") { afterQuote = true } else { field.append(byte) }
                if field.count > RecordLimits.textBytes {
                    // Named where the field opens: a quote left open makes the rest of the file one field.
                    throw SyntaxError(message: "quoted field longer than \(RecordLimits.textBytes >> 20) MiB (a quote left open?)",
                                      line: fieldStart.line, column: fieldStart.column, fieldIndex: fields.count)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where afterQuote:
                field.append(byte)
                afterQuote = false
            case UInt8(ascii: "\"") where field.isEmpty && !quoted:
                quoted = true
            case UInt8(ascii: ","):
                try finish()
            case 0x0D where try stream.peek() == 0x0A:
                continue
            case 0x0A, 0x0D:
                try finish()
                return fields
            default:
                if afterQuote || byte == UInt8(ascii: "\"") {
                    throw SyntaxError(message: "a quote inside an unquoted field, or text after a closing quote",
                                      line: line, column: column, fieldIndex: fields.count)
                }
                field.append(byte)
                if field.count > RecordLimits.textBytes {
                    throw SyntaxError(message: "field longer than \(RecordLimits.textBytes >> 20) MiB", line: line, column: column,
                                      fieldIndex: fields.count)
                }
            }
        }
    }
}
