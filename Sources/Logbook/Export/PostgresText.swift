import SQLiteQuery

/// Text for PostgreSQL: fields of `COPY … FROM stdin` in its text format, and string literals.
enum PostgresText {
    /// `value` as one field of a text-format COPY line: backslash, tab, line feed and carriage
    /// return escaped, every other byte as it is. PostgreSQL's `text` cannot hold U+0000, so a
    /// value with one is refused, naming the `record` (`the day 2026-01-09 (ID)`) and field,
    /// rather than changed.
    static func copyField(_ value: String, record: @autoclosure () -> String?, field: String) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x09: bytes += [0x5C, 0x74]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x00: throw unstorable(value, record: record(), field: field)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws what ``copyField(_:record:field:)`` throws for `value` when PostgreSQL's `text` cannot
    /// hold it, before any field of its record is written.
    static func refuseUnstorable(_ value: String, record: @autoclosure () -> String, field: String) throws {
        if value.utf8.contains(0) { throw unstorable(value, record: record(), field: field) }
    }

    private static func unstorable(_ value: String, record: String?, field: String) -> LogbookError {
        .invalidValue(field: record.map { "\(field) of \($0)" } ?? field, value: String(value.prefix(20)),
                      reason: "it holds U+0000, which PostgreSQL text cannot store")
    }

    /// `value` as a standard SQL string literal (quotes doubled, scalar by scalar, so that one a
    /// combining mark follows is doubled too; `standard_conforming_strings` on).
    static func literal(_ value: String) -> String {
        "'" + value.replacingEvery("'", with: "''") + "'"
    }

    /// `value` for a `--` comment: control characters (a line break would end the comment) dropped.
    static func comment(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.filter { scalar in
            !(0...0x1F).contains(scalar.value) && !(0x7F...0x9F).contains(scalar.value) && scalar != "\u{2028}" && scalar != "\u{2029}"
        }))
    }
}
