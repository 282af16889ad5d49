extension String {
    /// This text as an SQL identifier: in double quotes, each `"` doubled (scalar by scalar,
    /// `replacingEvery(_:with:)`: one a combining mark follows too), so that any table or column
    /// name another program chose names only itself.
    public var quotedSQLIdentifier: String { "\"" + replacingEvery("\"", with: "\"\"") + "\"" }
}

extension String {
    /// This identifier as SQLite compares names: A to Z folded to a to z, and no other letter
    /// (`Swift.lowercased()` makes the Kelvin sign `K` of `logbooK_settings` a `k`, a name SQLite
    /// tells apart from `logbook_settings`).
    var sqlNameKey: String { asciiLowercased }

    /// This text with A to Z made a to z, and every other character as it is: for words whose
    /// case does not matter, matched with no other letter (unlike `lowercased()`).
    package var asciiLowercased: String {
        String(decoding: utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
