extension String {
    /// This text as an SQL identifier: in double quotes, each `"` doubled, so that any table or
    /// column name another program chose names only itself.
    public var quotedSQLIdentifier: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
