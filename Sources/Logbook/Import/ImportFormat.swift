import SQLiteQuery

/// The formats `import` reads; `auto` decides from the file name, then the first bytes.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// `auto` decides from the file's extension, then its first bytes; `json` is an array of records,
    /// `ndjson` one record per line, `csv` the columns `export` writes, `plist` a binary or XML property list
    /// as the apps write it; `sqlite` another Logbook database (another device's), merged.
    case auto, json, ndjson, csv, plist, sqlite

    /// The format of a file named `name` whose content starts with `prefix`.
    static func detect(name: String, prefix: [UInt8]) -> ImportFormat? {
        if prefix.starts(with: Connection.fileHeaderMagic) { return .sqlite }
        let named = FormatExtension.formatName(of: name).flatMap(ImportFormat.init(rawValue:))
        // `.json` is read from the content too: an app's file of one object is NDJSON's first line.
        if let named, named != .json { return named }
        let text = prefix.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        if prefix.starts(with: Array("bplist".utf8)) || text.starts(with: Array("<?xml".utf8))
            || text.starts(with: Array("<plist".utf8)) || text.starts(with: Array("<!DOCTYPE plist".utf8)) {
            return .plist
        }
        if text.first == UInt8(ascii: "[") { return .json }
        if text.first == UInt8(ascii: "{") { return named == .json ? .json : .ndjson }
        if named == .json { return .json }
        if let first = text.first, first >= 0x20, first < 0x7F { return .csv }
        return nil
    }
}
