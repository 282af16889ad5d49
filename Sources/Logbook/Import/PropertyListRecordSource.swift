import Foundation
import SQLiteQuery

/// A `release-draft.plist` (one `ReleaseDraft` dictionary, or an array of them) or a
/// `history.plist` (an array of `[uuidString, date, [names]]`), binary or XML, as the apps write
/// them. Property lists are read whole with `PropertyListSerialization`, as the apps read them,
/// the dates of drafts in XML as their app's `PropertyListDecoder` reads them (``ReformCalendar``).
struct PropertyListRecordSource: RecordSource {
    /// The largest property list read (the apps keep these files small; a history of decades is
    /// a few MiB).
    static let maximumBytes = 512 << 20

    let file: String
    private(set) var kind: RecordKind?
    private let elements: [Any]
    private var index = 0

    init(file: String, stream: ByteStream, kind: RecordKind?) throws {
        self.file = file
        guard let data = try stream.readAll(limit: Self.maximumBytes) else {
            throw ImportError(file: file, reason: "property list larger than \(Self.maximumBytes >> 20) MiB")
        }
        if let problem = PropertyListStringScan.scan(data).problem {
            throw ImportError(file: file, reason: problem)
        }
        var root = try Self.parse(data, file: file)
        let detected: RecordKind
        if root is [String: Any] {
            detected = .drafts
        } else if let array = root as? [Any] {
            detected = array.first is [Any] ? .history : .drafts
        } else {
            throw ImportError(file: file, reason: "expected an array or a dictionary at the root, found \(Self.describe(root))")
        }
        let kind = kind ?? detected
        if kind == .history && root is [String: Any] {
            throw ImportError(file: file, reason: "expected a history.plist (an array of [id, date, [names]]), found a dictionary")
        }
        // An XML list's dates as the app that writes its kind reads them (drafts before 1582-10-15
        // in the Julian calendar): read again where that is not how the parser read them.
        let dates = PropertyListStringScan.datesAsTheAppReadsThem(data, kind: kind)
        if let problem = dates.problem { throw ImportError(file: file, reason: problem) }
        if let rewritten = dates.rewritten { root = try Self.parse(rewritten, file: file) }
        self.kind = kind
        elements = (root as? [Any]) ?? [root]
    }

    private static func parse(_ data: Data, file: String) throws -> Any {
        do {
            return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ImportError(file: file, reason: parseFailure(error, data: data))
        }
    }

    /// Why the parser refused `data`, naming the place: in a binary list the object where it
    /// breaks, in XML the parser's own words, which name the line.
    private static func parseFailure(_ error: Error, data: Data) -> String {
        if data.starts(with: "bplist".utf8) {
            // The parser's message for a binary list it cannot read is its XML fallback's ("Unexpected
            // character b at line 1").
            return "not a valid binary property list: " + (PropertyListStringScan.binaryDamage(data) ?? "cut short or damaged")
        }
        guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty else {
            return "not a valid property list (cut short or damaged): \(error.localizedDescription)"
        }
        return "not a valid property list: \(detail)"
    }

    mutating func next() throws -> ImportedRecord? {
        guard index < elements.count else { return nil }
        let element = elements[index]
        index += 1
        do {
            let place = RecordPlace(number: index, line: nil)
            return kind == .history ? .day(try day(element), at: place) : .draft(try draft(element), at: place)
        } catch let error as FieldError {
            throw ImportError(file: file, record: index, field: error.field, reason: error.reason)
        }
    }

    private func day(_ element: Any) throws -> DayInput {
        guard let items = element as? [Any], items.count == 3 else {
            throw FieldError(field: "(record)", reason: "expected an array of exactly 3 items [id, date, [names]], found \(Self.describe(element))")
        }
        guard let idText = items[0] as? String, let id = UUID(text: idText) else {
            throw FieldError(field: "[0] id", reason: "expected a UUID string, found \(Self.describe(items[0]))")
        }
        guard let readDate = items[1] as? Date else {
            throw FieldError(field: "[1] date", reason: "expected a date, found \(Self.describe(items[1]))")
        }
        let date = try FieldError.supported(readDate, field: "[1] date")
        guard let names = items[2] as? [Any] else {
            throw FieldError(field: "[2] exercises", reason: "expected an array of strings, found \(Self.describe(items[2]))")
        }
        var exercises: [String] = []
        for (offset, name) in names.enumerated() {
            guard let text = name as? String else {
                throw FieldError(field: "[2] exercises[\(offset)]", reason: "expected a string, found \(Self.describe(name))")
            }
            exercises.append(text)
        }
        return DayInput(id: id, date: date, day: nil, exercises: exercises)
    }

    private func draft(_ element: Any) throws -> DraftInput {
        guard let dictionary = element as? [String: Any] else {
            throw FieldError(field: "(record)", reason: "expected a dictionary, found \(Self.describe(element))")
        }
        func string(_ dictionary: [String: Any], _ key: String, _ prefix: String = "") throws -> String {
            guard let value = dictionary[key] else { throw FieldError(field: prefix + key, reason: "missing") }
            guard let text = value as? String else {
                throw FieldError(field: prefix + key, reason: "expected a string, found \(Self.describe(value))")
            }
            return text
        }
        try FieldError.refuseUnknown(dictionary.keys.sorted(), known: Self.draftKeys, record: "a draft")
        guard let items = dictionary["checklist"] else { throw FieldError(field: "checklist", reason: "missing") }
        guard let array = items as? [Any] else {
            throw FieldError(field: "checklist", reason: "expected an array, found \(Self.describe(items))")
        }
        var checklist: [ChecklistItem] = []
        for (offset, item) in array.enumerated() {
            let prefix = "checklist[\(offset)]."
            guard let entry = item as? [String: Any] else {
                throw FieldError(field: "checklist[\(offset)]", reason: "expected a dictionary, found \(Self.describe(item))")
            }
            try FieldError.refuseUnknown(entry.keys.sorted(), known: Self.itemKeys, record: "a checklist item", prefix: prefix)
            let idText = try string(entry, "id", prefix)
            guard let id = UUID(text: idText) else { throw FieldError(field: prefix + "id", reason: "expected a UUID, found \"\(idText.prefix(60))\"") }
            guard let done = Self.boolean(entry["isDone"]) else {
                throw FieldError(field: prefix + "isDone", reason: entry["isDone"] == nil ? "missing" : "expected a boolean, found \(Self.describe(entry["isDone"] as Any))")
            }
            checklist.append(ChecklistItem(id: id, title: try string(entry, "title", prefix), isDone: done))
        }
        var submittedAt: Date?
        if let value = dictionary["submittedAt"] {
            guard let date = value as? Date else {
                throw FieldError(field: "submittedAt", reason: "expected a date, found \(Self.describe(value))")
            }
            submittedAt = try FieldError.supported(date, field: "submittedAt")
        }
        return DraftInput(id: nil, version: try string(dictionary, "version"), whatsNew: try string(dictionary, "whatsNew"),
                          checklist: checklist, submittedAt: submittedAt, createdAt: nil, updatedAt: nil)
    }

    /// The keys of a `ReleaseDraft` as `PropertyListEncoder` writes it, and of its checklist items
    /// (any other is refused, `FieldError.refuseUnknown`; a dictionary's keys have no order, so
    /// they are named sorted).
    private static let draftKeys = ["version", "whatsNew", "checklist", "submittedAt"]
    private static let itemKeys = ["id", "title", "isDone"]

    /// The value of a `<true/>` or `<false/>` (a binary boolean), nil for anything else: an
    /// integer 0 or 1 too, which `as? Bool` takes, and which the apps' `PropertyListDecoder`
    /// refuses where a `Bool` belongs.
    static func boolean(_ value: Any?) -> Bool? {
        guard let value else { return nil }
        #if canImport(Darwin)
        guard let number = value as? NSNumber, CFGetTypeID(number) == CFBooleanGetTypeID() else { return nil }
        return number.boolValue
        #else
        return type(of: value) == Bool.self ? value as? Bool : nil
        #endif
    }

    /// What `value` is, for a message: a string quoted (its first 60 characters), else its kind
    /// in the property list's own words (a binary list's null, UID and set objects too, which
    /// Foundation reads as Swift values of other types).
    static func describe(_ value: Any) -> String {
        if boolean(value) != nil { return "a boolean" }
        return switch value {
        case let text as String: "the string \"\(text.prefix(60))\(text.count > 60 ? "…" : "")\""
        case is Date: "a date"
        case is Data: "data"
        case is [String: Any]: "a dictionary"
        case is [AnyHashable: Any]: "a dictionary with a key that is not a string"
        case is [Any]: "an array"
        case is Set<AnyHashable>: "a set"
        case is NSNumber: "a number"
        default: "a null, a UID or another object that is none of a string, number, boolean, date, data, array or dictionary"
        }
    }
}
