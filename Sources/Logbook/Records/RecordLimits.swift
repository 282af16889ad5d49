import Foundation

/// The limits of what Logbook stores, one declaration each, checked on every path that writes:
/// the repositories, and every import format before it reads a value into memory. Whatever is
/// stored can therefore be exported in every format and imported again.
public enum RecordLimits {
    /// The longest text of one field (a version, What's New, a title, an exercise name), in UTF-8
    /// bytes: 64 MiB.
    public static let textBytes = 64 << 20

    /// Throws ``LogbookError/invalidValue(field:value:reason:)`` naming `field` when `text` is
    /// longer than ``textBytes``. (`field` is built only then: a bulk write checks every name.)
    static func check(_ text: String, field: @autoclosure () -> String) throws {
        guard text.utf8.count <= textBytes else {
            throw LogbookError.invalidValue(field: field(), value: String(text.prefix(20)) + "…",
                                            reason: "\(text.utf8.count) bytes; text is limited to \(textBytes >> 20) MiB")
        }
    }
}

extension ReleaseDraft {
    /// Throws unless every date is within `Date.supportedRange` and every text within
    /// ``RecordLimits/textBytes``.
    func validate() throws {
        try submittedAt?.checkSupported(field: "submittedAt")
        try createdAt.checkSupported(field: "createdAt")
        try updatedAt.checkSupported(field: "updatedAt")
        try RecordLimits.check(version, field: "version")
        try RecordLimits.check(whatsNew, field: "whatsNew")
        for (index, item) in checklist.enumerated() {
            try RecordLimits.check(item.title, field: "checklist[\(index)].title")
        }
    }
}

extension ExerciseDay {
    /// Throws unless `exercises` holds at least one name, none empty or longer than
    /// ``RecordLimits/textBytes``.
    static func validate(exercises: [String]) throws {
        if exercises.isEmpty {
            throw LogbookError.invalidValue(field: "exercises", value: "", reason: "at least one exercise is needed")
        }
        for (index, name) in exercises.enumerated() {
            if name.isEmpty {
                throw LogbookError.invalidValue(field: "exercises[\(index)]", value: "", reason: "an exercise name cannot be empty")
            }
            try RecordLimits.check(name, field: "exercises[\(index)]")
        }
    }
}
