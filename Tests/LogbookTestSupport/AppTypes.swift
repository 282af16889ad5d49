import Foundation

/// A checklist item as the ShipShape app's `Codable` type.
public struct AppChecklistItem: Codable, Equatable {
    public var id: UUID
    public var title: String
    public var isDone: Bool

    public init(id: UUID, title: String, isDone: Bool) {
        self.id = id
        self.title = title
        self.isDone = isDone
    }
}

/// A release draft as the ShipShape app's `Codable` type: what its `PropertyListEncoder` writes
/// to `release-draft.plist` and its `JSONEncoder` to `drafts.json`.
public struct AppReleaseDraft: Codable, Equatable {
    public var version: String
    public var whatsNew: String
    public var checklist: [AppChecklistItem]
    public var submittedAt: Date?

    public init(version: String, whatsNew: String, checklist: [AppChecklistItem], submittedAt: Date?) {
        self.version = version
        self.whatsNew = whatsNew
        self.checklist = checklist
        self.submittedAt = submittedAt
    }
}

/// An exercise day as the HIITFit app's `Codable` type (`history.json`); encoded in a property
/// list with ``plistElement``, as the app writes `history.plist`.
public struct AppExerciseDay: Codable, Equatable {
    public var id: UUID
    public var date: Date
    public var exercises: [String]

    public init(id: UUID, date: Date, exercises: [String]) {
        self.id = id
        self.date = date
        self.exercises = exercises
    }

    /// The day as an element of `history.plist`: `[uuidString, date, [names]]`.
    public var plistElement: PlistElement { PlistElement(day: self) }

    /// The `history.plist` element of a day, for Foundation's encoders.
    public struct PlistElement: Encodable {
        let day: AppExerciseDay

        public func encode(to encoder: Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(day.id.uuidString)
            try container.encode(day.date)
            try container.encode(day.exercises)
        }
    }
}
