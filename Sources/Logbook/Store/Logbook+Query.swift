import Foundation
import SQLiteQuery

/// Why `logbook query` refused a statement.
public struct ReadOnlyQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    public let sql: String
    public var description: String {
        "query runs read-only SQL; this statement would change the database: \(sql.prefix(200))"
    }
}

extension Logbook {
    /// Runs one read-only SQL statement with named parameters (`:name`, `@name` or `$name`) and
    /// hands over the column names, then each row as it is stepped. The statement runs on a
    /// read-only connection with `PRAGMA query_only`, so nothing it does can change the file.
    public func query(_ sql: String, parameters: [String: DatabaseValue] = [:],
                      columns: ([String]) throws -> Void, row: ([DatabaseValue]) throws -> Void) throws {
        var options = Connection.Options()
        options.readOnly = true
        let connection = try Connection(path: path, options: options)
        try connection.execute("PRAGMA query_only = ON")
        let statement = try connection.prepare(sql)
        guard statement.isReadOnly else { throw ReadOnlyQueryError(sql: sql) }
        for index in stride(from: 1, through: statement.parameterCount, by: 1) {
            guard let name = statement.parameterName(at: index), name.count > 1 else {
                throw QueryParameterError.unnamed(index: index)
            }
            guard let value = parameters[String(name.dropFirst())] else {
                throw QueryParameterError.missing(name: String(name.dropFirst()))
            }
            try statement.bind(value, at: index)
        }
        try connection.transaction(.deferred) {
            try columns((0..<statement.columnCount).map(statement.columnName(at:)))
            while try statement.step() {
                try row(try (0..<statement.columnCount).map { try statement.column($0, as: DatabaseValue.self) })
            }
        }
    }
}

/// A parameter of a `query` statement that cannot be bound.
public enum QueryParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    case unnamed(index: Int)
    case missing(name: String)

    public var description: String {
        switch self {
        case .unnamed(let index): "parameter \(index) has no name: write :name and pass -p name=value"
        case .missing(let name): "no value for parameter :\(name): pass -p \(name)=VALUE"
        }
    }
}
