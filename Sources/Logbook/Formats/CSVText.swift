/// RFC 4180 CSV: fields joined by commas, rows ended by CRLF, a field quoted (with `"` doubled)
/// when it holds a comma, a quote, CR or LF. Empty text is written quoted (`""`) and a missing
/// value (nil) as nothing at all, so PostgreSQL's `COPY … CSV` and DuckDB's `read_csv` read the
/// first as empty text and the second as NULL.
public enum CSVText {
    /// One CSV row: the fields joined by commas, each quoted as needed, nil ones empty, ended by CRLF.
    public static func row(_ fields: [String?]) -> String {
        self.fields(fields) + "\r\n"
    }

    /// Fields joined by commas, each quoted as needed, nil ones empty, without the line end.
    public static func fields(_ fields: [String?]) -> String {
        var text = ""
        text.reserveCapacity(fields.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 1 })
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "," }
            if let field { text += quoted(field) }
        }
        return text
    }

    /// `field` unchanged, or in double quotes with each `"` doubled when it is empty or holds a
    /// comma, a quote, CR or LF.
    public static func quoted(_ field: String) -> String {
        var field = field
        guard field.withUTF8(needsQuotes) else { return field }
        var bytes: [UInt8] = []
        appendQuoted(field, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `field` as UTF-8, as ``quoted(_:)`` spells it.
    public static func appendQuoted(_ field: String, to bytes: inout [UInt8]) {
        var field = field
        field.withUTF8 { utf8 in
            guard needsQuotes(utf8) else {
                bytes.append(contentsOf: utf8)
                return
            }
            // Byte by byte: a quote followed by a combining mark is still a quote to double.
            bytes.append(0x22)
            for byte in utf8 {
                bytes.append(byte)
                if byte == 0x22 { bytes.append(0x22) }
            }
            bytes.append(0x22)
        }
    }

    /// Whether a field of these UTF-8 bytes is empty or holds a comma, a quote, CR or LF.
    private static func needsQuotes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.isEmpty || utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
    }

    /// `snake_case` for a `camelCase` column name: `whatsNew` → `whats_new` (the PostgreSQL schema's
    /// spelling; ``CSVHeaderStyle``).
    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
        return result
    }

    /// `camelCase` for a `snake_case` column name: `whats_new` → `whatsNew`; other names unchanged.
    static func camelCase(_ name: String) -> String {
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count > 1, !parts.contains(where: \.isEmpty) else { return name }
        return String(parts[0]) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// How the header row of a CSV export spells its columns.
public enum CSVHeaderStyle: String, Sendable, CaseIterable {
    /// `whatsNew`, `submittedAt`, `itemIsDone`: the JSON keys and the apps' `Codable` names; the
    /// default, so files and scripts written for earlier exports keep working.
    case camelCase
    /// `whats_new`, `submitted_at`, `item_is_done`: the PostgreSQL schema's column names, for
    /// `COPY … (FORMAT csv, HEADER match)`. Import reads either.
    case snakeCase = "snake_case"
}
