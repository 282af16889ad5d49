import Foundation

/// What to do with a record whose id is already in the database.
public enum ConflictPolicy: String, Sendable, CaseIterable {
    /// Keep the stored record (the default): importing a file twice changes nothing.
    case skip
    /// Overwrite the stored record with the file's.
    case replace
    /// Reject the whole file.
    case fail
}

public struct ImportOptions: Sendable {
    /// What the file holds; nil to tell from its content.
    public var kind: RecordKind?
    public var format: ImportFormat = .auto
    public var onConflict: ConflictPolicy = .skip
    /// Validate and count everything, then roll back: nothing is written.
    public var dryRun = false
    /// Called every few thousand records with (records read, bytes read).
    public var progress: (@Sendable (Int, Int) -> Void)?

    public init(kind: RecordKind? = nil, format: ImportFormat = .auto, onConflict: ConflictPolicy = .skip,
                dryRun: Bool = false) {
        self.kind = kind
        self.format = format
        self.onConflict = onConflict
        self.dryRun = dryRun
    }
}

/// What an import did (or, for a dry run, would do).
public struct ImportSummary: Sendable, Equatable {
    public var kind: RecordKind?
    public var read = 0
    public var inserted = 0
    public var skipped = 0
    /// History entries appended to the record of their calendar day.
    public var merged = 0
    public var replaced = 0
    public var seconds: Double = 0

    /// `read 30, inserted 28, skipped 0, merged 2, replaced 0 in 0.04 s`.
    public var line: String {
        "read \(read), inserted \(inserted), skipped \(skipped), merged \(merged), replaced \(replaced) in "
            + String(format: "%.2f", seconds) + " s"
    }
}
