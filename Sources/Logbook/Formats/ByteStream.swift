import Foundation

/// Reads a file (or stdin) forward, byte by byte from a 64 KiB buffer, keeping the line and column
/// for error messages and the bytes consumed for progress. Memory stays flat whatever the size.
public final class ByteStream {
    private let handle: FileHandle?
    // The position is read and moved for every byte of an import. Without `@exclusivity(unchecked)`
    // each access to these stored properties of a class is checked at run time (swift_beginAccess,
    // a twentieth of an NDJSON import's instructions); one stream is read by one parser on one
    // thread, and no access to them overlaps another.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var index = 0
    private var isExhausted = false
    /// Bytes consumed so far.
    @exclusivity(unchecked) public private(set) var offset = 0
    /// 1-based line and column (in bytes) of the next byte.
    @exclusivity(unchecked) public private(set) var line = 1
    /// The 1-based column of the next byte, in bytes (not characters).
    @exclusivity(unchecked) public private(set) var column = 1
    /// ``offset`` just past the last CR consumed: an LF there ends the same line (CRLF).
    @exclusivity(unchecked) private var carriageReturnEnd = -1

    /// Whether reading never waits for input: bytes in memory, or a regular file (not a pipe, a
    /// terminal or a socket, whose reads wait for their writer).
    public let readsWithoutWaiting: Bool

    /// A stream over what `handle` reads from its current position, 64 KiB at a time; the handle stays open.
    public init(handle: FileHandle) {
        self.handle = handle
        var status = stat()
        readsWithoutWaiting = fstat(handle.fileDescriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// A stream over bytes in memory.
    public init(data: Data) {
        handle = nil
        buffer = Array(data)
        isExhausted = true
        readsWithoutWaiting = true
    }

    /// Up to `count` bytes from the current position, without consuming them: for sniffing a format.
    public func prefix(_ count: Int) throws -> [UInt8] {
        if buffer.count - index < count { try refill(keeping: true) }
        return Array(buffer[index..<min(buffer.count, index + count)])
    }

    /// Skips a UTF-8 byte order mark (EF BB BF) at the start of the stream, as spreadsheets and
    /// some editors write one before CSV and JSON text.
    public func skipByteOrderMark() throws {
        guard offset == 0, try prefix(3) == [0xEF, 0xBB, 0xBF] else { return }
        for _ in 0..<3 { _ = try next() }
    }

    /// The next byte without consuming it, or nil at the end.
    @inline(__always)
    public func peek() throws -> UInt8? {
        if index < buffer.count { return buffer[index] }
        try refill()
        return index < buffer.count ? buffer[index] : nil
    }

    /// Consumes and returns the next byte, or nil at the end.
    @inline(__always)
    public func next() throws -> UInt8? {
        guard let byte = try peek() else { return nil }
        index += 1
        offset += 1
        moveLineAndColumn(past: byte)
        return byte
    }

    /// Moves the line and column past one consumed byte: a line break (LF, CR, or the two as
    /// CRLF) starts the next line. A CR alone ends lines in some files (a spreadsheet's "CSV
    /// (Macintosh)"); counted at the LF only, every such line was called line 1.
    @inline(__always)
    private func moveLineAndColumn(past byte: UInt8) {
        if byte == 0x0A {
            if offset - 1 != carriageReturnEnd { line += 1 }
            column = 1
        } else if byte == 0x0D {
            line += 1
            column = 1
            carriageReturnEnd = offset
        } else {
            column += 1
        }
    }

    /// Consumes the bytes of a JSON string that need no attention, from the current position up to
    /// the first quote, backslash or control character (a line break among them) or the end of the
    /// bytes read so far, and appends them to `bytes`: one update of the position for the run
    /// instead of one per byte, which made most of a JSON import's parsing.
    public func appendPlainStringBytes(to bytes: inout [UInt8]) {
        let start = index
        var end = start
        buffer.withUnsafeBufferPointer { buffered in
            while end < buffered.count {
                let byte = buffered[end]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                end += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffered[start..<end]))
        }
        // No line break in the run: the line stays, the column moves on.
        index = end
        offset += end - start
        column += end - start
    }

    /// The rest of a JSON string and its closing quote, consumed, when the rest is plain ASCII (no
    /// quote before the closing one, no backslash, no control character, no byte above 0x7F), at
    /// most `maximumLength` bytes, and already read; otherwise nil, and nothing is consumed. Such
    /// bytes are their own text, with nothing to unescape or validate: most strings of an import
    /// (ids, days, dates, names) are read here, without the array of bytes the general path fills.
    public func takePlainASCIIString(maximumLength: Int) -> String? {
        let start = index
        var end = start
        var unionOfBytes: UInt8 = 0
        let text: String? = buffer.withUnsafeBufferPointer { buffered in
            while end < buffered.count {
                let byte = buffered[end]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                unionOfBytes |= byte
                end += 1
            }
            guard end < buffered.count, buffered[end] == UInt8(ascii: "\""), unionOfBytes < 0x80,
                  end - start <= maximumLength else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: buffered[start..<end]), as: UTF8.self)
        }
        guard let text else { return nil }
        // The run and the quote, on one line.
        index = end + 1
        offset += end + 1 - start
        column += end + 1 - start
        return text
    }

    /// Hands `read` the bytes read so far and not yet consumed, and consumes as many as it says it
    /// took (none when it returns nil), moving the line and column past them: for a reader that
    /// takes a whole value at once when all of it is in the buffer.
    func takeBuffered<Value>(_ read: (UnsafeBufferPointer<UInt8>) -> (value: Value, length: Int)?) -> Value? {
        buffer.withUnsafeBufferPointer { buffered in
            let unread = UnsafeBufferPointer(rebasing: buffered[index...])
            guard let (value, length) = read(unread) else { return nil }
            for byte in unread.prefix(length) {
                offset += 1
                moveLineAndColumn(past: byte)
            }
            index += length
            return value
        }
    }

    /// Reads the next chunk; with `keeping`, appends it to the unread bytes instead of replacing them.
    private func refill(keeping: Bool = false) throws {
        guard !isExhausted, let handle else { return }
        let (chunk, isAtEnd) = try Self.chunk(of: handle, upTo: 1 << 16)
        if isAtEnd { isExhausted = true }
        if keeping {
            buffer = Array(buffer[index...]) + chunk
        } else {
            buffer = Array(chunk)
        }
        index = 0
    }

    /// Why the bytes could not be read (standard input a folder, or closed), as the system says it.
    public struct ReadFailure: Error {
        /// The system's words for it (`Is a directory`).
        public let reason: String
    }

    /// The bytes from the handle's position to the end of its file, when the system can tell.
    private static func bytesLeft(in handle: FileHandle) -> Int? {
        var status = stat()
        let position = lseek(handle.fileDescriptor, 0, SEEK_CUR)
        guard fstat(handle.fileDescriptor, &status) == 0, position >= 0, status.st_size >= position else { return nil }
        return Int(status.st_size - position)
    }

    /// Up to `count` bytes of `handle`: reads until it has them or a read returns nothing, which
    /// is the end, `isAtEnd`. On a terminal that is the first Ctrl-D, as for `cat`: Foundation's
    /// `read(upToCount:)` stopped there as well, but the next call read on, so text typed after
    /// the end of input was taken (helper-86). A failure is a ``ReadFailure``.
    private static func chunk(of handle: FileHandle, upTo count: Int) throws -> (bytes: Data, isAtEnd: Bool) {
        var data = Data(count: count)
        var (length, isAtEnd, failure): (Int, Bool, Int32) = (0, false, 0)
        data.withUnsafeMutableBytes { bytes in
            while length < count {
                let bytesRead = read(handle.fileDescriptor, bytes.baseAddress! + length, count - length)
                if bytesRead > 0 {
                    length += bytesRead
                } else if bytesRead == 0 {
                    isAtEnd = true
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        guard failure == 0 else { throw ReadFailure(reason: String(cString: strerror(failure))) }
        data.count = length
        return (data, isAtEnd)
    }

    /// Every remaining byte (for formats read whole, such as property lists), or nil when there
    /// are more than `limit`: a regular file that holds more is refused before a byte is read.
    public func readAll(limit: Int) throws -> Data? {
        var data = Data(buffer[index...])
        if let handle, readsWithoutWaiting, let remaining = Self.bytesLeft(in: handle) {
            if data.count + remaining > limit { return nil }
            data.reserveCapacity(data.count + remaining)
        }
        index = buffer.count
        while let handle, !isExhausted {
            let (chunk, isAtEnd) = try Self.chunk(of: handle, upTo: 1 << 20)
            if isAtEnd { isExhausted = true }
            data.append(chunk)
            if data.count > limit { return nil }
        }
        offset += data.count
        return data
    }
}
