import Foundation

/// Reads the CSV the CLI writes, for tests that compare its cells with another source.
public enum CSVRecords {
    /// RFC 4180 records as the CLI writes them: fields separated by commas, records ended by CRLF,
    /// a quoted field's quotes doubled; an empty unquoted field is a missing value (nil), `""` is
    /// empty text. Fails on anything else, such as a record cut short.
    public static func parse(_ bytes: [UInt8]) throws -> [[String?]] {
        var records: [[String?]] = [], record: [String?] = [], index = 0
        func fail(_ reason: String) -> Error {
            CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "CSV byte \(index): \(reason)"])
        }
        while index < bytes.count {
            var field: [UInt8] = [], quoted = false
            if bytes[index] == 0x22 {
                quoted = true
                index += 1
                while true {
                    guard index < bytes.count else { throw fail("a quoted field is not closed") }
                    if bytes[index] == 0x22 {
                        if index + 1 < bytes.count, bytes[index + 1] == 0x22 {
                            field.append(0x22)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    field.append(bytes[index])
                    index += 1
                }
            } else {
                while index < bytes.count, bytes[index] != 0x2C, bytes[index] != 0x0D {
                    guard bytes[index] != 0x22, bytes[index] != 0x0A else { throw fail("a quote or LF in an unquoted field") }
                    field.append(bytes[index])
                    index += 1
                }
            }
            record.append(quoted || !field.isEmpty ? String(decoding: field, as: UTF8.self) : nil)
            guard index < bytes.count else { throw fail("the last record has no CRLF") }
            if bytes[index] == 0x2C {
                index += 1
            } else if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                index += 2
                records.append(record)
                record = []
            } else {
                throw fail("a field ends in neither a comma nor CRLF")
            }
        }
        return records
    }
}
