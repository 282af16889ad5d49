/// Why an import was rejected: the file, the record, where it is, and the field. Nothing was
/// written when this is thrown.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    /// 1-based record number in the file, when the problem is in one record.
    public var record: Int?
    /// 1-based line and column, for text formats.
    public var line: Int?
    public var column: Int?
    public var field: String?
    public let reason: String

    public init(file: String, record: Int? = nil, line: Int? = nil, column: Int? = nil, field: String? = nil,
                reason: String) {
        self.file = file
        self.record = record
        self.line = line
        self.column = column
        self.field = field
        self.reason = reason
    }

    public var description: String {
        var place: [String] = []
        if let record { place.append("record \(record)") }
        if let line { place.append(column.map { "line \(line), column \($0)" } ?? "line \(line)") }
        var text = file
        if !place.isEmpty { text += ": " + place.joined(separator: ", ") }
        if let field { text += ": field '\(field)'" }
        return text + ": " + reason
    }
}

/// A problem with one field of one record, before the importer adds the file and position.
struct FieldError: Error {
    let field: String
    let reason: String
}
