// The types of the query layer that Logbook's own API takes and returns, and the process-wide
// settings a program may choose, exported so that an app, or the `logbook` tool, imports Logbook
// alone.
@_exported import struct SQLiteQuery.FetchDescriptor
@_exported import struct SQLiteQuery.RecordQuery
@_exported import struct SQLiteQuery.Ordering
@_exported import struct SQLiteQuery.QuerySchema
@_exported import enum SQLiteQuery.QueryExpression
@_exported import enum SQLiteQuery.QueryError
@_exported import enum SQLiteQuery.FilterExpression
@_exported import enum SQLiteQuery.FilterOperator
@_exported import enum SQLiteQuery.FilterLiteral
@_exported import enum SQLiteQuery.DatabaseValue
@_exported import class SQLiteQuery.Connection
@_exported import struct SQLiteQuery.SQLiteError
@_exported import enum SQLiteQuery.ProcessSettings
