import Foundation
import SQLiteQuery

extension Logbook {
    /// Runs one read-only SQL statement with named parameters (`:name`, `@name` or `$name`) and
    /// hands over the column names, then each row as it is stepped. The statement runs on a
    /// read-only connection with `PRAGMA query_only` and an authorizer that allows reading only
    /// (`Connection.allowOnlyReads()` in SQLiteQuery), so nothing it does can change the file or
    /// reach outside it; anything else throws ``LogbookError/queryRefused(sql:reason:)``, and so
    /// does a parameter without a value in `parameters` or a value for a parameter the statement
    /// does not have (a name mistyped). On a store of SQLite's in-memory or temporary database (`:memory:`, `""`), which no other
    /// connection sees, the statement runs on the store's own connection, prepared under the same
    /// rules (`Connection.prepareAllowingOnlyReads(_:)`), and sees what a write in progress on
    /// the calling thread wrote so far.
    public func query(_ sql: String, parameters: [String: DatabaseValue] = [:],
                      columns: ([String]) throws -> Void, row: ([DatabaseValue]) throws -> Void) throws {
        guard !Connection.isPrivateDatabase(path) else {
            return try database.withConnection { connection in
                try run(sql, parameters: parameters, prepared: { try connection.prepareAllowingOnlyReads(sql) },
                        columns: columns, row: row)
            }
        }
        let connection: Connection
        do {
            var options = Connection.Options()
            options.readOnly = true
            connection = try Connection(path: path, options: options)
            try connection.execute("PRAGMA query_only = ON")
            connection.allowOnlyReads()
        } catch {
            throw LogbookError.reported(error, path: path)
        }
        try run(sql, parameters: parameters, prepared: { try connection.prepare(sql) }, columns: columns, row: row)
    }

    /// Prepares `sql` with `prepared`, under rules that let it only read, binds `parameters` by
    /// name and hands over the column names and each row (a statement reads in one transaction).
    private func run(_ sql: String, parameters: [String: DatabaseValue], prepared: () throws -> Statement,
                     columns: ([String]) throws -> Void, row: ([DatabaseValue]) throws -> Void) throws {
        let statement: Statement
        do {
            statement = try prepared()
        } catch let error as SQLiteError where error.isNotAuthorized {
            throw LogbookError.queryRefused(sql: sql, reason: Self.notAuthorized)
        } catch let error as SQLiteError where error.isSeveralStatements {
            throw LogbookError.queryRefused(sql: sql, reason: "it holds more than one statement; run one at a time")
        } catch let error as SQLiteError where error.isNoStatement {
            throw LogbookError.queryRefused(sql: sql, reason: "it holds no statement")
        } catch let error as SQLiteError where error.sql == sql {
            // The caller's own SQL is wrong (a typo, a table that does not exist): said as SQLite says it.
            throw LogbookError.database(path: path, error)
        } catch {
            throw LogbookError.reported(error, path: path)
        }
        guard statement.isReadOnly else { throw LogbookError.queryRefused(sql: sql, reason: "it would change the database") }
        var taken: Set<String> = []
        for index in stride(from: 1, through: statement.parameterCount, by: 1) {
            guard let name = statement.parameterName(at: index), name.count > 1 else {
                throw LogbookError.queryRefused(sql: sql, reason: "parameter \(index) has no name: write :name and pass -p name=value")
            }
            guard let value = parameters[String(name.dropFirst())] else {
                throw LogbookError.queryRefused(sql: sql, reason: "no value for parameter \(name): pass -p \(name.dropFirst())=VALUE")
            }
            try statement.bind(value, at: index)
            taken.insert(String(name.dropFirst()))
        }
        // A value no parameter takes is a name mistyped, which would otherwise go unnoticed.
        if let unused = parameters.keys.sorted().first(where: { !taken.contains($0) }) {
            let its = taken.isEmpty ? "none" : taken.sorted().map { ":" + $0 }.joined(separator: ", ")
            throw LogbookError.queryRefused(sql: sql, reason: "a value was given for :\(unused), a parameter it does not have (it has \(its))")
        }
        do {
            try columns((0..<statement.columnCount).map(statement.columnName(at:)))
            var rowNumber = 0
            while try statement.step() {
                rowNumber += 1
                try row(try (0..<statement.columnCount).map { index in
                    let value = try statement.column(index, as: DatabaseValue.self)
                    // Text that is not UTF-8 reads with U+FFFD in place of its bytes: refused, as by
                    // every other read, rather than shown changed (real U+FFFDs are checked too).
                    if case .text(let text) = value, text.unicodeScalars.contains("\u{FFFD}"),
                       (try? statement.column(index, as: String.self)) == nil {
                        let name = statement.columnName(at: index)
                        throw LogbookError.queryRefused(sql: sql, reason: "row \(rowNumber), column \(name), holds text that is not UTF-8, "
                                                        + "which no output shows byte for byte; select hex(\(name)) or "
                                                        + "CAST(\(name) AS BLOB) to see its bytes")
                    }
                    return value
                })
            }
        } catch let error as SQLiteError where error.isNotAuthorized {
            // A `pragma_…` table-valued function is refused when stepped, not when prepared.
            throw LogbookError.queryRefused(sql: sql, reason: Self.notAuthorized)
        } catch let error as SQLiteError where error.isDatatypeMismatch && parameters.values.contains(where: Self.isNotWhole) {
            // SQLite names no value: the ones that could be at fault are named here.
            let values = parameters.sorted { $0.key < $1.key }.filter { Self.isNotWhole($0.value) }
                .map { ":\($0.key) is \(Self.describe($0.value))" }.joined(separator: "; ")
            throw LogbookError.queryRefused(sql: sql, reason: "SQLite's datatype mismatch: a value is not the whole number its "
                                                + "place needs, as a LIMIT or OFFSET does; of the values given, these are not: \(values)")
        } catch {
            throw LogbookError.reported(error, path: path)
        }
    }

    /// Why a statement the authorizer refused (a write, `ATTACH`, a pragma that sets, an
    /// extension) is refused, whether when prepared or when stepped.
    private static let notAuthorized = "it would change the database or reach outside it"

    /// Whether SQLite would refuse `value` where a whole number is needed: a real or a text that
    /// is not one exactly (`2.0` and `'7'` are taken, and were named too; helper-97).
    private static func isNotWhole(_ value: DatabaseValue) -> Bool {
        switch value {
        case .integer: false
        case .real(let number): !(number.rounded() == number && abs(number) < 0x1p63)
        case .text(let text): Int64(text.trimmingCharacters(in: .whitespaces)) == nil
        case .null, .blob: true
        }
    }

    /// A parameter's value as the mismatch names it: what SQLite holds it as.
    private static func describe(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): "\(number)"
        case .real(let number): "the real number \(number)"
        case .text(let text) where text.wholeMatch(of: /[-+]?[0-9]+/) != nil:
            "the text '\(text.prefix(100))' (a whole number beyond SQLite's, -9223372036854775808 to 9223372036854775807)"
        case .text(let text): "the text '\(text.prefix(100))'"
        case .blob(let data): "a blob of \(data.count) bytes"
        }
    }
}
