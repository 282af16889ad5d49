import CSQLite
import Foundation

/// The body of an application-defined SQL function.
public typealias SQLFunction = ([DatabaseValue]) throws -> DatabaseValue

private final class FunctionBox {
    let body: SQLFunction
    init(_ body: @escaping SQLFunction) { self.body = body }
}

extension Connection {
    /// Registers a deterministic SQL function for this connection, callable from any statement.
    ///
    /// `argumentCount` of -1 accepts any number of arguments. A thrown error becomes an SQL error
    /// with the error's description as its message.
    public func createFunction(_ name: String, argumentCount: Int32, body: @escaping SQLFunction) throws {
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let code = sqlite3_create_function_v2(handle, name, argumentCount, flags, box, { context, count, arguments in
            guard let context, let pointer = sqlite3_user_data(context) else { return }
            let function = Unmanaged<FunctionBox>.fromOpaque(pointer).takeUnretainedValue()
            var values: [DatabaseValue] = []
            values.reserveCapacity(Int(count))
            for index in 0..<Int(count) {
                values.append(DatabaseValue(sqliteValue: arguments?[index]))
            }
            do {
                try function.body(values).setResult(of: context)
            } catch {
                sqlite3_result_error(context, "\(error)", -1)
            }
        }, nil, nil, { pointer in
            if let pointer { Unmanaged<FunctionBox>.fromOpaque(pointer).release() }
        })
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: "cannot register SQL function \(name)")
        }
    }

    /// Functions every connection has:
    /// - `swift_key(text)`: the string's ``Swift/String/comparisonKey`` (NFC), so that SQL compares
    ///   unindexed text the way Swift does; NULL stays NULL.
    func registerStandardFunctions() throws {
        try createFunction("swift_key", argumentCount: 1) { arguments in
            guard case .text(let text) = arguments[0] else { return arguments[0] }
            return .text(text.comparisonKey)
        }
    }
}

extension DatabaseValue {
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            if let text = sqlite3_value_text(value) {
                self = .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            } else {
                self = .text("")
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            self = .blob(sqlite3_value_blob(value).map { Data(bytes: $0, count: count) } ?? Data())
        default: self = .null
        }
    }

    func setResult(of context: OpaquePointer) {
        switch self {
        case .null: sqlite3_result_null(context)
        case .integer(let value): sqlite3_result_int64(context, value)
        case .real(let value): sqlite3_result_double(context, value)
        case .text(let value):
            var text = value
            text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_result_text(context, "", 0, transientDestructor)
                }
                sqlite3_result_text64(context, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                      UInt64(bytes.count), transientDestructor, UInt8(SQLITE_UTF8))
            }
        case .blob(let value):
            value.withUnsafeBytes { bytes in
                if bytes.isEmpty {
                    sqlite3_result_zeroblob(context, 0)
                } else {
                    sqlite3_result_blob64(context, bytes.baseAddress, UInt64(bytes.count), transientDestructor)
                }
            }
        }
    }
}
