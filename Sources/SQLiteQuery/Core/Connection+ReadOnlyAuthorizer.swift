import CSQLite

extension Connection {
    /// Lets statements on this connection only read: `SELECT` over tables, views and common table
    /// expressions (not `BEGIN`, `COMMIT`, `SAVEPOINT` or `ROLLBACK`, which could end a transaction
    /// another caller of the connection has open; each statement reads in its own), the
    /// read-only pragmas that describe the schema, and any function except those that reach outside
    /// the database (`fts3_tokenizer`, which returns and accepts native pointers, `load_extension`,
    /// and the shell's `readfile`, `writefile` and `edit` should a build register them). Everything
    /// else is refused when the statement is prepared (`SQLITE_AUTH`, "not authorized"), so a
    /// statement that would write never runs. One update is let through, of `sqlite_master`: SQLite
    /// authorizes the schema entry it makes for a pragma used as a table (`pragma_table_info(…)`)
    /// that way, and cannot tell it from a statement's; use this on a connection opened read-only
    /// (as `Logbook.query` does), where nothing can write that table either, or for one statement
    /// checked with ``Statement/isReadOnly`` (``prepareAllowingOnlyReads(_:)``).
    public func allowOnlyReads() {
        sqlite3_set_authorizer(handle, { _, action, first, second, _, _ in
            let name = { (text: UnsafePointer<CChar>?) in text.map { String(cString: $0).lowercased() } ?? "" }
            switch action {
            case SQLITE_SELECT, SQLITE_READ, SQLITE_RECURSIVE:
                return SQLITE_OK
            case SQLITE_FUNCTION:
                // (nil, the function's name)
                return ReadOnlyAuthorizer.deniedFunctions.contains(name(second)) ? SQLITE_DENY : SQLITE_OK
            case SQLITE_UPDATE where name(first) == "sqlite_master":
                // The first use of a pragma as a table (`pragma_table_info('drafts')`) enters it in
                // the connection's schema, which SQLite authorizes as an update of sqlite_master; the
                // connection is read-only and `query_only`, and a statement that writes is refused
                // by `sqlite3_stmt_readonly`, so nothing reaches the file.
                return SQLITE_OK
            case SQLITE_PRAGMA:
                // (the pragma's name, its argument or nil): an argument sets some pragmas.
                let pragma = name(first)
                return ReadOnlyAuthorizer.describingPragmas.contains(pragma)
                    || (second == nil && ReadOnlyAuthorizer.readingPragmas.contains(pragma)) ? SQLITE_OK : SQLITE_DENY
            default:
                return SQLITE_DENY
            }
        }, nil)
    }
}

extension Connection {
    /// Prepares `sql` under the rules of ``allowOnlyReads()``, on a connection with no authorizer
    /// of its own, which has none again when this returns: for a database only this connection
    /// sees (``isPrivateDatabase(_:)``), where a read-only connection of its own would open
    /// another, empty database, and whose other statements must keep writing. SQLite applies an
    /// authorizer when a statement is prepared; the statement, prepared again without it when
    /// first stepped (setting an authorizer expires every statement), is the same SQL, which was
    /// allowed. Refuse the statement unless ``Statement/isReadOnly``.
    public func prepareAllowingOnlyReads(_ sql: String) throws -> Statement {
        allowOnlyReads()
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        return try prepare(sql)
    }
}

/// What ``Connection/allowOnlyReads()`` refuses and allows by name.
private enum ReadOnlyAuthorizer {
    static let deniedFunctions: Set<String> = ["fts3_tokenizer", "load_extension", "readfile", "writefile", "edit"]
    /// Pragmas that describe a table or index named by their argument, or check the file (their
    /// argument a table or a number of problems to report: none of them sets anything).
    static let describingPragmas: Set<String> = ["table_info", "table_xinfo", "table_list", "index_list", "index_info",
                                                 "index_xinfo", "foreign_key_list", "foreign_key_check", "integrity_check",
                                                 "quick_check"]
    /// Pragmas that read a value when given no argument (with one, some of them set it).
    static let readingPragmas: Set<String> = ["collation_list", "function_list", "pragma_list", "page_count", "page_size",
                                              "freelist_count", "data_version", "user_version", "application_id", "database_list",
                                              "encoding", "compile_options", "schema_version", "auto_vacuum"]
}
