import Foundation

/// Writes whole buffers to an open file descriptor, retrying short writes, so that a full disk, a
/// file size limit or a closed device is an error that names the file, never lost output.
public struct FileOutput: Sendable {
    /// The open file descriptor written to. `FileOutput` never closes it: the caller owns it.
    public let descriptor: Int32
    /// The path named in errors.
    public let path: String

    /// Writes to `descriptor`, naming `path` in errors; the descriptor stays the caller's to close.
    public init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Writes all of `data`; throws ``LogbookError/cannotWrite(path:reason:)``.
    public func write(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw LogbookError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }
}
