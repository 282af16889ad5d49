/// RFC 4180 CSV: fields joined by commas, rows ended by CRLF, a field quoted (with `"` doubled)
/// when it holds a comma, a quote, CR or LF.
public enum CSVText {
    public static func row(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    public static func quoted(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
