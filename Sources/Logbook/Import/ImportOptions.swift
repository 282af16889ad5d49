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

/// How `importRecords(from:file:options:)` reads a file and treats records already stored.
public struct ImportOptions: Sendable {
    /// What the file holds; nil to tell from its content.
    public var kind: RecordKind?
    /// The file's format; ``ImportFormat/auto`` (the default) goes by the file name, then the first bytes.
    public var format: ImportFormat = .auto
    /// What to do with a record whose id is already stored; ``ConflictPolicy/skip`` by default, so importing
    /// a file twice changes nothing.
    public var onConflict: ConflictPolicy = .skip
    /// Validate and count everything, then roll back: nothing is written.
    public var dryRun = false
    /// Called every few thousand records with (records read, bytes read).
    public var progress: (@Sendable (Int, Int) -> Void)?

    /// Options with the values given; ``ImportOptions/progress`` is set afterwards.
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
    /// What the file held: the ``ImportOptions/kind`` given, else what its content showed; nil when neither
    /// told (an empty JSON array or NDJSON file).
    public var kind: RecordKind?
    /// Records read from the file (a draft of a CSV file counts once, however many rows it has).
    public var read = 0
    /// Records stored as new drafts or new days.
    public var inserted = 0
    /// Records whose id was already stored, left as stored: with ``ConflictPolicy/skip``, and with
    /// ``ConflictPolicy/replace`` for an entry merged earlier into another record of its day, which is kept.
    public var skipped = 0
    /// History entries appended to the record of their calendar day.
    public var merged = 0
    /// Stored records overwritten with the file's (``ConflictPolicy/replace``). A replacement day that lands
    /// on a day with another record is counted as merged.
    public var replaced = 0
    /// Time the whole import took, in seconds (a monotonic clock: steps of the wall clock do not count), including the `ANALYZE` after a large one.
    public var seconds: Double = 0

    /// `read 30, inserted 28, skipped 0, merged 2, replaced 0 in 0.04 s`.
    public var line: String {
        "read \(read), inserted \(inserted), skipped \(skipped), merged \(merged), replaced \(replaced) in "
            + String(format: "%.2f", seconds) + " s"
    }
}
