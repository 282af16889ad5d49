/// RFC 4180 CSV: fields joined by commas, rows ended by CRLF, a field quoted (with `"` doubled)
/// when it holds a comma, a quote, CR or LF.
public enum CSVText {
    /// One CSV row: the fields joined by commas, each quoted as needed, ended by CRLF.
    public static func row(_ fields: [String]) -> String {
        self.fields(fields) + "\r\n"
    }

    /// Fields joined by commas, each quoted as needed, without the line end.
    public static func fields(_ fields: [String]) -> String {
        var text = ""
        text.reserveCapacity(fields.reduce(0) { $0 + $1.utf8.count + 1 })
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "," }
            text += quoted(field)
        }
        return text
    }

    /// `field` unchanged, or in double quotes with each `"` doubled when it holds a comma, a quote, CR or LF.
    public static func quoted(_ field: String) -> String {
        var needsQuotes = false
        for byte in field.utf8 where byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D {
            needsQuotes = true
            break
        }
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
