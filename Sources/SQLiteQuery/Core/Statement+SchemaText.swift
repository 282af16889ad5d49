extension Statement {
    /// The TEXT column `index` of SQLite's own table (`sqlite_master`: a type, name or statement)
    /// as the schema checks compare and show it. SQLite keeps the bytes another program gave it,
    /// so an object's name or statement may not be UTF-8; read as a `String`, it was refused, and
    /// with it the file, by every command, `check` included (helper-97). Here each ill-formed
    /// sequence reads as U+FFFD: such an object is never one the migrations make, and its name is
    /// shown, not run. Text SQLite runs again (an object made anew) is read as a `String`, which
    /// refuses it. Throws for another storage class, as ``column(_:as:)`` does.
    public func schemaText(_ index: Int) throws -> String {
        try withColumnTextBytes(of: handle, at: Int32(index)) { bytes in
            guard let bytes else { return try column(index, as: String.self) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
